"""Home, Compare, History and Devices in a real browser: a preset from Home run to the end and seen on
Compare next to the published numbers; CSV uploads on History (a bad file reported, the good ones
charted); demo mode refusing an over-cap run; screenshots of every page, empty and with data, light
and dark (artifacts/screenshots/dash_*.png).

Real `streamlit run app.py`, real worker subprocesses, Debian's chromium.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from engine.runs.store import Store
from tests.e2e.conftest import ROOT, screenshot, serving, wait_for_app

pytestmark = pytest.mark.e2e

RESULT_TIMEOUT_MS = 120_000  # TensorFlow start-up in the worker dominates; a 512³ matmul takes milliseconds
SAMPLE_EXPORT = ROOT / "data" / "history" / "sample_accelbench_export.csv"
SAMPLE_FOREIGN = ROOT / "data" / "history" / "sample_tf_benchmarks_2017.csv"


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    """A server with an empty results database of its own (the session server may hold other tests' runs)."""
    with serving(tmp_path_factory.mktemp("dash")) as server:
        yield server


@pytest.fixture(scope="module")
def dark_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("dash_dark"), {"STREAMLIT_THEME_BASE": "dark"}) as server:
        yield server


def shot(page, name: str) -> None:
    """The whole page: Streamlit scrolls inside its main container, so grow the viewport to fit first."""
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": max(1000, min(int(height) + 40, 7000))})
    page.wait_for_timeout(600)  # let Plotly re-lay out at the new size
    screenshot(page, name)
    page.set_viewport_size({"width": 1400, "height": 1000})


def open_page(page, server, path: str) -> None:
    page.goto(server.url + path)
    wait_for_app(page)
    expect(page.get_by_test_id("stSidebarNav")).to_contain_text("Compare")  # inside app.py's frame


def click_key(page, key: str) -> None:
    """Click the widget with this key (Streamlit marks its container with the class st-key-<key>)."""
    page.locator(f".st-key-{key} button").first.click()


def test_empty_pages_say_what_to_do(page, fresh_server):
    open_page(page, fresh_server, "/")
    expect(page.get_by_text("No runs yet")).to_be_visible()
    shot(page, "dash_home_empty_light")
    open_page(page, fresh_server, "/compare")
    expect(page.get_by_text("Pick at least one run or reference row")).to_be_visible()
    shot(page, "dash_compare_empty_light")
    open_page(page, fresh_server, "/history")
    expect(page.get_by_text("Nothing loaded yet")).to_be_visible()
    shot(page, "dash_history_empty_light")
    open_page(page, fresh_server, "/devices")
    expect(page.get_by_text("Peak, float32 (GFLOP/s)")).to_be_visible()
    expect(page.get_by_text("No GPU found")).to_be_visible()
    shot(page, "dash_devices_light")


def test_a_preset_from_home_ends_up_on_compare_next_to_the_references(page, fresh_server):
    open_page(page, fresh_server, "/")
    click_key(page, "home_run_quick_matmul")
    page.wait_for_url(re.compile(r"/run\?run="), timeout=30_000)
    run_id = re.search(r"run=([\w-]+)", page.url).group(1)
    expect(page.get_by_text(re.compile(r"Result — "))).to_be_visible(timeout=RESULT_TIMEOUT_MS)
    wait_for_app(page)
    assert Store(fresh_server.db).get_run(run_id)["status"] == "ok"
    # article 002's matmul is (10000x100)@(100x100000): another shape than the quick 512³, so no ratio anywhere
    expect(page.get_by_text(re.compile(r"On article 002's matmul"))).to_have_count(0)

    open_page(page, fresh_server, f"/compare?run={run_id}")
    expect(page.get_by_test_id("stMultiSelect").first).to_contain_text(run_id[-6:])
    expect(page.get_by_test_id("stPlotlyChart").first).to_contain_text(run_id[-6:])  # the run's own bar
    expect(page.get_by_text(re.compile(r"Other workloads — not comparable"))).to_be_visible()
    expect(page.get_by_text("Not like for like")).to_have_count(0)
    shot(page, "dash_compare_light")
    page.get_by_role("tab", name="Step times").click()
    wait_for_app(page)
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Step-time distribution")).to_be_visible()
    shot(page, "dash_compare_steps_light")

    open_page(page, fresh_server, "/")
    expect(page.get_by_test_id("stDataFrame")).to_be_visible()
    shot(page, "dash_home_light")


def test_history_upload_reports_the_bad_file_and_charts_the_good_ones(page, fresh_server, tmp_path):
    good = SAMPLE_EXPORT.read_text()
    lines = good.split("\n")
    header = lines[0].split(",")
    cells = lines[2].split(",")
    cells[header.index("created_at")] = "last tuesday"
    bad = tmp_path / "broken_export.csv"
    bad.write_text("\n".join([lines[0], lines[1], ",".join(cells), *lines[3:]]))

    open_page(page, fresh_server, "/history")
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        [str(SAMPLE_EXPORT), str(bad), str(SAMPLE_FOREIGN)]
    )
    wait_for_app(page)
    expect(page.get_by_text("broken_export.csv was not loaded")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("row 3, column 'created_at'")).to_be_visible()
    expect(page.get_by_text(re.compile(r"sample_accelbench_export\.csv: \d+ runs"))).to_be_visible()
    expect(page.get_by_text("sample_tf_benchmarks_2017.csv: 19 rows mapped")).to_be_visible()
    chart = page.get_by_test_id("stPlotlyChart").first
    # the axis names what the rows counted (our examples/s, the foreign table's images/s) and, where rows state
    # their device count, that it is per device
    expect(chart).to_contain_text(re.compile(r"Throughput( per device)? \(examples/s[^)]*\), median"))
    expect(chart).to_contain_text("P100")  # the foreign table's rows share the axis with ours
    shot(page, "dash_history_light")


def test_demo_mode_refuses_an_over_cap_run(page, demo_server):
    open_page(page, demo_server, "/")
    expect(page.get_by_text("Demo mode")).to_be_visible()
    click_key(page, "home_run_article002_matmul")
    wait_for_app(page)
    expect(page.get_by_text("demo mode allows sizes up to 2048, got 100000")).to_be_visible()
    assert Store(demo_server.db).count_runs() == 0
    shot(page, "dash_home_demo_refused")
    open_page(page, demo_server, "/history")
    expect(page.get_by_text("they stay in this browser session and are never saved")).to_be_visible()


def test_dark_theme_pages_with_data(page, dark_server):
    Store(dark_server.db).import_csv(SAMPLE_EXPORT.read_bytes(), SAMPLE_EXPORT.name)
    runs = Store(dark_server.db).list_runs()
    train = next(r for r in runs if r["kind"] == "train")
    open_page(page, dark_server, "/")
    expect(page.get_by_test_id("stDataFrame")).to_be_visible()
    shot(page, "dash_home_dark")
    open_page(page, dark_server, f"/compare?run={train['run_id']}")
    rate_bars = page.get_by_test_id("stPlotlyChart").filter(has_text="Rate of work, like for like (examples/s)")
    expect(rate_bars).to_be_visible()  # below the "Which device?" chart
    shot(page, "dash_compare_dark")
    open_page(page, dark_server, "/history")
    page.get_by_text("Include data/history/ (").click()
    wait_for_app(page)
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()
    shot(page, "dash_history_dark")
    open_page(page, dark_server, "/devices")
    shot(page, "dash_devices_dark")
