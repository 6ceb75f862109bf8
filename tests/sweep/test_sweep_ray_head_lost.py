"""The Ray head stopped mid-sweep (issue 30 item 5), on a real head (tests/sweep/ray_head.py): SIGTERM to every
process of the head, as `ray stop` does, while the first cell runs and two wait. The sweep prints no traceback,
ends every cell with a status and why, prints its summary and exits non-zero; no cell worker is left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import psutil
import pytest
from conftest import ROOT
from ray_head import start_head

from engine.results.status import RunStatus
from engine.runs.store import Store, wait_for

pytest.importorskip("ray", reason="Ray is installed by scripts/test.sh (requirements-test.txt)")
from engine.sweep.ray_dispatch import HEAD_LOST_QUEUED  # noqa: E402 (needs Ray's package only for the skip)


def test_the_head_stopped_mid_sweep_ends_every_cell_with_why_and_prints_the_summary(db, tmp_path):
    head = start_head(tmp_path / "head.log")
    try:
        sweep = subprocess.Popen(
            [sys.executable, "-m", "engine", "sweep", "--models", "fashion_cnn", "--batch-sizes", "16,32,64",
             "--backends", "jax", "--epochs", "1", "--steps-per-epoch", "2000", "--on", head.address],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            # the client gives the head this long to come back (Ray's default: 30 s) before ray.wait fails
            env={**os.environ, "RAY_CLIENT_RECONNECT_GRACE_PERIOD": "3", "TF_CPP_MIN_LOG_LEVEL": "3"},
        )  # fmt: skip
        store = Store(db)
        running = lambda: [r for r in store.list_runs() if r["status"] == RunStatus.RUNNING]  # noqa: E731
        assert wait_for(lambda: bool(db.exists() and running()), 90), sweep.kill() or sweep.communicate()
        worker_pid = store.get_job(running()[0]["run_id"])["pid"]
        head.stop(signal.SIGTERM)  # what `ray stop` sends each of the head's processes
        out, err = sweep.communicate(timeout=400)  # a hang guard; the message below says why it ended
    finally:
        head.close()
    print(out, err, sep="\n")  # shown with -s or on failure
    assert sweep.returncode == 1, err[-3000:]
    assert "Traceback" not in err and "lost the Ray head mid-sweep" in err, err[-3000:]
    rows = list(reversed(store.list_runs()))
    assert len(out.strip().splitlines()) == 3 and all(r["run_id"] in out for r in rows)  # the summary: every cell
    assert rows[0]["status"] == RunStatus.INTERRUPTED, rows[0]
    assert f"node {rows[0]['node']}" in rows[0]["error"] and "Ray head went away" in rows[0]["error"]
    assert [r["status"] for r in rows[1:]] == [RunStatus.CANCELLED] * 2
    assert all(HEAD_LOST_QUEUED in r["error"] for r in rows[1:])
    assert wait_for(lambda: not psutil.pid_exists(worker_pid) or psutil.Process(worker_pid).status() == "zombie", 10)
