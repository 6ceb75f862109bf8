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
