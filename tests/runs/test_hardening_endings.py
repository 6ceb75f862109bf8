"""Runs end with the right status and reason (issue 15, class 6)."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from engine.runs import jobs
from engine.runs.store import Store

DEAD_PID = 2**22 + 12345  # above the usual pid_max: no such process


def _dead_worker(db, log: str, spec_extra: dict | None = None) -> tuple[Store, str]:
    store = Store(db)
    run_id = "20260101-000000-dead01"
    run_dir = db.parent / "runs" / run_id
    run_dir.mkdir(parents=True)
    (run_dir / "log.txt").write_text(log)
    store.insert_run({"run_id": run_id, "status": "running", "kind": "matmul"})
    store.set_job(run_id, DEAD_PID, 1.0, 9e12, str(run_dir), {"kind": "matmul", **(spec_extra or {})})
    return store, run_id


TRACE = 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n'


@pytest.mark.parametrize(
    "log, status, says",
    [
        (TRACE + "ModuleNotFoundError: No module named 'tensorflow'\n", "failed", "No module named 'tensorflow'"),
        (TRACE + "sqlite3.OperationalError: database or disk is full\n", "failed", "database or disk is full"),
        (TRACE + "OSError: [Errno 28] No space left on device\n", "failed", "No space left on device"),
        (TRACE + "MemoryError: Unable to allocate 64.0 GiB\n", "failed", "out of memory: MemoryError"),
        ("Killed\n", "failed", "out of memory"),
        ("warming up\nrepeat 1\n", "interrupted", "ended without a result"),
    ],
)
def test_a_worker_that_dies_is_failed_with_its_last_error_line(db, log, status, says):
    store, run_id = _dead_worker(db, log, {"_memory_estimate": "1.2 GB"})
    assert jobs.refresh(store) == [run_id]
    row = store.get_run(run_id)
    assert row["status"] == status and says in row["error"], row["error"]
    if "out of memory" in says:
        assert "estimated need 1.2 GB" in row["error"]


def test_a_launcher_killed_before_storing_the_handle_does_not_orphan_a_live_worker(db):
    store = Store(db)
    run_id = "20260101-000000-orphan"
    run_dir = db.parent / "runs" / run_id
    run_dir.mkdir(parents=True)
    created = (datetime.now(UTC) - timedelta(seconds=120)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    store.insert_run({"run_id": run_id, "status": "running", "kind": "matmul", "created_at": created})
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "engine.worker", str(run_dir)])
    try:
        assert jobs.refresh(store) == []
        assert store.get_run(run_id)["status"] == "running"
        assert store.get_job(run_id)["pid"] == worker.pid  # adopted: it can still finish `ok` or be cancelled
    finally:
        worker.kill()
        worker.wait()
    assert jobs.refresh(store) == [run_id]  # once it is gone, it is reconciled like any dead worker


def test_final_status_and_series_are_one_transaction(db):
    store = Store(db)
    store.insert_run({"run_id": "r1", "status": "timeout", "kind": "matmul"})
    assert not store.finish_run("r1", {"status": "ok"}, {"repeat": [{"t": 1.0}]}, only_if_status=("running",))
    assert store.get_series("r1", "repeat") == [] and store.get_run("r1")["status"] == "timeout"
    store.insert_run({"run_id": "r2", "status": "running", "kind": "matmul"})
    with pytest.raises(TypeError):  # a series that cannot be written leaves the status unwritten too
        store.finish_run("r2", {"status": "ok"}, {"repeat": [{"t": object()}]}, only_if_status=("running",))
    assert store.get_run("r2")["status"] == "running"
    assert store.finish_run("r2", {"status": "ok"}, {"repeat": [{"t": 1.0}]}, only_if_status=("running",))
    assert store.get_series("r2", "repeat") == [{"t": 1.0}] and store.get_run("r2")["status"] == "ok"


@pytest.mark.parametrize("tight, status", [(True, "failed"), (False, "interrupted")])
def test_a_sigkill_reads_as_out_of_memory_only_for_a_run_near_the_memory_limit(db, tight, status):
    from engine.runs.endings import ending

    job = {"run_dir": str(db.parent), "spec": {"_memory_estimate": "9.0 GB", "_memory_tight": tight}}
    assert ending(job, -9)["status"] == status
    if tight:
        assert "out of memory" in ending(job, -9)["error"] and "9.0 GB" in ending(job, -9)["error"]
