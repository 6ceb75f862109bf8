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
from engine.compare.facts.floor import StepFloor, ceiling, held_words, hold, step_floor  # noqa: F401 (facts)


def capped_all(es: Sequence[Estimate], batch: Any, ref: pd.DataFrame | None) -> list[Estimate]:
    """Every estimate held under the reference table's step floor (`ref` None: no ceiling, as on one scale)."""
    held = hold(batch, ref) if ref is not None else None
    return [_held(e, *held) for e in es] if held is not None else list(es)


def capped(e: Estimate, batch: Any, floor: StepFloor | None) -> Estimate:
    """`e` with its value and range held at or below batch ÷ the fastest measured step (unchanged when under it)."""
    top = ceiling(batch, floor)
    return _held(e, top, held_words(top, batch, floor)) if top is not None and floor is not None else e


def _held(e: Estimate, top: float, words: str) -> Estimate:
    if e.high <= top:
        return e
    return dataclasses.replace(
        e, examples_per_sec=min(e.examples_per_sec, top), low=min(e.low, top), high=top, rough=True,
        how=f"{e.how}; {words}", capped=True,
    )  # fmt: skip
