"""A max-batch search started from the dashboard: `python -m engine sweep --max-batch …` for one training
spec, as its own background process (the search drives one worker after another, which a page must not
wait for), under a sweep id chosen here so the page can link to it at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine import settings
from engine.catalog.specs import TrainSpec
from engine.runs.store import Store
from engine.sweep.plan import new_sweep_id


def max_batch_argv(spec: TrainSpec, sweep_id: str) -> list[str]:
    """The CLI command that searches the largest batch for `spec`'s model, dataset, precision, backend and
    device, starting at its batch size."""
    argv = [
        sys.executable, "-m", "engine", "sweep", "--max-batch", "--sweep-id", sweep_id,
        "--models", spec.model, "--datasets", spec.dataset, "--precisions", spec.precision,
        "--backends", spec.backend, "--devices", spec.device, "--start-batch", str(spec.batch_size),
        "--epochs", str(spec.epochs), "--steps-per-epoch", str(spec.steps_per_epoch),
    ]  # fmt: skip
    if spec.host_memory_limit_mb:
        argv += ["--host-memory-limit-mb", str(spec.host_memory_limit_mb)]
    return argv


def start_max_batch(spec: TrainSpec, store: Store) -> tuple[str, Path]:
    """Start the search in the background; returns (its sweep id, its log file)."""
    sweep_id = new_sweep_id()
    log = store.runs_dir / f"{sweep_id}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        subprocess.Popen(
            max_batch_argv(spec, sweep_id),
            cwd=settings.ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # outlives a page rerun or a closed tab, like a run's worker
            env={**os.environ, "ACCELBENCH_DB": store.worker_setting},
        )
    return sweep_id, log
