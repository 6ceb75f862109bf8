"""The error an estimate of NEW silicon really has (issue 36 item 6), and its range chosen out of sample.

Leaving one device out keeps its silicon siblings in: an H100 held out is still answered from the H200, GH200 and
H100 PCIe (one GH100 die), which is the easy case. Leaving the silicon out removes every device of the held-out
device's silicon (engine.catalog.hardware_table `silicon`) at once, so each of its figures is estimated from other
silicon only — the situation of a chip generation nobody here has.

The range is widened out of sample: an estimate's own range (the fit's residual quantiles, in-sample) is
stretched in log space by a factor w around its value (estimate.widen). Nested: for each held-out silicon, w is
the smallest of WIDENINGS whose range held at least TARGET_HELD_PCT of the OTHER silicons' held-out figures, and
that w is what scores this silicon — so the coverage published is never the one w was tuned on. `chosen_widening`
over every silicon is the w an estimate of new silicon carries (step_fit.NEW_SILICON_WIDENING, which the estimates
of a leave-silicon-out already have: `raw` takes it off before the nested choice).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from engine.compare.estimate.estimate import Estimate, Point, stretch, usable_device, widen
from engine.compare.estimate.estimate_check import leave_out
from engine.compare.estimate.extrapolation import CHOICES, EXTRAPOLATION_C
from engine.compare.estimate.step_fit import NEW_SILICON_WIDENING
from engine.compare.facts.silicon import silicon

TARGET_HELD_PCT = 80.0
WIDENINGS = tuple(round(1.0 + 0.1 * i, 1) for i in range(16))  # 1.0 … 2.5

Pairs = list[tuple[Point, Estimate]]


def leave_silicon_out(points: Sequence[Point], flops: dict[str, float] | None = None) -> dict[str, Pairs]:
    """Per device with figures for two or more models: each of its figures estimated with EVERY device of its
    silicon removed (device → [(true figure, estimate)]); the step model is refitted on what is left."""
    return leave_out(points, flops, lambda held, other: silicon(other) == silicon(held))


def raw(pairs: Sequence[tuple[Point, Estimate]]) -> Pairs:
    """The pairs with the in-use new-silicon widening and extrapolation stretch taken off (the fit's own band)."""
    return [(p, widen(stretch(e, -EXTRAPOLATION_C), 1.0 / NEW_SILICON_WIDENING)) for p, e in pairs]


def at(e: Estimate, w: float, c: float) -> Estimate:
    """A raw estimate's range at widening w and extrapolation stretch c (as estimate._new_silicon_range states it)."""
    return stretch(widen(e, w), c)


def _held(pairs: Sequence[tuple[Point, Estimate]], w: float, c: float = 0.0) -> float:
    got = [at(e, w, c) for _, e in pairs]
    return 100.0 * sum(x.low <= p.examples_per_sec <= x.high for (p, _), x in zip(pairs, got, strict=True)) / len(pairs)


def conformal_pct(n: int, level_pct: float = TARGET_HELD_PCT) -> float:
    """The share of n figures a range must hold for a NEW figure to fall inside with probability ≥ level: ⌈(n + 1) ×
    level⌉ of n (split conformal). Asking n figures for the bare level holds a new one a little less often — with a
    silicon of 64 figures held out, the 53 others at 80 % chose a widening that then held 75 % of it."""
    return 100.0 * min(n, math.ceil((n + 1) * level_pct / 100.0)) / n


def chosen_widening(pairs: Sequence[tuple[Point, Estimate]]) -> float:
    """The smallest widening whose range holds conformal_pct of these figures (the widest one if none does)."""
    if not pairs:
        return 1.0
    need = conformal_pct(len(pairs))
    return next((w for w in WIDENINGS if _held(pairs, w) >= need), WIDENINGS[-1])


def chosen_stretch(pairs: Sequence[tuple[Point, Estimate]], w: float) -> float:
    """The smallest extrapolation stretch c whose range, at widening w, holds conformal_pct of these figures'
    extrapolations (those beyond the fitted span; 0 where none is)."""
    far = [x for x in pairs if x[1].beyond > 0]
    if not far:
        return 0.0
    need = conformal_pct(len(far))
    return next((c for c in CHOICES if _held(far, w, c) >= need), CHOICES[-1])


def stretch_before(launches: dict[str, Pairs], firsts: dict[str, int], year: int, w: float) -> float:
    """The stretch chosen on the launches before `year`: each device out before it, estimated from what was published
    before ITS first figure (path_check.chronological with the user's own run, as estimates state them). A chip beyond
    the span is the case of a launch, and only a launch has many: leaving a silicon out puts one (the B200) beyond.
    Their fits never saw a figure of `year` or later, so the choice is out of sample for what came out then."""
    return chosen_stretch([x for d, got in launches.items() if firsts.get(d, year) < year for x in raw(got)], w)


def first_year_of_silicon(s: str, firsts: dict[str, int]) -> int:
    """The year of the silicon's first figure on any of its devices (a silicon with none dated: no launch before it)."""
    return min((y for d, y in firsts.items() if silicon(d) == s), default=0)


@dataclass(frozen=True)
class Nested:
    """The nested choice of the range: per held-out silicon the widening chosen on the others, and every held-out
    figure's estimate at that widening (the pairs the published coverage counts)."""

    widening_by_silicon: dict[str, float]
    pairs: Pairs
    stretch_by_silicon: dict[str, float]


def nested_band(
    by_device: dict[str, Pairs], launches: dict[str, Pairs] | None = None, firsts: dict[str, int] | None = None
) -> Nested:
    """Each silicon's figures scored at the widening chosen on the other silicons' figures alone (by_device: the
    leave_silicon_out pairs as estimates state them); then at the extrapolation stretch chosen, at that widening, on
    the launches before the silicon's first figure (stretch_before; launches: the chronological pairs with the
    user's own run, per device; firsts: each device's first year; none given: no stretch)."""
    by_silicon: dict[str, Pairs] = {}
    for device, pairs in by_device.items():
        by_silicon.setdefault(silicon(device), []).extend(raw(pairs))
    chosen, stretches, scored = {}, {}, []
    for s, pairs in sorted(by_silicon.items()):
        others = [x for t, got in by_silicon.items() if t != s for x in got]
        chosen[s] = chosen_widening(others)
        stretches[s] = stretch_before(launches or {}, firsts or {}, first_year_of_silicon(s, firsts or {}), chosen[s])
        scored += [(p, at(e, chosen[s], stretches[s])) for p, e in pairs]
    return Nested(chosen, scored, stretches)


def log_width(e: Estimate) -> float:
    """How wide a range is, as log(high ÷ low) (for medians that do not favour one side)."""
    return math.log(e.high / e.low)


def median_width(pairs: Sequence[tuple[Point, Estimate]]) -> float:
    return math.exp(statistics.median(log_width(e) for _, e in pairs)) if pairs else 0.0


def with_sibling(points: Sequence[Point]) -> set[str]:
    """The devices with a figure whose silicon also has another device's figure (an H100 beside an H200)."""
    devices = {p.hardware_key for p in points if usable_device(p.hardware_key)}
    return {d for d in devices if any(o != d and silicon(o) == silicon(d) for o in devices)}
