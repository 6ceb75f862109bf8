"""The Sweep page in a real browser following a real local sweep (issue 21's "the Sweep view shows them"):
the grid updates live as the cells end, then the heatmap and the best cell per machine appear."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from engine.runs.store import Store, wait_for

from .conftest import ROOT, screenshot, serving, wait_for_app


@pytest.mark.e2e
def test_the_sweep_page_follows_a_real_local_sweep(tmp_path, page):
    with serving(tmp_path) as server:
        args = ["sweep", "--models", "tiny_cnn", "--batch-sizes", "16,32", "--backends", "jax", "--epochs", "1",
                "--steps-per-epoch", "2", "--on", "local"]  # fmt: skip
        env = {**os.environ, "ACCELBENCH_DB": str(server.db), "TF_CPP_MIN_LOG_LEVEL": "3"}
        sweep = subprocess.Popen([sys.executable, "-m", "engine", *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            assert wait_for(lambda: server.db.exists() and Store(server.db).count_runs() == 2, 60)
            page.goto(f"{server.url}/sweep")
            wait_for_app(page)
            expect(page.get_by_role("heading", name="Sweep")).to_be_visible()
            expect(page.get_by_text("of 2 cells ended")).to_be_visible()
            assert sweep.wait(180) == 0
        finally:
            sweep.kill()
        expect(page.get_by_text("2 of 2 cells ended")).to_be_visible(timeout=30_000)  # the grid polls every 2 s
        heatmap = page.get_by_test_id("stPlotlyChart").first
        expect(heatmap).to_contain_text("Batch size (global)", timeout=30_000)  # drawn, with its axis title
        expect(heatmap).to_contain_text("tiny_cnn synthetic float32 jax cpu")
        expect(page.get_by_text("Best cell per machine")).to_be_visible()
        expect(page.get_by_role("button", name="Cancel the sweep")).to_be_disabled()  # nothing left to cancel
        screenshot(page, "sweep")
