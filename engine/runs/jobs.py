"""Launch, watch, cancel and recover runs. Each run is `python -m engine.worker RUN_DIR` in its own
process group, with a run folder holding spec.json, progress.jsonl (one JSON event per line) and
log.txt. The worker writes its own result to the store; this module only starts, stops and
reconciles, so a run survives a closed tab or a restarted dashboard.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine import settings
from engine.catalog.data_files import check_data_dir
from engine.catalog.demo import DEMO_TIMEOUT_S, check_demo_caps
from engine.catalog.memory import estimate_bytes, fmt_bytes, memory_problem
from engine.catalog.replicas import resolve_strategy
from engine.catalog.specs import Spec, SpecError, TrainSpec, spec_from_dict, spec_to_dict
from engine.catalog.tf_config import parse_tf_config
from engine.results.schema import RUN_ID, ResultRow  # not checks: that one loads pandas, 1.3 s of every CLI start
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs import endings, hardware, processes
from engine.runs.live import progress_events
from engine.runs.machine import machine_id
from engine.runs.processes import alive, create_time, kill_group
from engine.runs.progress import Event, read_progress
from engine.runs.rows import initial_row, micro_shape  # noqa: F401 (micro_shape: callers use jobs.micro_shape)
from engine.runs.store import Store

# A run row with no job handle yet is still being launched for at most this long.
_LAUNCH_GRACE_S = 30.0
# The worker's own watchdog fires at the deadline; the reconciler steps in after this extra.
_DEADLINE_GRACE_S = 15.0
# A run on another machine (same team database) is given up on only this long after its deadline.
_REMOTE_GRACE_S = 300.0
_REMOTE_STOPPED = "the machine running it stopped reporting past its deadline"
_children: dict[str, subprocess.Popen] = {}


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def prepare(raw: dict[str, Any], demo: bool | None = None) -> Spec:
    """Validate a request completely — fields, combinations, devices present, demo caps, the data folder.
    Raises SpecError (one line: field + what is allowed). Nothing is stored or started."""
    acc = hardware.detect_accelerators()
    spec = spec_from_dict(raw, gpu_count=len(acc.gpus))
    demo = settings.demo_mode() if demo is None else demo
    if demo:  # before anything looks at devices: a TPU address must never be dialled in demo mode
        check_demo_caps(spec)
    problem = hardware.device_problem(spec.device, acc, getattr(spec, "tpu", ""))
    if problem:
        raise SpecError("--device", problem)
    if isinstance(spec, TrainSpec) and resolve_strategy(spec, len(acc.gpus)) == "multi_worker":
        parse_tf_config(os.environ.get("TF_CONFIG"))  # pure JSON: refused here, before a worker starts
    check_data_dir(spec)  # a missing, empty or class-less --data-dir: refused here, not by the worker
    check_memory(spec, acc)
    if demo:
        check_one_at_a_time()
    return spec


def check_memory(spec: Spec, acc: hardware.Accelerators | None = None) -> int:
    """Refuse a run whose estimated need (engine.catalog.memory) exceeds the host's available memory or
    the GPU's; returns the estimate in bytes."""
    gpu_mb = max((g.memory_mb for g in acc.gpus), default=0.0) if acc is not None else 0.0
    problem = memory_problem(spec, _available_bytes(), gpu_mb)
    if problem:
        raise problem
    return estimate_bytes(spec)


def launch(spec: Spec, store: Store | None = None, demo: bool | None = None, label: str | None = None) -> str:
    """Store the run as queued, start its worker, and return the run_id at once.

    In demo mode (`demo`, else ACCELBENCH_DEMO) the run is stored only while no other run is queued
    or running — checked and inserted in one transaction — else SpecError names the run in the way.
    """
    store = store or Store()
    run_id = new_run_id()
    row = initial_row(spec, run_id)
    if label:
        row["label"] = label  # the user's own annotation (engine.runs.transfer.label_problem checked it)
    if settings.demo_mode() if demo is None else demo:
        refresh(store)  # a dead worker's row must not block the demo forever
        busy = store.insert_run_unless_active(row)
        if busy is not None:
            raise _busy_error(busy)
    else:
        store.insert_run(row)
    proc = start_worker(spec, run_id, store)
    _children[run_id] = proc
    return run_id


