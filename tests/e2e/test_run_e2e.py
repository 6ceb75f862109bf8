"""The Run page in a real browser: launch small matmul and conv2d runs, watch, cancel, read the result card.

Real `streamlit run app.py`, real worker subprocesses, Debian's chromium. Screenshots go to
artifacts/screenshots/run_*.png (light theme, and dark via a second server started with
STREAMLIT_THEME_BASE=dark; users get dark from their system preference or the menu's Settings).
"""

from __future__ import annotations

import re

import pytest
from conftest import needs_no_gpu
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot, serving, wait_for_app

pytestmark = pytest.mark.e2e

RESULT_TIMEOUT_MS = 120_000  # TensorFlow start-up in the worker dominates; the ops take milliseconds


@pytest.fixture(scope="module")
def dark_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("dark"), {"STREAMLIT_THEME_BASE": "dark"}) as server:
        yield server


def open_run_page(page, server) -> None:
    # A deep link straight to /run: the page must come up inside app.py's frame (menu with page titles).
    page.goto(server.url + "/run")
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Run a benchmark")).to_be_visible()
    expect(page.get_by_test_id("stSidebarNav")).to_contain_text("Compare")


def shot(page, name: str) -> None:
    """A screenshot of the whole page: Streamlit scrolls inside its main container, so grow the viewport to fit."""
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": max(1000, min(int(height) + 40, 6000))})
    page.wait_for_timeout(500)  # let Plotly re-lay out at the new size
    screenshot(page, name)
    page.set_viewport_size({"width": 1400, "height": 1000})


def pick(page, label: str, option: str) -> None:
    """Choose `option` in the selectbox labelled `label`."""
    page.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    page.get_by_role("option", name=option).first.click()
    wait_for_app(page)


def launch_and_wait(page) -> None:
    page.get_by_role("button", name="Launch run").click()
    result = page.get_by_text(re.compile(r"Result — "))
    expect(result).to_be_visible(timeout=RESULT_TIMEOUT_MS)
    wait_for_app(page)


def assert_result_card(page) -> None:
    card = page.locator(".st-key-run_result")
    expect(card).to_contain_text("finished")
    expect(card).to_contain_text("Achieved GFLOP/s")
    expect(card).to_contain_text("% of peak")
    expect(card).to_contain_text("Devices used")
    expect(card).to_contain_text("CPU:0")
    expect(card).to_contain_text("Time to first step")


def test_matmul_from_the_run_page(page, app_server):
    open_run_page(page, app_server)
    expect(page.get_by_text("No run yet")).to_be_visible()
    shot(page, "run_empty_light")

    launch_and_wait(page)  # the default preset is the quick 512³ matmul
    assert_result_card(page)
    # the rate chart and the repeat-time chart; a telemetry chart follows when the run took ≥ 2 samples
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Time per repeat")).to_be_visible(timeout=30_000)
    # article 002's matmul is another shape than the quick 512³: no published bar beside it, and the card says so
    expect(page.get_by_text("No published matmul figures are available to compare with.")).to_be_visible()
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Time per repeat")).to_contain_text(
        re.compile(r"Time \(ms")
    )  # "(ms)" or "(ms, log scale)" when repeats vary widely
    assert re.search(r"[?&]run=\d{8}-\d{6}-[0-9a-f]{6}", page.url), page.url
    shot(page, "run_matmul_result_light")

    page.reload()  # the run id is in the URL, so a reload reattaches to the same result
    wait_for_app(page)
    expect(page.locator(".st-key-run_result")).to_contain_text("finished", timeout=30_000)


