"""Demo mode in a real browser (issue 15): a TPU request is refused on the server, and an oversized
upload is refused before it is parsed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from engine.catalog.demo import DEMO_MAX_UPLOAD_MB
from engine.runs.store import Store
from tests.e2e.conftest import serving, wait_for_app

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def demo_capped(tmp_path_factory):
    env = {"ACCELBENCH_DEMO": "1", "STREAMLIT_SERVER_MAX_UPLOAD_SIZE": str(DEMO_MAX_UPLOAD_MB)}
    with serving(tmp_path_factory.mktemp("demo_capped"), env) as server:
        yield server


def choose(page, label: str, option: re.Pattern[str], tries: int = 3) -> None:
    """Pick `option` in the selectbox labelled `label`; reopen it if a late rerun closed the list."""
    for _ in range(tries):
        page.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
        item = page.get_by_role("option", name=option).first
        try:
            item.wait_for(state="visible", timeout=10_000)
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            wait_for_app(page)
            continue
        item.click()
        wait_for_app(page)
        return
    raise AssertionError(f"no option {option.pattern!r} in the {label!r} list after {tries} tries")


def test_demo_refuses_a_tpu_run(page, demo_capped):
    page.goto(demo_capped.url + "/run")
    wait_for_app(page)
    choose(page, "Device", re.compile("^TPU"))
    expect(page.get_by_text("demo mode runs on this machine's CPU or GPU only")).to_be_visible(timeout=30_000)
    expect(page.locator(".st-key-run_launch button")).to_be_disabled()
    assert Store(demo_capped.db).count_runs() == 0


def test_demo_refuses_an_oversized_upload(page, demo_capped, tmp_path):
    big = tmp_path / "big.csv"
    big.write_bytes(b"run_id,status\n" + b"x,ok\n" * ((DEMO_MAX_UPLOAD_MB + 1) * 2**20 // 5))
    page.goto(demo_capped.url + "/history")
    wait_for_app(page)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(big))
    wait_for_app(page)
    expect(page.get_by_text(f"{DEMO_MAX_UPLOAD_MB}").first).to_be_visible()
    expect(page.get_by_test_id("stFileUploader")).to_contain_text("must be", timeout=30_000)
    expect(page.get_by_text("big.csv was not loaded")).to_have_count(0)  # never reached the parser
