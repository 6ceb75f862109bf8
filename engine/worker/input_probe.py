"""The input pipeline measured beside the step (issue 38), after a run's timed training, framework-agnostic.

Two loops, each device-synced before its clock is read (design §4), give three figures:
  pipeline alone   a fresh copy of the run's pipeline (same files, map/decode, batch, prefetch), each batch
                   pulled to the host and copied to the device, no model: `input_examples_per_sec`.
  input wait       the run's own training iterator: per step, the time inside next(iterator) (plus the copy
                   to the device) against the whole step; `input_wait_pct` = their sums' ratio.
  step alone       the same steps with the wait taken out: the step on a batch already on the device, synced,
                   `step_examples_per_sec` = batch / their median. Measured beside the training under the same
                   load, so it cannot sit below the training it bounds; should it still (a noisy host), the
                   training rate stands for it, as the step is part of every training step (`columns`).
A few warm-up batches/steps go first in each (buffers filling, a first trace). `bound` is
engine.catalog.input_bound's rule, stated in the row's notes. A synthetic run has no pipeline: its step alone is
its own step-synced median, and it is compute-bound by definition.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.catalog.input_bound import BOUND_RULE_TEXT, classify_bound, wait_pct
from engine.catalog.input_spec import InputSettings, stored

WARMUP = 2
PIPELINE_BATCHES = 8
WAIT_STEPS = 8


@dataclass(frozen=True)
class Hooks:
    """How one backend moves and trains a batch: `to_device(host batch) -> device batch`, `step(device batch)`,
    `sync()` (wait for the device), and `fresh()`: a new iterator over a copy of the run's pipeline."""

    to_device: Callable[[Any], Any]
    step: Callable[[Any], Any]
    sync: Callable[[], None]
    fresh: Callable[[], Iterator[Any]]


def pipeline_eps(batches: Iterator[Any], hooks: Hooks, batch_size: int) -> float:
    for _ in range(WARMUP):
        hooks.to_device(next(batches))
    hooks.sync()
    t0 = time.perf_counter()
    for _ in range(PIPELINE_BATCHES):
        hooks.to_device(next(batches))
    hooks.sync()
    return PIPELINE_BATCHES * batch_size / (time.perf_counter() - t0)


def wait_and_step(train_batches: Iterator[Any], hooks: Hooks, batch_size: int) -> tuple[float, float]:
    """(input_wait_pct, step_examples_per_sec) from the same steps of the run's own iterator: per step, the wait
    (next batch and its copy to the device, synced) and the step (synced) are timed apart. The step alone is the
    median of the steps with the wait taken out — timed beside the training, under the same load, it cannot
    drift below the training it bounds the way a separate loop after it could (issue 45: 8 ex/s against 13)."""
    wait_s = total_s = 0.0
    step_s: list[float] = []
    for i in range(WARMUP + WAIT_STEPS):
        hooks.sync()
        t0 = time.perf_counter()
        batch = hooks.to_device(next(train_batches))
        hooks.sync()
        t1 = time.perf_counter()
        hooks.step(batch)
        hooks.sync()
        if i >= WARMUP:
            t2 = time.perf_counter()
            wait_s, total_s = wait_s + t1 - t0, total_s + t2 - t0
            step_s.append(t2 - t1)
    return wait_pct(wait_s, total_s), batch_size / statistics.median(step_s)


def input_cores() -> int:
    return len(os.sched_getaffinity(0))


def measure(train_batches: Iterator[Any], hooks: Hooks, batch_size: int) -> tuple[float, float, float]:
    """(input_examples_per_sec, step_examples_per_sec, input_wait_pct) of a real-data run, in that order of
    loops: the wait and the step on the run's own iterator first, while its pipeline is warm; the pipeline alone
    last."""
    wait, step_eps = wait_and_step(train_batches, hooks, batch_size)
    input_eps = pipeline_eps(hooks.fresh(), hooks, batch_size)
    return input_eps, step_eps, wait


def columns(
    train_eps: float | None,
    input_eps: float | None,
    step_eps: float | None,
    wait: float | None,
    settings: InputSettings | None,
) -> dict[str, Any]:
    """The row's input columns and the note that states them and the rule. `settings` None: synthetic data."""
    measured = step_eps
    if settings is not None and step_eps and train_eps and step_eps < train_eps:
        step_eps = train_eps  # the step is part of every training step: it alone is at least as fast (module doc)
    bound = classify_bound(train_eps, input_eps, step_eps, wait)
    cols: dict[str, Any] = {
        "input_examples_per_sec": input_eps,
        "step_examples_per_sec": step_eps,
        "input_wait_pct": wait,
        "bound": bound,
    }
    if settings is None:
        cols |= {"input_workers": None, "prefetch": None, "cache": None, "input_cores": None}
        cols["_note"] = f"bound: compute (synthetic data: no input pipeline; step alone {_eps(step_eps)} ex/s)"
        return cols
    cols |= stored(settings.workers, settings.prefetch, settings.cache, input_cores())
    held = f" (measured {_eps(measured)}, below the training: held at its rate)" if measured != step_eps else ""
    cols["_note"] = (
        f"input: pipeline alone {_eps(input_eps)} ex/s, step alone {_eps(step_eps)} ex/s{held}, training "
        f"{_eps(train_eps)} ex/s, waiting for input {wait:.1f}% of each step ({settings.describe()}) "
        f"-> bound {bound}. Rule: {BOUND_RULE_TEXT}"
    )
    return cols


def synthetic_columns(train_eps: float | None, step_time_ms_median: float | None, batch_size: int) -> dict[str, Any]:
    """A synthetic run: the step alone is its own synced step (one cached batch, no pipeline)."""
    step_eps = 1000.0 * batch_size / step_time_ms_median if step_time_ms_median else None
    return columns(train_eps, None, step_eps, None, None)


def _eps(v: float | None) -> str:
    return f"{v:,.1f}" if v is not None else "n/a"
