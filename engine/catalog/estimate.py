"""How long a request will take and how much memory it needs, before it runs.

Memory is engine.catalog.memory's estimate (the one launch checks). Duration = the work (FLOPs, or examples for training) ÷ this host's measured speed — the median rate
of its recent finished runs of the same kind — plus the worker's start-up. With no such run yet, a
microbenchmark falls back on the device's peak × ASSUMED_EFFICIENCY (stated in the text); a training
run has no estimate until one run of that model has been measured here. Pure functions: the caller
passes the recent rows, so nothing here touches the store or TensorFlow.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.catalog.memory import estimate_bytes
from engine.catalog.micro_presets import SHAPE_FIELDS, op_flops
from engine.catalog.specs import MicroSpec, Spec

ASSUMED_EFFICIENCY = 0.25  # of the theoretical peak, for an op never measured on this host
STARTUP_S = 10.0  # the worker's TensorFlow import and device set-up, on top of the work
RECENT = 10  # how many of the latest matching runs set the measured speed


@dataclass(frozen=True)
class Estimate:
    """seconds: None when unknown; memory_bytes: host bytes; basis: where the speed came from, in words."""

    seconds: float | None
    memory_bytes: float
    basis: str
    timeout_s: float

    @property
    def over_timeout(self) -> bool:
        return self.seconds is not None and self.seconds > self.timeout_s


def _matching(rows: Iterable[Mapping[str, Any]], **want: Any) -> list[Mapping[str, Any]]:
    return [r for r in rows if r.get("status") == "ok" and all(r.get(k) == v for k, v in want.items())][:RECENT]


def _median(values: Iterable[Any]) -> float | None:
    vals = [float(v) for v in values if isinstance(v, (int, float)) and v > 0]
    return statistics.median(vals) if vals else None


def estimate(spec: Spec, recent_ok: Iterable[Mapping[str, Any]], peak_gflops: float | None) -> Estimate:
    """The estimate for `spec` from this host's recent rows (newest first) and its device's peak."""
    rows = list(recent_ok)
    if isinstance(spec, MicroSpec):
        return _micro(spec, rows, peak_gflops)
    same = _matching(rows, kind="train", model=spec.model, device=spec.device)
    rate = _median(r.get("examples_per_sec") for r in same)
    memory = float(estimate_bytes(spec))
    if rate is None:
        basis = f"no {spec.model} run has finished on this {spec.device.upper()} yet, so there is no measured speed"
        return Estimate(None, memory, basis, spec.timeout_s)
    first = _median(r.get("time_to_first_step_s") for r in same) or 0.0
    examples = spec.batch_size * spec.epochs * (spec.steps_per_epoch + spec.validation_steps / 3)  # eval ≈ ⅓ a step
    basis = f"median {rate:,.0f} examples/s of the last {len(same)} {spec.model} run(s) on this {spec.device.upper()}"
    return Estimate(STARTUP_S + first + examples / rate, memory, basis, spec.timeout_s)


def _micro(spec: MicroSpec, rows: list[Mapping[str, Any]], peak_gflops: float | None) -> Estimate:
    shape = {f: getattr(spec, f) for f in SHAPE_FIELDS[spec.bench]}
    flops = op_flops(spec.bench, **shape) * (spec.repeats + spec.warmup)
    memory = float(estimate_bytes(spec))
    same = _matching(rows, kind=spec.bench, device=spec.device, dtype=spec.dtype)
    rate = _median(r.get("gflops") for r in same)
    where = f"this {spec.device.upper()}"
    if rate is not None:
        basis = f"median {rate:,.1f} GFLOP/s of the last {len(same)} {spec.bench} run(s) on {where}"
    elif peak_gflops:
        rate = peak_gflops * ASSUMED_EFFICIENCY
        basis = (
            f"no {spec.bench} run measured on {where} yet: {ASSUMED_EFFICIENCY:.0%} of its peak "
            f"{peak_gflops:,.0f} GFLOP/s"
        )
    else:
        return Estimate(None, memory, f"no measured speed and no known peak for {where}", spec.timeout_s)
    return Estimate(STARTUP_S + flops / (rate * 1e9), memory, basis, spec.timeout_s)
