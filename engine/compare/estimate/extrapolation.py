"""How far an estimate of new silicon extrapolates, and the range that says so (issue 42 item 5).

The step model's efficiencies are fitted on the devices it was given. A target whose dense peak (at the estimate's
precision class) or bandwidth lies beyond every one of them — a chip newer and faster than all the evidence: the
B200 from the figures before 2024, the H100 from those before 2023, a B300 or MI355X today — is an extrapolation of
the fitted trend, and its error grows with the distance: the efficiencies a larger chip reaches are not seen.

`beyond` is that distance, log(target ÷ the largest fitted device), the larger of peak and bandwidth, 0 inside the
span. The range of such an estimate is stretched by exp(c × beyond) on each side (`stretch`); c is chosen out of
sample by silicon_check (nested: for each held-out silicon, from the other silicons' held-out figures), and
EXTRAPOLATION_C is its choice on every silicon — what an estimate carries.

Its point: such a chip has no fitted factors, and the typical share of peak and bandwidth (factor 1) is a median over
smaller chips. `as_anchor` gives it the factors of the silicon it is scaled from, the nearest evidence: the H100
reached 0.73 of the typical bandwidth share in the fit on the figures before 2024, and with the typical share the
B200 was modelled 3.0× the H100 (its bandwidth 2.3×) against 1.1–2.4× measured.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.compare.estimate.step_fit import Fit
from engine.compare.facts.silicon import DEVICES, NONE

if TYPE_CHECKING:
    from engine.compare.estimate.estimate import Estimate

# the stretch per unit of log distance beyond the fitted span: silicon_check's choice on every silicon
# (bench/bench_estimates.py --json, `leave_silicon_out.band.extrapolation_on_every_silicon`)
EXTRAPOLATION_C = 0.2
CHOICES = tuple(round(0.1 * i, 1) for i in range(16))  # 0.0 … 1.5, the c the nested choice searches


def beyond(target: str, pc: str, fitted: Iterable[str]) -> float:
    """log of how far the target's peak at `pc` or its bandwidth lies beyond every fitted device's (0: within)."""
    dev = DEVICES.get(target, NONE)
    peaks = [p for d in set(fitted) if (p := DEVICES.get(d, NONE).peak_flops.get(pc))]
    bws = [b for d in set(fitted) if (b := DEVICES.get(d, NONE).bandwidth)]
    out = 0.0
    if dev.peak_flops.get(pc) and peaks:
        out = max(out, math.log(dev.peak_flops[pc] / max(peaks)))  # type: ignore[operator]
    if dev.bandwidth and bws:
        out = max(out, math.log(dev.bandwidth / max(bws)))
    return out


def stretch(e: Estimate, c: float) -> Estimate:
    """The estimate's range stretched by exp(c × e.beyond) below and above (c < 0 takes a stretch off)."""
    k = math.exp(c * e.beyond)
    return replace(e, low=e.low / k, high=e.high * k)


def as_anchor(fit: Fit, target: str, anchor: str, pc: str) -> tuple[float, float]:
    """(compute, bandwidth efficiency) of a target beyond the fitted span with no factors of its own: the anchor's
    silicon's factors on the target's trend (its own efficiencies where it has factors or the anchor has none)."""
    e_c, e_m = fit.efficiencies(target, pc)
    if fit.borrowed_from(target) or not (seen := fit.borrowed_from(anchor)):
        return e_c, e_m
    fc, fm = fit.factors[seen]
    return min(e_c * fc, 1.0), min(e_m * fm, 1.0)
