"""One compared row of an answer (engine.compare.answer), shared by the answer and its sentence."""

from __future__ import annotations

from dataclasses import dataclass

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.grade import Grade


@dataclass(frozen=True)
class Compared:
    """One row of the answer.

    Attributes:
      rate: the row as chosen; one: the same row as one device (None: a system of unstated size, or a peak).
      speedup: rate ÷ baseline rate, whole rows; per_device_speedup: one device ÷ one device of the baseline.
      low, high: the per-device speedup's range (an estimate's spread; else both equal the speedup).
      usd_per_million_examples: one device's cost of a million training examples; price_how: whose price.
      grade: the like-for-like grade (None for the baseline itself).
    """

    rate: lfl.Rate
    speedup: float
    per_device_speedup: float | None
    time_ratio: float | None
    grade: Grade | None
    one: lfl.Rate | None = None
    low: float | None = None
    high: float | None = None
    usd_per_million_examples: float | None = None
    price_how: str = ""