def start_worker(spec: Spec, run_id: str, store: Store, die_with_parent: bool = False) -> subprocess.Popen:
    """Write the run folder of a stored `queued` run, start its worker and store its job handle (OSError:
    recorded `failed`). `die_with_parent`: the worker dies with this process (a Ray task's; engine.sweep)."""
    run_dir = store.runs_dir / run_id
    spec_dict = spec_to_dict(spec)
    try:
        run_dir.mkdir(parents=True)
        (run_dir / "spec.json").write_text(json.dumps(spec_dict, indent=2))
    except OSError as exc:
        store.update_run(run_id, {"status": RunStatus.FAILED, "error": f"could not write the run folder: {exc}"})
        raise
    env = {
        **os.environ,
        "ACCELBENCH_DB": store.worker_setting,
        "TF_CPP_MIN_LOG_LEVEL": os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"),
        "PYTHONUNBUFFERED": "1",
        "ACCELBENCH_MEMORY_ESTIMATE": fmt_bytes(estimate_bytes(spec)),  # named in an out-of-memory reason
    }
    try:
        with (run_dir / "log.txt").open("ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "engine.worker", str(run_dir)],
                cwd=settings.ROOT,
                stdin=subprocess.DEVNULL,
                stdout=log,  # a file, never a pipe: a chatty worker must not block on a full pipe
                stderr=subprocess.STDOUT,
                start_new_session=True,  # own process group, so cancel/timeout kill TF's threads and children too
                env=env,
                preexec_fn=processes.die_with_parent if die_with_parent else None,
            )
    except OSError as exc:
        store.update_run(run_id, {"status": RunStatus.FAILED, "error": f"could not start the worker: {exc}"})
        raise
    # a SIGKILL reads as out of memory only for a run whose estimate was over half the memory left
    tight = estimate_bytes(spec) > 0.5 * _available_bytes()
    handle = {**spec_dict, "_memory_estimate": env["ACCELBENCH_MEMORY_ESTIMATE"], "_memory_tight": tight}
    deadline = time.time() + spec.timeout_s
    store.set_job(run_id, proc.pid, create_time(proc.pid), deadline, str(run_dir), handle, machine_id())
    return proc


def _available_bytes() -> float:
    import psutil

    return psutil.virtual_memory().available


def _reap(run_id: str, grace_s: float = 0.0) -> None:
    """Forget our worker once it has exited, waiting up to `grace_s` (a final row: reaped, no zombie, and its CPU
    time counts in this process's children, which bench/bench_backends.py reads)."""
    proc = _children.get(run_id)
    with contextlib.suppress(subprocess.TimeoutExpired):
        if proc is not None and proc.wait(timeout=grace_s) is not None:
            _children.pop(run_id, None)


def refresh(store: Store | None = None) -> list[str]:
    """Reconcile runs marked active with reality; returns the run_ids whose status changed.

    A worker that is gone without writing its result becomes `interrupted` (SIGKILL, OOM-kill,
    reboot); one past its deadline is killed and becomes `timeout`. Called whenever anyone looks.
    """
    store = store or Store()
    if store.read_only:  # a read-only view (a demo of a team store) shows runs as their workers left them
        return []
    changed = []
    now = time.time()
    here = machine_id()
    for job in store.active_jobs():
        run_id = job["run_id"]
        if job.get("machine") and job["machine"] != here:  # another machine's worker: its PID means nothing here
            if now > job["deadline"] + _REMOTE_GRACE_S and store.update_run(
                run_id,
                {"status": RunStatus.INTERRUPTED, "error": _REMOTE_STOPPED},
                only_if_status=ACTIVE_STATUSES,
            ):
                changed.append(run_id)
            continue
        proc = _children.get(run_id)
        code = proc.poll() if proc is not None else None
        _reap(run_id)
        if not alive(job["pid"], job["pid_started"]):
            if store.update_run(run_id, endings.ending(job, code), only_if_status=ACTIVE_STATUSES):
                changed.append(run_id)
        elif now > job["deadline"] + _DEADLINE_GRACE_S:
            timeout_s = job["spec"].get("timeout_s")
            if store.update_run(
                run_id,
                {"status": RunStatus.TIMEOUT, "error": f"the run exceeded its {timeout_s:g} s timeout and was stopped"},
                only_if_status=ACTIVE_STATUSES,
            ):
                changed.append(run_id)
            kill_group(job["pid"])
    # rows marked active that never got a job handle: a launcher that died mid-launch, a sweep that was killed
    changed += endings.end_unstarted(store, _LAUNCH_GRACE_S)
    return changed


