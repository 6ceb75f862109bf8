"""How a run that is gone is recorded, and how a live worker without a job handle is found again.

`engine.runs.jobs.refresh` asks these when a worker is no longer alive (`ending`: `failed` with the
log's last error line — an import error, a full disk, out of memory — else `interrupted`) and when a
row has no job handle past the launch grace (`end_unstarted`, with `adopt_orphan`: a launcher killed between
starting the worker and storing its handle must not turn a run that then finishes `ok` into `superseded`).

A sweep's cells wait `queued` without a handle until their turn; the process that queued them (`engine sweep`,
local or the Ray driver) is stored as the sweep's owner (`record_sweep_owner`: a job handle keyed by the sweep
id, which no run has), so a cell whose sweep was killed (SIGKILL: nothing ran its cleanup) ends `interrupted`
with why at the next look, instead of waiting for ever.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs.machine import machine_id
from engine.runs.processes import alive, create_time
from engine.runs.store import Store

_ERROR_LINE = re.compile(
    r"^(?:[A-Za-z_][\w.]*(?:Error|Exception|Exhausted)\b.*|Killed\b.*|.*No space left on device.*)$"
)
_MEMORY = re.compile(r"MemoryError|ResourceExhausted|out of memory|OOM|^Killed", re.IGNORECASE)


def last_error_line(run_dir: Path) -> str:
    """The last line of a worker's log that states an error (a traceback's last line), or ""."""
    try:
        with (run_dir / "log.txt").open("rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64_000))
            lines = f.read().decode("utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return next((ln.strip()[:500] for ln in reversed(lines) if _ERROR_LINE.match(ln.strip())), "")


def ending(job: dict[str, Any], code: int | None) -> dict[str, Any]:
    """Status and reason for a worker that is gone without writing its result (`code`: its exit status
    when this process started it): `failed` with its log's last error line (an import error, a full
    disk, out of memory), else `interrupted`."""
    line = last_error_line(Path(job["run_dir"]))
    estimate = (job.get("spec") or {}).get("_memory_estimate")
    if _MEMORY.search(line) or (code == -signal.SIGKILL and (job.get("spec") or {}).get("_memory_tight")):
        note = f" (estimated need {estimate})" if estimate else ""
        return {"status": RunStatus.FAILED, "error": f"out of memory: {line or 'the worker was killed'}{note}"}
    if line:
        return {"status": RunStatus.FAILED, "error": f"the worker failed: {line}"}
    return {
        "status": RunStatus.INTERRUPTED,
        "error": "the worker process ended without a result (killed, out of memory, or the machine restarted)",
    }


def adopt_orphan(run_id: str, store: Store) -> bool:
    """Find a live worker of this run (its command line names the run folder) and store its handle."""
    import psutil

    run_dir = str(store.runs_dir / run_id)
    for proc in psutil.process_iter(["pid", "cmdline", "create_time"]):
        cmd = proc.info.get("cmdline") or []
        if "engine.worker" in cmd and run_dir in cmd:
            spec: dict[str, Any] = {}
            with contextlib.suppress(OSError, ValueError):
                spec = json.loads((Path(run_dir) / "spec.json").read_text())
            deadline = proc.info["create_time"] + float(spec.get("timeout_s") or 3600)
            store.set_job(run_id, proc.info["pid"], proc.info["create_time"], deadline, run_dir, spec, machine_id())
            return True
    return False


def record_sweep_owner(store: Store, sweep_id: str) -> None:
    """Store this process as the one that runs `sweep_id`'s queued cells (before they are stored)."""
    pid = os.getpid()
    store.set_job(sweep_id, pid, create_time(pid), 0.0, "", {"sweep_owner": True}, machine_id())


def sweep_abandoned(store: Store, sweep_id: str) -> str | None:
    """Why the queued cells of `sweep_id` will never start — the process that queued them is gone from this
    machine — or None: it still runs, it runs on another machine (its PID means nothing here), or none was
    stored (a sweep from before owners were recorded: `engine sweep --cancel` ends its cells)."""
    owner = store.get_job(sweep_id)
    if owner is None or owner.get("machine") != machine_id() or alive(owner["pid"], owner["pid_started"]):
        return None
    return (
        f"the sweep that queued this cell (process {owner['pid']}) ended before the cell's turn "
        "(killed without a chance to cancel it, e.g. SIGKILL, or the machine restarted); run the cell again"
    )


def end_unstarted(store: Store, launch_grace_s: float) -> list[str]:
    """Rows marked active that never got a job handle end `interrupted`: a run whose launcher died mid-launch
    (unless its worker is found alive), a sweep cell whose sweep is gone. Returns the run ids changed."""
    changed: list[str] = []
    abandoned: dict[str, str | None] = {}
    for row in store.list_runs(statuses=ACTIVE_STATUSES):
        run_id, sweep_id = row["run_id"], row.get("sweep_id")
        if sweep_id and row["status"] == RunStatus.QUEUED:  # a sweep cell waiting for its turn, unless…
            if sweep_id not in abandoned:
                abandoned[sweep_id] = sweep_abandoned(store, sweep_id)
            why = abandoned[sweep_id]  # …its sweep is gone; a cell whose worker has started is refresh's
            if why and store.get_job(run_id) is None and store.update_run(run_id, _ended(why), [RunStatus.QUEUED]):
                changed.append(run_id)
            continue
        if age_s(row["created_at"] or "") <= launch_grace_s or store.get_job(run_id) is not None:
            continue
        if adopt_orphan(run_id, store):  # its worker is alive: the launcher died before storing the handle
            continue
        if store.update_run(run_id, _ended("the run was never started"), only_if_status=ACTIVE_STATUSES):
            changed.append(run_id)
    return changed


def _ended(why: str) -> dict[str, Any]:
    return {"status": RunStatus.INTERRUPTED, "error": why}


def age_s(created_at: str) -> float:
    try:
        t = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return float("inf")
    return (datetime.now(UTC) - t).total_seconds()
