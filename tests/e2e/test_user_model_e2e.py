"""Your own model on the Run page in a real browser: upload a saved .keras file, read its facts (safe mode),
launch it, and get a result card naming it; screenshots at 1366×768 in light and dark."""

from __future__ import annotations

import pytest
from conftest import save_fixture_models
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot, wait_for_app
from tests.e2e.test_run_e2e import RESULT_TIMEOUT_MS, launch_and_wait, open_run_page

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    (path,) = save_fixture_models(tmp_path_factory.mktemp("upload"), "build")
    return path


def test_upload_your_model_read_its_facts_and_run_it(app_server, browser, saved):
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    open_run_page(page, app_server)
    page.get_by_text("Training", exact=True).click()
    wait_for_app(page)
    page.get_by_role("radio", name="Your model (.keras)").click()
    wait_for_app(page)
    expect(page.get_by_text("upload a saved .keras model first")).to_be_visible()
    expect(page.get_by_role("button", name="Launch run")).to_be_disabled()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(saved))
    facts = page.get_by_text("two_input_net: 981 parameters")
    expect(facts).to_be_visible(timeout=RESULT_TIMEOUT_MS)
    wait_for_app(page)
    screenshot(page, "run_user_model_1366_light")
    launch_and_wait(page)
    expect(page.get_by_text("two_input_net").first).to_be_visible()
    ctx.close()
