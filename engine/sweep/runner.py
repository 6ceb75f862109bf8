"""One stored cell run to its end on the machine that runs it: this one (local) or a Ray node.

The worker is the engine's own (`engine.runs.jobs.start_worker`: same process rules, same timing, same
store). While it runs, the runner watches the store: a cell marked `cancelled` (by `engine sweep
--cancel`, the Sweep page, or the Ray task being cancelled) has its worker's process group killed here,
on the machine where it runs — which is what makes a cancel work across machines.
"""

from __future__ import annotations

import time
from typing import Any

from engine.catalog.replicas import UNKNOWN_GPU_COUNT
from engine.catalog.specs import spec_from_dict
from engine.results.schema import ResultRow
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs import endings, jobs
from engine.runs.processes import kill_group, stop_reason
from engine.runs.store import Store

POLL_S = 0.25
STATUS_EVERY_S = 1.0  # how often the store is asked whether the cell was cancelled
DEADLINE_GRACE_S = 15.0  # the worker's own watchdog fires at its timeout; past this extra, the runner does


def run_stored(
    run_id: str, request: dict[str, Any], store: Store, node: str = "", die_with_parent: bool = False
) -> ResultRow:
    """Start the worker of a stored `queued` run, wait for it to end, and return the final row.

    A run no longer `queued` (cancelled before its turn) is not started. `node` names the Ray node
    (stored in the row's `node` column); `die_with_parent` ties the worker's life to this process.
    """
    row = store.get_run(run_id)
    if row is None or row.get("status") != RunStatus.QUEUED:
        return row or {}
    spec = spec_from_dict(request, gpu_count=UNKNOWN_GPU_COUNT)  # checked before the sweep started
    if node:
        store.update_run(run_id, {"node": node})
    try:
        proc = jobs.start_worker(spec, run_id, store, die_with_parent=die_with_parent)
    except OSError:
        return store.get_run(run_id) or {}  # recorded failed with the reason
    deadline = time.monotonic() + spec.timeout_s + DEADLINE_GRACE_S
    try:
        _watch(proc, run_id, store, deadline)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM/SIGHUP, or ray.cancel of a running task: stop the worker
        jobs.cancel(run_id, store, stop_reason(exc, "the sweep"))
        kill_group(proc.pid)
        proc.wait()
        raise  # and stop the caller too: a local sweep must not go on to its next cell
    code = proc.wait()
    job = store.get_job(run_id)
    if job is not None:  # a worker gone without its result: failed with its log's reason, or interrupted
        store.update_run(run_id, endings.ending(job, code), only_if_status=ACTIVE_STATUSES)
    return store.get_run(run_id) or {}


def _watch(proc, run_id: str, store: Store, deadline: float) -> None:
    next_look = time.monotonic() + STATUS_EVERY_S
    while proc.poll() is None:
        time.sleep(POLL_S)
        now = time.monotonic()
        if now < next_look:
            continue
        next_look = now + STATUS_EVERY_S
        status = (store.get_run(run_id) or {}).get("status")
        if status not in ACTIVE_STATUSES:  # cancelled (or timed out) in the store: stop the worker here
            kill_group(proc.pid)
        elif now > deadline:
            store.update_run(
                run_id,
                {"status": RunStatus.TIMEOUT, "error": "the run exceeded its timeout and was stopped by the sweep"},
                only_if_status=ACTIVE_STATUSES,
            )
            kill_group(proc.pid)