def cancel(run_id: str, store: Store | None = None, reason: str = "cancelled by the user") -> bool:
    """Stop a queued/running run (its worker, every rank), record it `cancelled` with `reason`; False if it had ended."""
    store = store or Store()
    created = (store.get_run(run_id) or {}).get("created_at")
    ended: dict[str, Any] = {"status": RunStatus.CANCELLED, "error": reason}
    ended["total_s"] = endings.age_s(created) if created else None  # how long it really ran (wall time)
    changed = store.update_run(run_id, ended, only_if_status=ACTIVE_STATUSES)
    job = store.get_job(run_id)
    if changed and job and alive(job["pid"], job["pid_started"]):
        kill_group(job["pid"])
    _reap(run_id)
    return changed


def is_active(run_id: str, store: Store | None = None) -> bool:
    store = store or Store()
    refresh(store)
    row = store.get_run(run_id)
    return bool(row and row["status"] in ACTIVE_STATUSES)


def wait(run_id: str, store: Store | None = None, poll_s: float = 0.2, on_event=None) -> ResultRow:
    """Block until the run ends; `on_event(event)` sees each new progress event. Returns the row."""
    store = store or Store()
    job = store.get_job(run_id)
    run_dir = Path(job["run_dir"]) if job else store.runs_dir / run_id
    seen = 0
    while True:
        events = read_progress(run_dir)
        if on_event:
            for ev in events[seen:]:
                on_event(ev)
        seen = len(events)
        _reap(run_id)
        if not is_active(run_id, store):
            if on_event:
                for ev in read_progress(run_dir)[seen:]:
                    on_event(ev)
            _reap(run_id, grace_s=5.0)
            return store.get_run(run_id) or {}
        time.sleep(poll_s)


def run_dir_of(run_id: str, store: Store | None = None) -> Path:
    """The run's folder — always inside the runs folder. A run id that could name anything else (an
    imported id with a separator or "..") gets a path that cannot exist, so reading its log fails
    like a missing log instead of reading another file."""
    store = store or Store()
    runs = store.runs_dir.resolve()
    job = store.get_job(run_id)
    path = Path(job["run_dir"]) if job else runs / run_id
    inside = path.resolve().parent == runs
    if not inside or not re.fullmatch(RUN_ID, run_id) or ".." in run_id:
        return runs / "#not-a-run-id"  # '#' is never in a run id, so no folder of that name is made
    return path


def progress_of(run_id: str, store: Store | None = None) -> list[Event]:
    """A run's progress events so far: its folder here, else the team database (a run on another machine)."""
    store = store or Store()
    return progress_events(run_id, run_dir_of(run_id, store), store)


def check_one_at_a_time() -> None:
    """Refuse a new run while another is queued or running: a public demo shares one small machine.

    Stale rows (a worker that died) are reconciled first, so a crash cannot block the demo forever.
    This is the early answer for the form; the guarantee is `launch`'s check-and-insert transaction.
    """
    store = Store()
    refresh(store)
    active = store.list_runs(statuses=ACTIVE_STATUSES, limit=1)
    if active:
        raise _busy_error(active[0])


def _busy_error(run: ResultRow) -> SpecError:
    return SpecError(
        "run",
        f"demo mode runs one benchmark at a time and run {run['run_id']} ({run.get('model') or run['kind']}) "
        "is still going; wait for it to finish (it is capped at "
        f"{DEMO_TIMEOUT_S:g} s) and try again",
    )
