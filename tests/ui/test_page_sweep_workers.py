"""The Sweep page's "Training against input workers" (issue 38) on a real store holding a sweep over
--input-workers 1,2: training examples/s at each worker count as a solid line and the step alone as a dashed
line of the same colour; a sweep that held its workers at one count says how to vary them; an older sweep with
no worker counts shows no such section (the page test of issue 21 keeps its two charts)."""

from __future__ import annotations

import pytest
from conftest import ROOT
from page_helpers import no_exception, specs
from streamlit.testing.v1 import AppTest

from engine.charts.base import is_empty
from engine.charts.sweep import workers_figure
from engine.results.status import RunStatus
from engine.runs.store import Store
from engine.sweep.workers import workers_frame

SWEEP = "sweep-20261127-050000-38b000"


def _cell(run_id: str, workers: int, eps: float, state: str = RunStatus.OK) -> dict:
    return {
        "run_id": run_id, "created_at": f"2026-11-27T05:00:0{workers}.000000Z", "status": state, "kind": "train",
        "model": "flowers_cnn", "dataset": "flowers", "precision": "float32", "backend": "tensorflow",
        "device": "cpu", "global_batch_size": 64, "examples_per_sec": eps, "sweep_id": SWEEP,
        "input_workers": workers, "input_cores": 2, "input_examples_per_sec": 20.0 * workers,
        "step_examples_per_sec": 44.0 + workers * 0.2, "input_wait_pct": 40.0 / workers, "bound": "input",
    }  # fmt: skip


CELLS = [_cell("w1", 1, 19.5), _cell("w2", 2, 33.0), _cell("w4", 4, 0.0, RunStatus.FAILED)]


def test_the_workers_frame_and_figure():
    frame = workers_frame(CELLS)  # type: ignore[arg-type]
    assert list(frame["input_workers"]) == [1, 2]  # the failed cell is not a point
    fig = workers_figure(frame)
    solid, dashed = fig.data
    assert list(solid.x) == [1, 2] and list(solid.y) == [19.5, 33.0]
    assert dashed.line.dash == "dash" and dashed.y[0] == dashed.y[1] == pytest.approx(44.3)  # median step alone
    assert solid.line.color == dashed.line.color and "step alone" in dashed.name
    assert fig.layout.xaxis.title.text.startswith("Input workers") and "examples/s" in fig.layout.yaxis.title.text
    one = workers_figure(workers_frame(CELLS[:1]))  # type: ignore[arg-type]
    assert "--input-workers 1,2,4" in is_empty(one)


def test_the_sweep_page_draws_training_against_input_workers(tmp_path, monkeypatch):
    db = tmp_path / "results.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    store = Store(db)
    for row in CELLS:
        store.insert_run(row)  # type: ignore[arg-type]
    at = AppTest.from_file(str(ROOT / "pages" / "sweep.py"), default_timeout=60).run()
    no_exception(at)
    assert "Training against input workers" in [h.value for h in at.subheader]
    workers = specs(at)[-1]
    names = [t["name"] for t in workers["data"]]
    assert names[0].endswith(": training") and names[1].startswith(names[0].removesuffix(": training"))
    assert workers["data"][1]["line"]["dash"] == "dash"


def test_cells_that_differ_only_in_input_workers_are_separate_curves_and_heatmap_rows():
    """Three cells at one batch size (seen on the page: one vertical line at batch 64): one point per cell."""
    from engine.charts.sweep import batch_curve_figure
    from engine.sweep import summary

    curve = summary.batch_curve(CELLS)  # type: ignore[arg-type]
    assert sorted(curve["cell"].str.extract(r"input workers (\d+)$")[0]) == ["1", "2", "4"]
    assert curve.groupby("cell").size().max() == 1
    fig = batch_curve_figure(curve)
    assert all(len(t.x) <= 1 for t in fig.data)  # never two points of one trace at one batch size
    # the failed cell has no out-of-memory error: it failed, it did not "not fit"
    assert [t.name.rsplit(": ", 1)[1] for t in fig.data if t.mode == "markers"] == ["failed"]
    oom = summary.batch_curve([{**CELLS[2], "error": "out of memory: RESOURCE_EXHAUSTED"}])  # type: ignore[list-item]
    assert [t.marker.symbol for t in batch_curve_figure(oom).data if t.mode == "markers"] == ["x"]
    auto = summary.grid([{**CELLS[0], "input_workers": 0}])  # type: ignore[list-item]
    assert auto["cell"].iloc[0].endswith("· input workers auto")
    assert (
        "input workers"
        not in summary.grid([{k: v for k, v in CELLS[0].items() if k != "input_workers"}])["cell"].iloc[0]
    )  # type: ignore[misc]
