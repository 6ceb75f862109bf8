"""A link straight to a page of a freshly started server opens inside app.py's frame (menu, wide layout)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import serving, wait_for_app


@pytest.mark.e2e
def test_deep_link_on_fresh_server_keeps_navigation(tmp_path, page):
    with serving(tmp_path) as server:
        page.goto(f"{server.url}/references")
        wait_for_app(page)
        nav = page.get_by_test_id("stSidebarNav")
        expect(nav).to_be_visible()
        expect(nav.get_by_text("Compare")).to_be_visible()
        expect(page.get_by_role("heading", name="Reference numbers")).to_be_visible()
        assert "/references" in page.url


@pytest.mark.e2e
def test_deep_link_to_a_run_on_fresh_server_keeps_the_run(tmp_path, page):
    """`/run?run=ID` as the very first request: the query string survives the hop through app.py."""
    from engine.runs.store import Store

    run_id = "20260101-000000-abcdef"
    with serving(tmp_path) as server:
        Store(server.db).insert_run(
            {"run_id": run_id, "status": "ok", "kind": "matmul", "model": "matmul", "shape": "(64x64)@(64x64)",
             "dtype": "float32", "device": "cpu", "step_time_ms_median": 1.5, "total_s": 0.1, "gflops": 0.35}
        )  # fmt: skip
        page.goto(f"{server.url}/run?run={run_id}")
        wait_for_app(page)
        expect(page.locator(".st-key-run_result")).to_contain_text(run_id)
        expect(page.get_by_text("No run yet")).to_have_count(0)
        assert f"run={run_id}" in page.url, page.url
