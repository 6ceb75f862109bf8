"""How a run that is gone is recorded, and how a live worker without a job handle is found again.

`engine.runs.jobs.refresh` asks these when a worker is no longer alive (`ending`: `failed` with the
log's last error line — an import error, a full disk, out of memory — else `interrupted`) and when a
row has no job handle past the launch grace (`adopt_orphan`: a launcher killed between starting the
worker and storing its handle must not turn a run that then finishes `ok` into `superseded`).
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

from engine.results.status import RunStatus
from engine.runs.machine import machine_id
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


def age_s(created_at: str) -> float:
    try:
        t = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return float("inf")
    return (datetime.now(UTC) - t).total_seconds()
