"""How far an estimate of new silicon extrapolates, and the range that says so (issue 42 item 5).

The step model's efficiencies are fitted on the devices it was given. A target whose dense peak (at the estimate's
precision class) or bandwidth lies beyond every one of them — a chip newer and faster than all the evidence: the
B200 from the figures before 2024, the H100 from those before 2023, a B300 or MI355X today — is an extrapolation of
the fitted trend, and its error grows with the distance: the efficiencies a larger chip reaches are not seen.

`beyond` is that distance, log(target ÷ the largest fitted device), the larger of peak and bandwidth, 0 inside the
span. The range of such an estimate is stretched by exp(c × beyond) on each side (`stretch`); c is chosen out of
sample by silicon_check (nested: for each held-out silicon, from the other silicons' held-out figures), and
EXTRAPOLATION_C is its choice on every silicon — what an estimate carries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

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
