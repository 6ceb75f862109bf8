"""The dashboard's server stays small: under 400 MB resident with every page visited and no run going."""

from __future__ import annotations

import psutil
import pytest

from .conftest import wait_for_app

PAGES = ["", "run", "compare", "history", "references", "devices"]


@pytest.mark.e2e
def test_server_resident_memory_under_400_mb(app_server, page):
    for path in PAGES:
        page.goto(f"{app_server.url}/{path}")
        wait_for_app(page)
    proc = psutil.Process(app_server.proc.pid)
    rss_mb = sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)]) / 2**20
    print(f"streamlit server RSS after visiting {len(PAGES)} pages: {rss_mb:.0f} MB")
    assert rss_mb < 400
