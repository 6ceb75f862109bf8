"""The Sweep page (issue 21 item 4) on a real store holding a sweep's cells: the grid with each cell's
status, the throughput heatmap, the best cell per machine by examples/s and by USD per million examples,
the batch-size curve, and the button that cancels the whole sweep."""

from __future__ import annotations

import pytest
from conftest import ROOT
from page_helpers import no_exception, specs
from streamlit.testing.v1 import AppTest

from engine.results.status import RunStatus
from engine.runs.store import Store
from engine.sweep import status

SWEEP = "sweep-20261125-040000-abcdef"


def _cell(run_id: str, model: str, batch: int, state: str, eps: float | None, **extra) -> dict:
    return {
        "run_id": run_id, "created_at": f"2026-11-25T04:00:{len(run_id):02d}.000000Z", "status": state,
        "kind": "train", "model": model, "dataset": "synthetic", "precision": "float32", "backend": "jax",
        "device": "cpu", "global_batch_size": batch, "examples_per_sec": eps, "sweep_id": SWEEP, **extra,
    }  # fmt: skip


@pytest.fixture
def sweep_db(tmp_path, monkeypatch):
    db = tmp_path / "results.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    store = Store(db)
    cells = [
        _cell("r1", "tiny_cnn", 16, RunStatus.OK, 190.0, node="10.0.0.5 (aa11bb22)", price_per_hour_usd=2.0),
        _cell("r22", "tiny_cnn", 32, RunStatus.OK, 310.0, node="10.0.0.5 (aa11bb22)", price_per_hour_usd=2.0),
        _cell("r333", "fashion_cnn", 16, RunStatus.OK, 85.0, node="10.0.0.6 (cc33dd44)"),
        _cell("r4444", "fashion_cnn", 32, RunStatus.FAILED, None, error="out of memory: RESOURCE_EXHAUSTED"),
        _cell("r55555", "fashion_cnn", 64, RunStatus.QUEUED, None),
    ]
    for row in cells:
        store.insert_run(row)
    return store


def test_the_sweep_page_shows_the_grid_heatmap_best_cells_and_curve_and_cancels(sweep_db):
    at = AppTest.from_file(str(ROOT / "pages" / "sweep.py"), default_timeout=60).run()
    no_exception(at)
    assert at.selectbox(key="sweep_pick").value == SWEEP
    cells = at.dataframe[0].value  # the grid: cell groups × batch sizes, each with its status
    assert list(cells.columns) == ["batch 16", "batch 32", "batch 64"]
    assert cells.loc["tiny_cnn synthetic float32 jax cpu", "batch 32"] == "✓ ok 310/s"
    assert cells.loc["fashion_cnn synthetic float32 jax cpu", "batch 32"] == "✗ failed"
    assert cells.loc["fashion_cnn synthetic float32 jax cpu", "batch 64"] == "… queued"
    grid = at.dataframe[1].value
    assert list(grid["run_id"]) == ["r1", "r22", "r333", "r4444", "r55555"]
    heat, curve = specs(at)
    assert heat["data"][0]["type"] == "heatmap" and heat["data"][0]["x"] == ["16", "32"]
    assert any(t.get("marker", {}).get("symbol") == "x" for t in curve["data"])  # batch 32 did not fit
    best = at.dataframe[2].value.set_index("machine")
    assert best.loc["10.0.0.5 (aa11bb22)", "fastest_cell"].endswith("b32")
    assert best.loc["10.0.0.5 (aa11bb22)", "usd_per_million_examples"] == pytest.approx(2.0 / (310 * 3600) * 1e6)
    button = at.button(key="sweep_cancel")
    assert "1 cells left" in button.label and not button.disabled
    button.click().run()
    no_exception(at)
    assert [r["status"] for r in status.sweep_rows(sweep_db, SWEEP)][-1] == RunStatus.CANCELLED
    assert at.dataframe[0].value.loc["fashion_cnn synthetic float32 jax cpu", "batch 64"] == "■ cancelled"
    assert "Cancelled 1 cells." in [s.value for s in at.success]


def test_the_sweep_page_without_sweeps_says_how_to_start_one(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "results.db"))
    at = AppTest.from_file(str(ROOT / "pages" / "sweep.py"), default_timeout=60).run()
    no_exception(at)
    assert "python -m engine sweep" in at.info[0].value
