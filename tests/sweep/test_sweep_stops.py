"""Every stop of a local sweep leaves every cell final (issue 45): SIGTERM (`timeout`) ends it like Ctrl-C, and the
waiting cells of a SIGKILLed sweep end `interrupted`, with why, at the next command that reads the store.
Real `engine sweep` processes, real signals, a real SQLite store; the tiniest JAX cells."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import psutil
import pytest
from conftest import ROOT, run_cli

from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs import endings, jobs
from engine.runs.machine import machine_id
from engine.runs.store import Store, wait_for
from engine.sweep.matrix import matrix_from_values
from engine.sweep.plan import new_sweep_id, plan_cells

CELLS = ["--models", "tiny_cnn", "--batch-sizes", "16,32", "--backends", "jax", "--epochs", "1", "--on", "local"]


def _sweep(*args: str) -> list[str]:
    return [sys.executable, "-m", "engine", "sweep", *CELLS, *args]


def _gone(pid: int) -> bool:
    return not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


@pytest.mark.slow
def test_timeout_20_on_a_local_sweep_cancels_the_running_cell_and_the_waiting_one(db):
    done = subprocess.run(
        ["timeout", "--preserve-status", "20", *_sweep("--steps-per-epoch", "1000000")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )  # fmt: skip
    rows = list(reversed(Store(db).list_runs()))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert [r["status"] for r in rows] == [RunStatus.CANCELLED] * 2, (rows, done.stderr[-3000:])
    assert all("SIGTERM to the sweep" in r["error"] for r in rows), rows
    assert f"SIGTERM: sweep {rows[0]['sweep_id']} cancelled" in done.stderr
    assert len(done.stdout.strip().splitlines()) == 2  # the summary: every cell, as after Ctrl-C
    worker = Store(db).get_job(rows[0]["run_id"])
    assert worker is not None and wait_for(lambda: _gone(worker["pid"]), 10)  # the running cell's worker stopped


@pytest.mark.slow
def test_sighup_to_a_local_sweep_cancels_it_as_sigterm_does(db):
    sweep = subprocess.Popen(_sweep("--steps-per-epoch", "1000000"), cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    store = Store(db)
    try:
        assert wait_for(lambda: db.exists() and any(r["status"] == RunStatus.RUNNING for r in store.list_runs()), 120)
        sweep.send_signal(signal.SIGHUP)  # its terminal closed
        out, err = sweep.communicate(timeout=120)  # a hang guard
    finally:
        sweep.kill()
    rows = store.list_runs()
    assert sweep.returncode == 1 and "Traceback" not in err, err[-3000:]
    assert [r["status"] for r in rows] == [RunStatus.CANCELLED] * 2 and all("SIGHUP" in r["error"] for r in rows)


@pytest.mark.slow
def test_a_sigkilled_sweeps_waiting_cell_ends_interrupted_at_the_next_look(db):
    sweep = subprocess.Popen(_sweep("--steps-per-epoch", "2"), cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    store = Store(db)
    running = lambda: [r for r in store.list_runs() if r["status"] == RunStatus.RUNNING]  # noqa: E731
    try:
        assert wait_for(lambda: bool(db.exists() and running()), 120), sweep.stderr.read() if sweep.stderr else ""
        first = running()[0]
        sweep.send_signal(signal.SIGKILL)  # nothing of the sweep runs after this: no handler, no cleanup
        sweep.wait(timeout=30)
    finally:
        sweep.kill()
    worker = store.get_job(first["run_id"])
    assert worker is not None and wait_for(lambda: _gone(worker["pid"]), 120)  # the started cell runs to its end
    shown = run_cli("sweep", "--show", first["sweep_id"], "--json")
    assert shown.returncode == 0, shown.stderr[-2000:]
    rows = list(reversed(store.list_runs()))
    assert not [r for r in rows if r["status"] in ACTIVE_STATUSES], rows
    assert rows[0]["status"] == RunStatus.OK, rows[0]
    assert rows[1]["status"] == RunStatus.INTERRUPTED and f"process {sweep.pid}" in rows[1]["error"], rows[1]


def test_a_waiting_cell_ends_only_when_the_sweep_that_queued_it_is_gone(db):
    store = Store(db)
    cells = matrix_from_values({"models": "tiny_cnn", "batch_sizes": "16,32,64", "backends": "jax"}).cells()
    alive_id, dead_id = new_sweep_id(), new_sweep_id() + "x"
    endings.record_sweep_owner(store, alive_id)  # this process: it still runs
    waiting = plan_cells(cells[:1], store, alive_id)
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(ended.stdout)  # a process that has exited, as a SIGKILLed sweep has
    store.set_job(dead_id, dead_pid, 1.0, 0.0, "", {"sweep_owner": True}, machine_id())
    orphans = plan_cells(cells[1:], store, dead_id)
    started = orphans[1].run_id  # its worker was started (a handle) just before the sweep died: refresh's own
    store.set_job(started, os.getpid(), psutil.Process().create_time(), 1e12, str(db.parent), {}, machine_id())
    changed = jobs.refresh(store)
    assert changed == [orphans[0].run_id]
    assert store.get_run(waiting[0].run_id)["status"] == RunStatus.QUEUED
    assert store.get_run(started)["status"] == RunStatus.QUEUED
    row = store.get_run(orphans[0].run_id)
    assert row["status"] == RunStatus.INTERRUPTED and f"process {dead_pid}" in row["error"], row
    other = new_sweep_id() + "y"  # a sweep run from another machine of a team store: its PID means nothing here
    store.set_job(other, dead_pid, 1.0, 0.0, "", {"sweep_owner": True}, "another-machine")
    (elsewhere,) = plan_cells(cells[:1], store, other)
    assert jobs.refresh(store) == [] and store.get_run(elsewhere.run_id)["status"] == RunStatus.QUEUED
