"""How far an estimate of new silicon extrapolates, and the range that says so (issue 42 item 5).

The step model's efficiencies are fitted on the devices it was given. A target whose dense peak (at the estimate's
precision class) or bandwidth lies beyond every one of them — a chip newer and faster than all the evidence: the
B200 from the figures before 2024, the H100 from those before 2023, a B300 or MI355X today — is an extrapolation of
the fitted trend, and its error grows with the distance: the efficiencies a larger chip reaches are not seen.

`beyond` is that distance, log(target ÷ the largest fitted device), the larger of peak and bandwidth, 0 inside the
span. The range of such an estimate is stretched by exp(c × beyond) on each side (`stretch`); c is chosen out of
sample by silicon_check.stretch_before on launches (each device estimated from what was published before its first
figure; a held-out silicon or device scored at the c chosen on the launches before it), and EXTRAPOLATION_C is its
choice on every launch — what an estimate carries.

Its point: such a chip has no fitted factors, and the typical share of peak and bandwidth (factor 1) is a median over
smaller chips. `anchor_efficiencies` gives it the factors of the silicon it is scaled from, the nearest evidence: the H100
reached 0.73 of the typical bandwidth share in the fit on the figures before 2024, and with the typical share the
B200 was modelled 3.0× the H100 (its bandwidth 2.3×) against 1.1–2.4× measured.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar

from engine.compare.estimate.points import Groups, Point
from engine.compare.facts.silicon import DEVICES, NONE


class Ranged(Protocol):
    """An estimate's value and range (estimate.Estimate), as the range's helpers read it."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def examples_per_sec(self) -> float: ...
    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...
    @property
    def beyond(self) -> float: ...


E = TypeVar("E", bound=Ranged)

ByAnchor = dict[str, tuple[float, float]]  # anchor device → the target's (compute, bandwidth) efficiency beside it

# the stretch per unit of log distance beyond the fitted span, chosen where such chips are: on every launch, each
# device estimated from what was published before its first figure with the user's run on an older one
# (bench/bench_estimates.py --json, `leave_silicon_out.band.stretch_on_every_launch`; a test holds them equal). Leaving a
# silicon out puts one chip (the B200) beyond the rest, and chose 0; the launches put a chip beyond at every generation
# (V100 → A100 → H100 → B200, TPU v3 → v4), and 0 held 57 % of their figures.
EXTRAPOLATION_C = 0.4
CHOICES = tuple(round(0.1 * i, 1) for i in range(16))  # 0.0 … 1.5, the c the nested choice searches


def fitted(groups: Groups) -> set[str]:
    """The devices whose figures the fit may see (usable groups): the span an estimate extrapolates from."""
    return {d for (_, d, _), g in groups.items() if g.usable}


def beyond(target: str, pc: str, devices: Iterable[str]) -> float:
    """log of how far the target's peak at `pc` or its bandwidth lies beyond every one of `devices` (0: within)."""
    dev = DEVICES.get(target, NONE)
    peaks = [p for d in set(devices) if (p := DEVICES.get(d, NONE).peak_flops.get(pc))]
    bws = [b for d in set(devices) if (b := DEVICES.get(d, NONE).bandwidth)]
    out = 0.0
    if dev.peak_flops.get(pc) and peaks:
        out = max(out, math.log(dev.peak_flops[pc] / max(peaks)))  # type: ignore[operator]
    if dev.bandwidth and bws:
        out = max(out, math.log(dev.bandwidth / max(bws)))
    return out


def anchor_efficiencies(
    target: str,
    pc: str,
    devices: Iterable[str],
    factors: Mapping[str, tuple[float, float]],
    own: tuple[float, float],
    anchors: Sequence[Point],
) -> ByAnchor:
    """The target's (compute, bandwidth) efficiencies beside each anchor device: `own` (its fitted ones,
    step_fit.Fit.efficiencies) unless it lies beyond the span with no factors of its own (`factors`: the fit's, by
    silicon) and the anchor's silicon has factors: then `own` × those."""
    far, out = beyond(target, pc, devices), {}
    for a in anchors:
        seen = factors.get(DEVICES.get(a.hardware_key, NONE).silicon or a.hardware_key)
        if far > 0 and seen and (DEVICES.get(target, NONE).silicon or target) not in factors:
            out[a.hardware_key] = (min(own[0] * seen[0], 1.0), min(own[1] * seen[1], 1.0))
        else:
            out[a.hardware_key] = own
    return out


def note(at: ByAnchor, anchor: str, own: tuple[float, float]) -> str:
    """What an estimate scaled at its anchor's silicon factors adds to its words ('' for one at its own)."""
    if at[anchor] == own:
        return ""
    return f"; beyond every fitted device, at the factors of the {DEVICES.get(anchor, NONE).silicon or anchor} silicon it is scaled from"


def widen(e: E, w: float) -> E:
    """The estimate with its range stretched w× in log space around its value (w = 1: unchanged)."""
    v = e.examples_per_sec
    return replace(e, low=v * (e.low / v) ** w, high=v * (e.high / v) ** w)


def stretch(e: E, c: float) -> E:
    """The estimate's range stretched by exp(c × e.beyond) below and above (c < 0 takes a stretch off)."""
    k = math.exp(c * e.beyond)
    return replace(e, low=e.low / k, high=e.high * k)
