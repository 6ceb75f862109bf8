"""Launch, watch, cancel and recover runs. Each run is `python -m engine.worker RUN_DIR` in its own
process group, with a run folder holding spec.json, progress.jsonl (one JSON event per line) and
log.txt. The worker writes its own result to the store; this module only starts, stops and
reconciles, so a run survives a closed tab or a restarted dashboard.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine import settings
from engine.results.schema import ResultRow
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs import hardware
from engine.runs.progress import read_progress
from engine.runs.store import Store
from engine.spec.demo import DEMO_TIMEOUT_S, check_demo_caps
from engine.spec.specs import MicroSpec, Spec, SpecError, TrainSpec, spec_from_dict, spec_to_dict

# A run row with no job handle yet is still being launched for at most this long.
_LAUNCH_GRACE_S = 30.0
# The worker's own watchdog fires at the deadline; the reconciler steps in after this extra.
_DEADLINE_GRACE_S = 15.0
_children: dict[str, subprocess.Popen] = {}


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def prepare(raw: dict[str, Any], demo: bool | None = None) -> Spec:
    """Validate a request completely — fields, combinations, devices present, demo caps.

    Raises SpecError (one line: field + what is allowed). Nothing is stored or started.
    """
    acc = hardware.detect_accelerators()
    spec = spec_from_dict(raw, gpu_count=len(acc.gpus))
    problem = hardware.device_problem(spec.device, acc, getattr(spec, "tpu", ""))
    if problem:
        raise SpecError("--device", problem)
    if demo if demo is not None else settings.demo_mode():
        check_demo_caps(spec)
        check_one_at_a_time()
    return spec


def initial_row(spec: Spec, run_id: str) -> ResultRow:
    """What is known about a run before it starts (the worker fills in the rest)."""
    row: ResultRow = {
        "run_id": run_id,
        "status": RunStatus.QUEUED,
        "kind": spec.kind,
        "device": spec.device,
        "backend": spec.backend,
        "xla": spec.xla,
        "price_per_hour_usd": spec.price_per_hour_usd or None,
    }
    if isinstance(spec, MicroSpec):
        row["dtype"] = row["precision"] = spec.dtype
        row["model"] = spec.bench
        row["dataset"] = "synthetic"
        row["shape"] = micro_shape(spec)
        row["strategy"] = "none"
        row["global_batch_size"] = spec.batch_size if spec.bench == "conv2d" else None
    elif isinstance(spec, TrainSpec):
        row.update(
            {
                "model": spec.model,
                "dataset": spec.dataset,
                "precision": spec.precision,
                "dtype": spec.precision.replace("mixed_", "") if spec.precision != "float32" else "float32",
                "strategy": spec.strategy,
                "global_batch_size": spec.batch_size,
                "epochs": spec.epochs,
                "steps_per_epoch": spec.steps_per_epoch,
            }
        )
    return row


def micro_shape(spec: MicroSpec) -> str:
    if spec.bench == "matmul":
        return f"({spec.m}x{spec.k})@({spec.k}x{spec.n})"
    return f"{spec.batch_size}x{spec.height}x{spec.width}x{spec.channels} * {spec.kernel_size}x{spec.kernel_size}x{spec.channels}x{spec.filters}"


def launch(spec: Spec, store: Store | None = None) -> str:
    """Store the run as queued, start its worker, and return the run_id at once."""
    store = store or Store()
    run_id = new_run_id()
    run_dir = settings.runs_dir(store.path) / run_id
    run_dir.mkdir(parents=True)
    spec_dict = spec_to_dict(spec)
    (run_dir / "spec.json").write_text(json.dumps(spec_dict, indent=2))
    store.insert_run(initial_row(spec, run_id))
    env = {
        **os.environ,
        "ACCELBENCH_DB": str(store.path),
        "TF_CPP_MIN_LOG_LEVEL": os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"),
        "PYTHONUNBUFFERED": "1",
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
            )
    except OSError as exc:
        store.update_run(run_id, {"status": RunStatus.FAILED, "error": f"could not start the worker: {exc}"})
        raise
    _children[run_id] = proc
    store.set_job(run_id, proc.pid, _create_time(proc.pid), time.time() + spec.timeout_s, str(run_dir), spec_dict)
    return run_id


def _create_time(pid: int) -> float:
    try:
        import psutil

        return psutil.Process(pid).create_time()
    except Exception:
        return 0.0


def _alive(pid: int, pid_started: float) -> bool:
    """Is this exact process (not a later one that reused the pid) still running?"""
    import psutil

    try:
        proc = psutil.Process(pid)
        if pid_started and abs(proc.create_time() - pid_started) > 1.0:
            return False
        return proc.status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def _reap(run_id: str) -> None:
    proc = _children.get(run_id)
    if proc is not None and proc.poll() is not None:
        _children.pop(run_id, None)


def _kill_group(pid: int, grace_s: float = 3.0) -> None:
    """SIGTERM the worker's process group, then SIGKILL whatever is left after `grace_s`."""
    import psutil

    try:
        leader = psutil.Process(pid)
        members = [leader, *leader.children(recursive=True)]
    except psutil.Error:
        members = []
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        _, members = psutil.wait_procs(members, timeout=grace_s)
        if not members:
            return


