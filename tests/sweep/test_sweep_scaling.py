"""A scaling sweep (issue 30 item 4): `engine sweep --processes 1,2` gives each cell `engine run --processes N`,
checked by `engine run`'s own checks; the Sweep page shows efficiency = rate at N ÷ (N × rate at 1)."""

from __future__ import annotations

import pytest
from conftest import ROOT
from page_helpers import no_exception
from streamlit.testing.v1 import AppTest

from engine.results.status import RunStatus
from engine.runs.store import Store
from engine.sweep import summary
from engine.sweep.local import LocalDispatcher
from engine.sweep.matrix import SweepError, matrix_from_values
from engine.sweep.ray_dispatch import cell_resources
from engine.sweep.validate import check_cells

SWEEP = "sweep-20261125-050000-abcdef"


def test_the_processes_axis_gives_each_cell_its_processes_and_engine_runs_checks_refuse_an_uneven_batch():
    cells = matrix_from_values({"models": "tiny_cnn", "backends": "torch", "batch_sizes": "15,16",
                                "processes": "1,2"}).cells()  # fmt: skip
    assert [(c.request["batch_size"], c.request["processes"]) for c in cells] == [(15, 1), (15, 2), (16, 1), (16, 2)]
    assert cells[1].label.endswith("torch cpu p2")
    checked = check_cells(cells, LocalDispatcher(), skip_invalid=True)
    assert [c.index for c in checked.runnable] == [0, 2, 3]
    [(skipped, reason)] = checked.skipped
    assert skipped.index == 1 and "does not split evenly over 2 processes" in reason
    assert "processes" not in matrix_from_values({"models": "tiny_cnn"}).cells()[0].request  # not an axis: as before
    with pytest.raises(SweepError, match="--processes: must be whole numbers above 0"):
        matrix_from_values({"models": "tiny_cnn", "processes": "0,2"})


def test_a_ray_cell_of_n_processes_asks_for_n_gpus_or_at_least_n_cpus():
    gpu, cpu = matrix_from_values({"models": "tiny_cnn", "devices": "gpu,cpu", "processes": "2"}).cells()
    assert cell_resources(gpu, 1)["num_gpus"] == 2 and cell_resources(cpu, 1)["num_cpus"] == 2
    assert cell_resources(cpu, 8)["num_cpus"] == 8


def _row(run_id: str, procs: int, eps: float, batch: int = 16) -> dict:
    return {
        "run_id": run_id, "created_at": f"2026-11-25T05:00:{len(run_id):02d}.000000Z", "status": RunStatus.OK,
        "kind": "train", "model": "tiny_cnn", "dataset": "synthetic", "precision": "float32", "backend": "torch",
        "device": "cpu", "global_batch_size": batch, "examples_per_sec": eps, "processes": procs, "sweep_id": SWEEP,
    }  # fmt: skip


ROWS = [_row("a", 1, 100.0), _row("bb", 2, 170.0), _row("ccc", 2, 190.0), _row("dddd", 4, 300.0)]


def test_scaling_is_the_rate_at_n_over_n_times_the_rate_at_1_with_its_spread():
    table = summary.scaling([*ROWS, _row("e", 2, 50.0, batch=32)])  # batch 32 has no 1-process run: left out
    assert list(table["processes"]) == [1, 2, 4]
    two = table.set_index("processes").loc[2]
    assert two["efficiency"] == pytest.approx(0.9) and two["ideal"] == pytest.approx(200.0)
    assert (two["low"], two["high"], two["runs"]) == (pytest.approx(0.85), pytest.approx(0.95), 2)
    assert table.set_index("processes").loc[4, "efficiency"] == pytest.approx(0.75)
    assert summary.scaling(ROWS[:1]).empty  # one process only: nothing to scale against
    assert summary.grid(ROWS)["cell"].iloc[1].endswith("cpu ×2 processes")


def test_the_sweep_page_shows_the_scaling_table(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "results.db"))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    store = Store(tmp_path / "results.db")
    for row in ROWS:
        store.insert_run(row)
    at = AppTest.from_file(str(ROOT / "pages" / "sweep.py"), default_timeout=60).run()
    no_exception(at)
    assert "Scaling over processes" in [h.value for h in at.subheader]
    shown = at.dataframe[-1].value.set_index("processes")
    assert shown.loc[2, "efficiency"] == pytest.approx(0.9) and shown.loc[4, "ideal"] == pytest.approx(400.0)


def test_a_cell_across_ray_nodes_says_so_in_its_sentence():
    from engine.compare.words.scaling_text import measured_sentence

    across = {**_row("eeeee", 4, 360.0), "node": "10.0.0.1 (aa); 10.0.0.2 (bb)"}
    table = summary.scaling([*ROWS[:2], across]).set_index("processes")
    assert (table.loc[1, "nodes"], table.loc[4, "nodes"]) == (1, 2)
    text = measured_sentence(table.reset_index().iloc[-1].to_dict())
    assert "over 2 Ray nodes" in text and "3.6× one process (90 % of ideal)" in text, text
    assert "Ray nodes" not in measured_sentence(table.reset_index().iloc[1].to_dict())
