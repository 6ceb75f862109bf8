"""`engine sweep` on this machine (issue 21 items 1–2): a 2×2 matrix of real tiny runs stored with one sweep
id, impossible cells refused before anything starts (or skipped with their reasons), `--on ray` without
Ray, a sweep file, and a cancel that reaches cells not yet started."""

from __future__ import annotations

import sys

import pytest
from conftest import last_json, run_cli

from engine.cli import EXIT_INVALID, main
from engine.results.status import RunStatus
from engine.runs.store import Store
from engine.sweep import status
from engine.sweep.matrix import SweepError, matrix_from_values, read_matrix_file
from engine.sweep.plan import new_sweep_id, plan_cells
from engine.sweep.runner import run_stored

TINY = ("--backends", "jax", "--epochs", "1", "--steps-per-epoch", "2")


def refused(args: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == EXIT_INVALID
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("accelbench: error:"), lines
    return lines[0]


def test_a_2x2_local_sweep_stores_4_ok_runs_with_one_sweep_id_and_lists_the_skipped(db):
    proc = run_cli(
        "sweep", "--models", "tiny_cnn,fashion_cnn", "--datasets", "synthetic,reuters", "--batch-sizes", "16,32",
        *TINY, "--on", "local", "--skip-invalid", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = last_json(proc.stdout)
    assert [r["status"] for r in out["runs"]] == [RunStatus.OK] * 4
    assert {r["sweep_id"] for r in out["runs"]} == {out["sweep_id"]}
    assert len(out["skipped"]) == 4 and all("reuters" in s["cell"] for s in out["skipped"])
    assert proc.stderr.count("skipped cell") == 4 and "--dataset:" in proc.stderr
    store = Store(db)
    assert store.count_runs() == 4
    assert [r["run_id"] for r in status.sweep_rows(store, out["sweep_id"])] == [r["run_id"] for r in out["runs"]]
    shown = run_cli("sweep", "--show", out["sweep_id"])
    assert shown.returncode == 0 and shown.stdout.count(" ok ") == 4
    store.insert_run({"run_id": "20260101-000000-aaaaaa", "status": RunStatus.OK, "kind": "matmul"})  # not the sweep's
    listed = run_cli("results", "list", "--sweep", out["sweep_id"], "--json")
    assert sorted(r["run_id"] for r in last_json(listed.stdout)) == sorted(r["run_id"] for r in out["runs"])
    csv = run_cli("results", "export", "--sweep", out["sweep_id"])  # the sweep as a History file
    assert csv.returncode == 0 and len(csv.stdout.strip().splitlines()) == 1 + 4 and out["sweep_id"] in csv.stdout


@pytest.mark.parametrize(
    "args,words",
    [
        (["--models", "tiny_cnn", "--datasets", "reuters"], "cell 0 (tiny_cnn/reuters"),
        (["--models", "tiny_cnn,nope"], "cell 1 (nope/synthetic"),
        (["--models", "tiny_cnn", "--batch-sizes", "16,x"], "--batch-sizes"),
        (["--models", "tiny_cnn", "--devices", "gpu:H100"], "accelerator kind is a Ray resource"),
        (["--models", "tiny_cnn", "--on", "slurm"], "--on: must be local, ray"),
        (["--batch-sizes", "16"], "--models"),
        (["--cancel", "sweep-nope"], "no sweep 'sweep-nope'"),
    ],
)
def test_an_impossible_sweep_is_refused_in_one_line_and_stores_nothing(db, capsys, args, words):
    assert words in refused(["sweep", *args], capsys)
    assert not db.exists() or Store(db).count_runs() == 0


def test_on_ray_without_ray_says_how_to_install_it(db, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as on a machine without Ray: `import ray` fails
    line = refused(["sweep", "--models", "tiny_cnn", "--on", "ray://127.0.0.1:10001"], capsys)
    assert "pip install 'ray[default]==2.60.0'" in line
    assert not db.exists() or Store(db).count_runs() == 0


def test_a_sweep_file_gives_the_axes_and_shared_settings(tmp_path):
    toml = tmp_path / "sweep.toml"
    toml.write_text('models = ["tiny_cnn", "fashion_cnn"]\nbatch_sizes = [16, 32, 64]\nbackends = ["jax"]\n'
                    'devices = ["cpu", "gpu:H100"]\n[settings]\nepochs = 1\nsteps_per_epoch = 2\n')  # fmt: skip
    cells = matrix_from_values(read_matrix_file(toml)).cells()
    assert len(cells) == 2 * 3 * 2
    assert cells[1].request == {
        "kind": "train", "epochs": 1, "steps_per_epoch": 2, "model": "tiny_cnn", "dataset": "synthetic",
        "batch_size": 16, "precision": "float32", "backend": "jax", "device": "gpu",
    }  # fmt: skip
    assert cells[1].target.accelerator == "H100" and cells[1].label.endswith("gpu:H100")
    (tmp_path / "bad.toml").write_text("models = [")
    with pytest.raises(SweepError, match="not valid TOML"):
        read_matrix_file(tmp_path / "bad.toml")
    with pytest.raises(SweepError, match="unknown setting 'colour'"):
        matrix_from_values({"models": "tiny_cnn", "colour": "red"})


def test_cancelling_a_sweep_reaches_cells_that_have_not_started(db):
    store = Store(db)
    cells = matrix_from_values({"models": "tiny_cnn", "batch_sizes": "16,32", "backends": "jax"}).cells()
    sweep_id = new_sweep_id()
    planned = plan_cells(cells, store, sweep_id)
    assert [r["status"] for r in status.sweep_rows(store, sweep_id)] == [RunStatus.QUEUED] * 2
    assert len(status.cancel_sweep(store, sweep_id)) == 2
    row = run_stored(planned[0].run_id, planned[0].cell.request, store)  # its turn comes: it is not started
    assert row["status"] == RunStatus.CANCELLED and store.get_job(planned[0].run_id) is None
    assert status.is_finished(store, sweep_id)


def test_a_cell_waiting_for_its_turn_is_not_taken_for_a_run_that_never_started(db):
    from engine.runs import jobs

    store = Store(db)
    old = {"created_at": "2026-01-01T00:00:00.000000Z", "status": RunStatus.QUEUED, "kind": "train"}
    store.insert_run({"run_id": "20260101-000000-aaaaaa", "sweep_id": "sweep-x", **old})
    store.insert_run({"run_id": "20260101-000000-bbbbbb", **old})  # a plain run never started: reconciled
    jobs.refresh(store)
    assert store.get_run("20260101-000000-aaaaaa")["status"] == RunStatus.QUEUED
    assert store.get_run("20260101-000000-bbbbbb")["status"] == RunStatus.INTERRUPTED


def test_ctrl_c_on_a_local_sweep_cancels_the_running_cell_and_the_rest(db):
    import os
    import signal
    import subprocess

    from conftest import ROOT

    from engine.runs.store import wait_for

    args = ["sweep", "--models", "fashion_cnn", "--batch-sizes", "16,32", "--backends", "jax", "--epochs", "1",
            "--steps-per-epoch", "400", "--on", "local"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        env={**os.environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a suite started in the background (`cmd &`) inherits SIGINT ignored, and Python then never turns Ctrl-C
        # into KeyboardInterrupt: give the sweep the terminal's default, as a user's shell does
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    store = Store(db)
    assert wait_for(lambda: db.exists() and any(r["status"] == RunStatus.RUNNING for r in store.list_runs()), 60)
    proc.send_signal(signal.SIGINT)
    try:  # on a loaded 2-core machine the worker's group can take a while to go; say what the sweep printed
        _, err = proc.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"the sweep did not end 150 s after Ctrl-C: {err[-2000:]}") from None
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    assert [r["status"] for r in store.list_runs()] == [RunStatus.CANCELLED] * 2