def refresh(store: Store | None = None) -> list[str]:
    """Reconcile runs marked active with reality; returns the run_ids whose status changed.

    A worker that is gone without writing its result becomes `interrupted` (SIGKILL, OOM-kill,
    reboot); one past its deadline is killed and becomes `timeout`. Called whenever anyone looks.
    """
    store = store or Store()
    changed = []
    now = time.time()
    for job in store.active_jobs():
        run_id = job["run_id"]
        _reap(run_id)
        if not _alive(job["pid"], job["pid_started"]):
            if store.update_run(
                run_id,
                {
                    "status": RunStatus.INTERRUPTED,
                    "error": "the worker process ended without a result (killed, out of memory, or the machine restarted)",
                },
                only_if_status=ACTIVE_STATUSES,
            ):
                changed.append(run_id)
        elif now > job["deadline"] + _DEADLINE_GRACE_S:
            timeout_s = job["spec"].get("timeout_s")
            if store.update_run(
                run_id,
                {"status": RunStatus.TIMEOUT, "error": f"the run exceeded its {timeout_s:g} s timeout and was stopped"},
                only_if_status=ACTIVE_STATUSES,
            ):
                changed.append(run_id)
            _kill_group(job["pid"])
    # rows marked active that never got a job handle (a launcher that died mid-launch)
    for row in store.list_runs(statuses=ACTIVE_STATUSES):
        if (
            store.get_job(row["run_id"]) is None
            and _age_s(row["created_at"] or "") > _LAUNCH_GRACE_S
            and store.update_run(
                row["run_id"],
                {"status": RunStatus.INTERRUPTED, "error": "the run was never started"},
                only_if_status=ACTIVE_STATUSES,
            )
        ):
            changed.append(row["run_id"])
    return changed


def _age_s(created_at: str) -> float:
    try:
        t = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return float("inf")
    return (datetime.now(UTC) - t).total_seconds()


def cancel(run_id: str, store: Store | None = None) -> bool:
    """Stop a queued/running run and record it `cancelled`. False when it had already ended."""
    store = store or Store()
    created = (store.get_run(run_id) or {}).get("created_at")
    wall_s = _age_s(created) if created else None  # how long it really ran
    changed = store.update_run(
        run_id,
        {"status": RunStatus.CANCELLED, "error": "cancelled by the user", "total_s": wall_s},
        only_if_status=ACTIVE_STATUSES,
    )
    job = store.get_job(run_id)
    if changed and job and _alive(job["pid"], job["pid_started"]):
        _kill_group(job["pid"])
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
    run_dir = Path(job["run_dir"]) if job else settings.runs_dir(store.path) / run_id
    seen = 0
    while True:
        events = read_progress(run_dir)
        if on_event:
            for ev in events[seen:]:
                on_event(ev)
        seen = len(events)
        proc = _children.get(run_id)
        if proc is not None and proc.poll() is not None:
            _children.pop(run_id, None)
        if not is_active(run_id, store):
            if on_event:
                for ev in read_progress(run_dir)[seen:]:
                    on_event(ev)
            return store.get_run(run_id) or {}
        time.sleep(poll_s)


def run_dir_of(run_id: str, store: Store | None = None) -> Path:
    store = store or Store()
    job = store.get_job(run_id)
    return Path(job["run_dir"]) if job else settings.runs_dir(store.path) / run_id


def check_one_at_a_time() -> None:
    """Refuse a new run while another is queued or running: a public demo shares one small machine.

    Stale rows (a worker that died) are reconciled first, so a crash cannot block the demo forever.
    Two launches in the same instant can both pass; the worker's own timeout still bounds them.
    """
    store = Store()
    refresh(store)
    active = store.list_runs(statuses=ACTIVE_STATUSES, limit=1)
    if active:
        run = active[0]
        raise SpecError(
            "run",
            f"demo mode runs one benchmark at a time and run {run['run_id']} ({run.get('model') or run['kind']}) "
            "is still going; wait for it to finish (it is capped at "
            f"{DEMO_TIMEOUT_S:g} s) and try again",
        )