def in_view(page, locator) -> bool:
    """The element's top and its first lines are inside the viewport, with no scrolling."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 250) <= page.viewport_size["height"]


def test_after_launch_progress_and_result_are_in_view_at_1366x768(page, app_server):
    page.set_viewport_size({"width": 1366, "height": 768})
    open_run_page(page, app_server)
    page.get_by_role("button", name="Launch run").click()
    live = page.locator(".st-key-run_live")
    expect(live).to_be_visible(timeout=30_000)  # the worker is still starting TensorFlow
    assert in_view(page, live)
    card = page.locator(".st-key-run_result")
    expect(card).to_contain_text("finished", timeout=RESULT_TIMEOUT_MS)
    wait_for_app(page)
    assert in_view(page, card)
    assert in_view(page, card.get_by_text("Achieved GFLOP/s"))  # the headline number, not only the heading
    expect(page.get_by_text("Next run")).to_be_visible()  # the form follows, labelled as the next run


def test_conv2d_small_shape(page, app_server):
    open_run_page(page, app_server)
    pick(page, "Preset", "Quick conv2d 4×64×64×3, 32 3×3 filters (seconds)")
    expect(page.get_by_text(re.compile(r"Ready: conv2d 4x64x64x3"))).to_be_visible()
    launch_and_wait(page)
    assert_result_card(page)
    expect(page.locator(".st-key-run_result")).to_contain_text("Examples/s")
    # the rate chart and the repeat-time chart; a telemetry chart follows when the run took ≥ 2 samples
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Time per repeat")).to_be_visible(timeout=30_000)
    # article 000's conv is 128×256×256×3: another shape, so the quick conv gets no published bar beside it
    expect(page.get_by_text("No published conv2d figures are available to compare with.")).to_be_visible()
    shot(page, "run_conv2d_result_light")


@needs_no_gpu
def test_invalid_input_is_explained_and_not_launchable(page, app_server):
    open_run_page(page, app_server)
    pick(page, "Device", "GPU")
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("no GPU found")
    expect(page.get_by_role("button", name="Launch run")).to_be_disabled()
    shot(page, "run_invalid_gpu_light")


def test_live_progress_and_cancel(page, app_server):
    open_run_page(page, app_server)
    pick(page, "Preset", "Matmul 2048³ (compute-bound; compare with the CPU peak)")
    repeats = page.get_by_role("spinbutton", name="Timed repeats")
    repeats.fill("400")
    repeats.press("Enter")
    wait_for_app(page)
    page.get_by_role("button", name="Launch run").click()
    live = page.locator(".st-key-run_live")
    expect(live).to_contain_text(re.compile(r"Timing — \d+/400 repeats"), timeout=RESULT_TIMEOUT_MS)
    expect(live.get_by_test_id("stPlotlyChart").first).to_be_visible(timeout=30_000)
    shot(page, "run_live_progress_light")
    live.get_by_role("button", name="Cancel run").click()
    expect(page.locator(".st-key-run_result")).to_contain_text("cancelled", timeout=30_000)
    card = page.locator(".st-key-run_result")
    expect(card).to_contain_text("You cancelled this run")
    expect(card).to_contain_text("wall time")
    expect(card.get_by_test_id("stAlertContentError")).to_have_count(0)
    shot(page, "run_cancelled_light")


def test_small_training_run_over_two_logical_cpus(page, app_server):
    open_run_page(page, app_server)
    page.locator("label").filter(has_text="Training").first.click()
    wait_for_app(page)
    pick(page, "Model", "tiny_cnn — conv 64 3×3 → pool → ReLU → dense (TPUStrategy example)")
    for name, value in (("Batch size (global)", "64"), ("Logical devices", "2"), ("Steps per epoch", "5"),
                        ("Validation steps", "2")):  # fmt: skip
        box = page.get_by_role("spinbutton", name=name, exact=True)
        box.fill(value)
        box.press("Enter")
        wait_for_app(page)
    expect(page.get_by_text("32 × 2 replicas")).to_be_visible()  # the GLOBAL batch split across replicas
    launch_and_wait(page)
    card = page.locator(".st-key-run_result")
    expect(card).to_contain_text("finished")
    expect(card).to_contain_text("32 per replica")
    expect(card).to_contain_text("Final loss")
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Loss and accuracy per epoch")).to_be_visible()
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Step time")).to_be_visible()
    shot(page, "run_training_result_light")


def test_dark_theme_screenshots(page, dark_server):
    open_run_page(page, dark_server)
    shot(page, "run_empty_dark")
    launch_and_wait(page)
    assert_result_card(page)
    # the rate chart and the repeat-time chart; a telemetry chart follows when the run took ≥ 2 samples
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Time per repeat")).to_be_visible(timeout=30_000)
    shot(page, "run_matmul_result_dark")
