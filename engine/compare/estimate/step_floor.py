"""The shortest training step an accelerator has been seen to take: a ceiling on every estimate.

A roofline estimate divides FLOPs by a peak. For a small model at a small batch that predicts steps of
microseconds, which no framework reaches: every step still launches its kernels, runs the optimizer and
returns to Python. The fastest training step AccelBench itself measured on an accelerator (its reference
pack, source kind `accelbench`) bounds what an estimate may claim: at global batch B, at most B ÷ that step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pandas as pd

from engine.compare.estimate.estimate import Estimate
from engine.compare.facts.floor import StepFloor, step_floor  # noqa: F401 (the floor itself: a fact of the table)
from engine.reference.normalize import is_missing


def capped_all(es: Sequence[Estimate], batch: Any, ref: pd.DataFrame | None) -> list[Estimate]:
    """Every estimate held under the reference table's step floor (`ref` None: no ceiling, as on one scale)."""
    floor = step_floor(ref) if ref is not None else None
    return [capped(e, batch, floor) for e in es]


def capped(e: Estimate, batch: Any, floor: StepFloor | None) -> Estimate:
    """`e` with its value and range held at or below batch ÷ the fastest measured step (unchanged when under it)."""
    if floor is None or is_missing(batch) or not float(batch) > 0:
        return e
    ceiling = float(batch) / floor.step_s
    if e.high <= ceiling:
        return e
    how = (
        f"{e.how}; held at ≤ {ceiling:,.0f} examples/s: at batch {int(float(batch))} a step cannot be shorter than "
        f"the fastest training step AccelBench has measured on an accelerator ({floor.step_s * 1000:.2g} ms: "
        f"{floor.label}), so this small workload is bound by per-step overhead, not the device's FLOP/s"
    )
    return dataclasses.replace(
        e,
        examples_per_sec=min(e.examples_per_sec, ceiling),
        low=min(e.low, ceiling),
        high=ceiling,
        rough=True,
        how=how,
        capped=True,
    )
