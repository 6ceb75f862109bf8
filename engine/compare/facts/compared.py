"""One compared row of an answer (engine.compare.answer), shared by the answer and its sentence; an answer's rows
are made here in one call (compared_rows): each row's ratios, grade and cost read by later stages as fields."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.grade import Grade, grades


@dataclass(frozen=True)
class Compared:
    """One row of the answer.

    Attributes:
      rate: the row as chosen; one: the same row as one device (None: a system of unstated size, or a peak).
      speedup: rate ÷ baseline rate, whole rows; per_device_speedup: one device ÷ one device of the baseline.
      low, high: the per-device speedup's range (an estimate's spread; else both equal the speedup).
      usd_per_million_examples: one device's cost of a million training examples; price_how: whose price.
      grade: the like-for-like grade (None for the baseline itself).
      input_cap: the run's input pipeline on this device's host (engine.compare.words.input_cap.HostCap), if known.
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
    input_cap: Any = field(default=None, compare=False)


# A row against the baseline, as ratios of rates of work (the answer's numbers).
def speedup(subject: lfl.Rate, baseline: lfl.Rate) -> float:
    """How many times faster `subject` is than `baseline` (>1 = faster), as a ratio of rates of work."""
    if subject.unit != baseline.unit:
        raise ValueError(f"cannot compare {subject.unit} with {baseline.unit}")
    if not (subject.value > 0 and baseline.value > 0):
        raise ValueError("speedup needs two positive rates")
    return subject.value / baseline.value


def per_device_speedup(subject: lfl.Rate, baseline: lfl.Rate) -> float | None:
    a, b = subject.per_device, baseline.per_device
    return a / b if a and b else None


def same_workload(a: lfl.Rate, b: lfl.Rate) -> bool:
    """Identical work: same model/op and the same number of examples or FLOPs."""
    return a.workload == b.workload and a.work is not None and a.work == b.work


def time_ratio(subject: lfl.Rate, baseline: lfl.Rate) -> float | None:
    """baseline time ÷ subject time — only when both timed the identical workload, else None."""
    if not same_workload(subject, baseline) or not (subject.time_s and baseline.time_s):
        return None
    return baseline.time_s / subject.time_s


def compared_rows(
    base: lfl.Rate, kept: Sequence[tuple[lfl.Rate, lfl.Rate | None]], price: Mapping[int, tuple[float | None, str]]
) -> list[Compared]:
    """The baseline's own row, then each kept row (a rate and its one-device view) against it; `price`: the
    (USD/h, whose price) of the kept row at that index, where one is known."""
    base_one = base.one
    rows = [Compared(base, 1.0, 1.0, None, None, base_one, 1.0, 1.0)]
    gs = grades(base.settings, [(r.settings, r.derivation) for r, _ in kept])  # every row's grade in one call
    return rows + [
        _compared(r, one, base, base_one, price.get(i, (None, "")), g)
        for i, ((r, one), g) in enumerate(zip(kept, gs, strict=True))
    ]


def _compared(
    r: lfl.Rate,
    one: lfl.Rate | None,
    base: lfl.Rate,
    base_one: lfl.Rate | None,
    price: tuple[float | None, str],
    g: Grade,
) -> Compared:
    ref_one = base_one or base
    per = one.value / ref_one.value if one is not None else per_device_speedup(r, base)
    low = one.low / ref_one.value if one is not None and one.low is not None else per
    high = one.high / ref_one.value if one is not None and one.high is not None else per
    usd_h, how = price
    usd = usd_h / 3600.0 * 1e6 / one.value if usd_h and one is not None else None
    return Compared(r, speedup(r, base), per, time_ratio(r, base), g, one, low, high, usd, how)
