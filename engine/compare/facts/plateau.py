"""The plateau rule behind the saturation flag (issue 36): a source's figures for one model that stay within ±10 %
across devices whose compute AND bandwidth differ by ≥ 1.5× time its input pipeline, not the devices. One rule,
read by the evidence stage (engine.compare.evidence.saturation: the flag on a row) and by the estimate stage
(engine.compare.estimate.points: such figures are no evidence for an estimate)."""

from __future__ import annotations

import statistics

from engine.compare.facts.silicon import DEVICES, NONE

PLATEAU = 0.10  # figures within ±10 % of their middle: a plateau
DISTINCT = 1.5  # devices whose compute and bandwidth both differ by at least this much should not share one


def _distinct(a: str, b: str, pc: str) -> bool:
    """True when devices a and b differ by ≥ DISTINCT in peak compute (at `pc`) AND in memory bandwidth."""
    da, db = DEVICES.get(a, NONE), DEVICES.get(b, NONE)
    fa, fb, ba, bb = da.peak_flops[pc], db.peak_flops[pc], da.bandwidth, db.bandwidth
    if not (fa and fb and ba and bb):
        return False
    return max(fa, fb) / min(fa, fb) >= DISTINCT and max(ba, bb) / min(ba, bb) >= DISTINCT


def plateaus(by_device: dict[str, float], pc: str) -> set[str]:
    """Devices of every window of figures within ±PLATEAU of its middle that holds two distinct devices."""
    order = sorted(by_device, key=by_device.__getitem__)
    flagged: set[str] = set()
    for i, lo_key in enumerate(order):
        top = by_device[lo_key] * (1 + PLATEAU) / (1 - PLATEAU)
        window = [k for k in order[i:] if by_device[k] <= top]
        if any(_distinct(a, b, pc) for a in window for b in window if a < b):
            flagged |= set(window)
    return flagged


def plateau_devices(groups: dict[tuple[str, str, str], dict[str, list[float]]]) -> dict[tuple[str, str, str], set[str]]:
    """Per (source, model, precision class) with a plateau: its devices (groups: each device's one-device figures;
    a device counts as its middle one)."""
    mids = {k: {d: statistics.median_low(v) for d, v in figures.items()} for k, figures in groups.items()}
    return {k: got for k, m in mids.items() if (got := plateaus(m, k[2]))}
