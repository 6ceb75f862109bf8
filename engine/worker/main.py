"""The subprocess entry point: `python -m engine.worker RUN_DIR`.

Reads RUN_DIR/spec.json, marks the run `running`, runs it, and writes its own result to the store.
A watchdog thread enforces the timeout even while TensorFlow is busy in C++ (TF releases the GIL),
recording `timeout` and then killing the whole process group. Final writes are guarded by status,
so a run already recorded `cancelled` or `timeout` is never overwritten by a late `ok`.

The run's backend is fixed here, before Keras is imported: `backends.prepare_process` sets
KERAS_BACKEND (and what JAX/PyTorch read at import), then only that backend's framework is
imported — TensorFlow for a TensorFlow run, never for a JAX or PyTorch run. `--backend torch` is
native PyTorch (engine.worker.torch_native): neither Keras nor TensorFlow is imported.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

from engine.catalog.replicas import UNKNOWN_GPU_COUNT
from engine.catalog.specs import MicroSpec, Spec, SpecError, TrainSpec, spec_from_dict
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs.live import StoreMirror
from engine.runs.progress import Reporter
from engine.runs.store import Store
from engine.worker import backends
from engine.worker.energy import telemetry_columns, telemetry_series
from engine.worker.errors import PlacementError, reason_in
from engine.worker.host_limit import (
    address_space_capped,
    apply_host_memory_limit,
    is_capped_out_of_memory,
    lift_host_memory_limit,
)
from engine.worker.telemetry import Sampler


def _watchdog(store: Store, run_id: str, timeout_s: float) -> None:
    def fire() -> None:
        lift_host_memory_limit()
        store.update_run(
            run_id,
            {"status": RunStatus.TIMEOUT, "error": f"the run exceeded its {timeout_s:g} s timeout and was stopped"},
            only_if_status=ACTIVE_STATUSES,
        )
        os.killpg(os.getpgrp(), signal.SIGKILL)

    timer = threading.Timer(timeout_s, fire)
    timer.daemon = True
    timer.start()


def explain(exc: BaseException, cached: bool = False) -> str:
    """One line a person can act on; `cached`: the run keeps its decoded set in memory (--cache)."""
    if (data_file := reason_in(exc)) is not None:  # the reader's own line, from under any wrapper
        return data_file[:600]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
    tf = sys.modules.get("tensorflow")  # only a TensorFlow run has it; never imported just to explain
    oom = (MemoryError,) + ((tf.errors.ResourceExhaustedError,) if tf is not None else ())
    capped = is_capped_out_of_memory(exc)
    if capped or isinstance(exc, oom) or "out of memory" in text.lower() or "RESOURCE_EXHAUSTED" in text:
        estimate = os.environ.get("ACCELBENCH_MEMORY_ESTIMATE")
        note = f" (estimated need {estimate})" if estimate else ""
        note += " (the host memory cap was reached while starting a thread)" if capped else ""
        fix = "try a smaller batch size or shape"
        if cached and address_space_capped():  # the set --cache keeps counts against the cap (checked only roughly)
            fix = "drop --cache (it keeps the decoded set in memory) or raise --host-memory-limit-mb, or " + fix
        return f"out of memory: {text[:300]}{note} — {fix}"
    if isinstance(exc, PlacementError):
        return f"placement: {text}"
    return f"{exc.__class__.__name__}: {text[:500]}"


def _run(spec: Spec, report: Reporter) -> dict:
    """Run `spec` under its backend and return its result columns, environment included."""
    apply_host_memory_limit(getattr(spec, "host_memory_limit_mb", 0))  # before the framework allocates anything
    backends.prepare_process(
        spec.backend, spec.device, getattr(spec, "logical_devices", 1), getattr(spec, "visible_devices", "")
    )
    if spec.backend == "tensorflow":
        import tensorflow as tf  # noqa: F401  (the worker owns the TF runtime; imported before anything uses it)

        from engine.worker import tfenv

        if isinstance(spec, MicroSpec):
            from engine.worker.micro import run_micro

            result = run_micro(spec, report)
        elif spec.processes > 1:  # N local workers under MultiWorkerMirroredStrategy (engine.worker.launch)
            from engine.worker.launch import run_processes

            result = run_processes(spec, report)
        else:
            from engine.worker.train import run_training

            result = run_training(spec, report)
        result.update(tfenv.environment(spec.device))
        result["framework_version"] = f"tensorflow {result['tf_version']}"
        return result
    ops = backends.load(spec.backend)
    if isinstance(spec, TrainSpec) and spec.processes > 1:  # N local processes under the framework's launcher
        from engine.worker.launch import run_processes

        result = run_processes(spec, report)
    elif spec.backend == "torch" and isinstance(spec, TrainSpec):  # native PyTorch: no Keras, no TensorFlow
        from engine.worker.torch_native.run import run_training_native

        result = run_training_native(spec, report, ops)
    elif isinstance(spec, MicroSpec):
        from engine.worker.micro_backend import run_micro_backend

        result = run_micro_backend(spec, report, ops)
    else:
        from engine.worker.train_backend import run_training_backend

        result = run_training_backend(spec, report, ops)
    from engine.worker.backends.environment import environment

    result.update(environment(spec.device, ops, spec.backend))
    return result


def main(run_dir: str) -> int:
    run_path = Path(run_dir)
    run_id = run_path.name
    store = Store(os.environ.get("ACCELBENCH_DB") or None)
    # A team database (a URL) also gets the progress events, for dashboards on other machines.
    report = Reporter(run_path, StoreMirror(store, run_id) if store.path is None else None)
    try:
        raw = json.loads((run_path / "spec.json").read_text())
        spec = spec_from_dict(raw, gpu_count=UNKNOWN_GPU_COUNT)  # the launcher checked device counts
    except (OSError, ValueError, SpecError) as exc:
        store.update_run(
            run_id, {"status": RunStatus.FAILED, "error": f"bad spec.json: {exc}"}, only_if_status=(RunStatus.QUEUED,)
        )
        return 1
    if not store.update_run(run_id, {"status": RunStatus.RUNNING}, only_if_status=(RunStatus.QUEUED,)):
        return 1  # cancelled before it started
    _watchdog(store, run_id, spec.timeout_s)
    t0 = time.perf_counter()
    sampler = Sampler(report).start()
    try:
        result = _run(spec, report)
        wall_s = time.perf_counter() - t0
        lift_host_memory_limit()  # the cap was the run's; its record must not fail on it
        sampler.stop()
        result |= telemetry_columns(sampler, report, spec.device, spec.price_per_hour_usd, result, wall_s)
        result = {k: v for k, v in result.items() if v is not None}
        ok = store.finish_run(  # status and series in one transaction
            run_id,
            {**result, "status": RunStatus.OK, "error": None},
            {**report.series, **telemetry_series(sampler, report)},
            only_if_status=(RunStatus.RUNNING,),
        )
        report.phase("done", status=RunStatus.OK if ok else "superseded")
        return 0 if ok else 1
    except BaseException as exc:  # noqa: BLE001 — every failure must end as a stored reason
        traceback.print_exc()
        message = explain(exc, cached=bool(getattr(spec, "cache", False)))  # reads the cap: before it is lifted
        lift_host_memory_limit()
        try:
            store.finish_run(
                run_id,
                {"status": RunStatus.FAILED, "error": message, "total_s": time.perf_counter() - t0},
                {**report.series, **telemetry_series(sampler, report)},
                only_if_status=(RunStatus.RUNNING,),
            )
        finally:
            report.phase("done", status=RunStatus.FAILED, error=message)
        return 1
