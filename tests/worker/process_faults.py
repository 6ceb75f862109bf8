"""What the `--processes N` tests (issue 30) share: start a detached run, find its rank processes, kill one mid-run,
wait for the run's row; and the correctness check, a multi-process run's loss and weights against one process's.

Real processes only: the run is `python -m engine run --detach`, a rank is `python -m engine.worker.launch.<module>`
and the kill is a real SIGKILL.
"""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import psutil

from engine.runs import jobs
from engine.runs.store import Store

# seconds within which a run with a dead rank must have ended: a hang guard far below what waiting on the dead peer
# would take (the run's 3600 s timeout), generous enough for a host running another suite beside this one
FAULT_BOUND_S = 180


def start(cli, run: list[str], *extra: str, env: dict | None = None) -> str:
    """A detached run of `run` + extra; its run_id."""
    done = cli("run", *run, *extra, "--detach", env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


def ranks(worker_pid: int, module: str, world: int, wait_s: float = 300) -> dict[int, psutil.Process]:
    """The worker's rank processes (`-m engine.worker.launch.<module>`) by RANK, once every one has started."""
    end = time.time() + wait_s
    while time.time() < end:
        found = {}
        for p in psutil.Process(worker_pid).children(recursive=True):
            try:
                if f"engine.worker.launch.{module}" in " ".join(p.cmdline()):
                    found[int(p.environ()["RANK"])] = p
            except (psutil.Error, KeyError):
                continue
        if len(found) == world:
            return found
        time.sleep(0.2)
    raise AssertionError(f"the {world} ranks did not start")


def wait_training(db: Path, run_id: str, wait_s: float = 300) -> None:
    """Until rank 0 reports the training phase (every rank has joined and is stepping)."""
    progress = db.parent / "runs" / run_id / "progress.jsonl"
    end = time.time() + wait_s
    while '"training"' not in (progress.read_text() if progress.exists() else ""):
        assert time.time() < end, f"run {run_id} never reached training"
        time.sleep(0.2)


def wait_row(store: Store, run_id: str, within_s: float) -> tuple[dict, float]:
    """The run's row once it is no longer queued or running, and how long that took."""
    t0 = time.time()
    row: dict = {}
    while time.time() - t0 < within_s:
        jobs.refresh(store)
        row = store.get_run(run_id) or {}
        if row.get("status") not in ("queued", "running"):
            return row, time.time() - t0
        time.sleep(0.3)
    raise AssertionError(f"run {run_id} still {row.get('status')} after {within_s} s")


def kill_rank_mid_run(cli, db: Path, run: list[str], module: str, victim: int = 1, world: int = 2) -> None:
    """Kill rank `victim` once the run trains: the run ends failed/interrupted within FAULT_BOUND_S naming the rank
    and this host, every other rank and the worker exit, no process is left."""
    store = Store(db)
    run_id = start(cli, run, "--processes", str(world))
    worker = store.get_job(run_id)["pid"]
    found = ranks(worker, module, world)
    wait_training(db, run_id)
    everyone = [psutil.Process(worker), *found.values()]
    os.kill(found[victim].pid, signal.SIGKILL)

    row, took = wait_row(store, run_id, within_s=FAULT_BOUND_S)
    assert row["status"] in ("failed", "interrupted"), (row["status"], row["error"])
    error = row["error"] or ""
    assert f"rank {victim} of {world}" in error and "SIGKILL" in error, error
    assert socket.gethostname() in error, error
    assert row["processes"] == world  # a failed multi-process row keeps how many processes it ran
    _, alive = psutil.wait_procs(everyone, timeout=60)
    assert not alive, f"left running: {alive}"
    assert took < FAULT_BOUND_S


def rank_never_joins(cli, db: Path, run: list[str], module: str, timeout_s: int, world: int = 2) -> None:
    """Rank 1 never joins (ACCELBENCH_FAULT_HOLD_RANK): the run fails at the bounded join timeout (a quarter of the
    run's timeout, at least 5 s) — `failed`, not the `timeout` its own deadline would record — with a message naming
    the absent rank and this host; no process is left. `timeout_s` leaves room for the framework's start."""
    from engine.worker.launch.ranks import HOLD_RANK, join_timeout_for

    store = Store(db)
    run_id = start(cli, run, "--processes", str(world), "--timeout-s", str(timeout_s), env={HOLD_RANK: "1"})
    worker = store.get_job(run_id)["pid"]
    found = ranks(worker, module, world)
    everyone = [psutil.Process(worker), *found.values()]
    row, _ = wait_row(store, run_id, within_s=timeout_s + 30)
    join_s = join_timeout_for(timeout_s)
    assert row["status"] == "failed", (row["status"], row["error"])
    error = row["error"] or ""
    assert "rendezvous timed out" in error, error
    assert f"rank(s) 1 of {world} never joined within {join_s:g} s" in error, error
    assert socket.gethostname() in error, error
    assert row["processes"] == world
    _, alive = psutil.wait_procs(everyone, timeout=60)
    assert not alive, f"left running: {alive}"


def assert_same_result(db: Path, one: dict, two: dict, loss_rtol: float, weight_atol: float) -> None:
    """`two` (N processes) reached `one`'s (1 process, same global batch, same steps) loss and final weights: the
    gradients were really all-reduced and averaged. Both runs kept their weights (ACCELBENCH_KEEP_WEIGHTS=1)."""
    import numpy as np
    import pytest

    from engine.worker.launch.ranks import WEIGHTS_FILE

    assert two["final_loss"] == pytest.approx(one["final_loss"], rel=loss_rtol)
    w1 = np.load(db.parent / "runs" / one["run_id"] / WEIGHTS_FILE)
    w2 = np.load(db.parent / "runs" / two["run_id"] / WEIGHTS_FILE)
    assert sorted(w1.files) == sorted(w2.files)
    for name in w1.files:
        np.testing.assert_allclose(w2[name], w1[name], rtol=0, atol=weight_atol, err_msg=name)
