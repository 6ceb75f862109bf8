"""The chronological check (issue 42 item 5): each device's figures estimated from what was published strictly before
its first figure — the case of a chip just launched — with and without the user's own run of the model on an older
device; and the extrapolation stretch chosen on those launches (silicon_check.stretch_before).

bench/bench_estimates.py --json prints them (`chronological`, `chronological_with_own_run`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.compare.estimate.estimate import estimate, fit_figures, stretch, usable_device
from engine.compare.estimate.extrapolation import EXTRAPOLATION_C
from engine.compare.estimate.path_check import Pairs, by_vendor, summary
from engine.compare.estimate.points import EIGHT_BIT, Point, group_points, point_of_rate, without_pipeline_bound
from engine.compare.estimate.silicon_check import stretch_before
from engine.compare.estimate.step_fit import NEW_SILICON_WIDENING
from engine.compare.facts import likeforlike as lfl

# an MLPerf Training round's year, where a row states no year of its own (the round's publication)
ROUND_YEAR = {"v0.5": 2018, "v0.6": 2019, "v0.7": 2020, "v1.0": 2021, "v1.1": 2021, "v2.0": 2022, "v2.1": 2022,
              "v3.0": 2023, "v3.1": 2023, "v4.0": 2024, "v4.1": 2024, "v5.0": 2025, "v5.1": 2025}  # fmt: skip
_ROUND = re.compile(r"MLPerf Training (v[\d.]+)")


def year_of(r: lfl.Rate) -> int | None:
    """The row's year, else its MLPerf round's; None where neither is said."""
    y = r.settings.get("year")
    if isinstance(y, (int, float)) and not math.isnan(y):
        return int(y)
    m = _ROUND.search(str(r.settings.get("source_title") or ""))
    return ROUND_YEAR.get(m.group(1)) if m else None


def point_years(rates: Sequence[lfl.Rate]) -> dict[Point, int]:
    """Each rate's point and its year (the earliest where two rows make one point)."""
    out: dict[Point, int] = {}
    for r in rates:
        p, y = point_of_rate(r) if r.precision not in EIGHT_BIT else None, year_of(r)
        if p is not None and y is not None:
            out[p] = min(y, out.get(p, y))
    return out


def first_years(rates: Sequence[lfl.Rate]) -> dict[str, int]:
    """Each device's first dated figure of any kind (an 8-bit one too: it says the device was out)."""
    out: dict[str, int] = {}
    for r in rates:
        if (y := year_of(r)) is not None:
            out[r.hardware_key] = min(y, out.get(r.hardware_key, y))
    return out


def chronological(
    points: Sequence[Point], years: dict[Point, int], firsts: dict[str, int], own_run: bool = False
) -> dict[str, Pairs]:
    """Per device with a dated figure: each of its figures estimated from the OTHER devices' figures published
    strictly before its first (`firsts`; undated figures are never evidence), the step model refitted on them.

    `own_run`: the product's own situation, an answer starting from the user's run of the model on hardware they
    have — the same model's figure (same precision class) on a device already out before the target (its first
    figure in an earlier year), whenever published, is the estimate's anchor, as a measured run is on one scale.
    The fit and everything it chooses still see only what was published before; never the same device, a sibling
    of the same year or a later one."""
    devices = sorted({p.hardware_key for p in points if p.hardware_key in firsts and usable_device(p.hardware_key)})
    out: dict[str, Pairs] = {}
    for device in devices:
        first = firsts[device]
        before = [p for p in points if p.hardware_key != device and years.get(p, first) < first]
        groups, older = group_points(without_pipeline_bound(before)), _older_runs(points, firsts, first)
        figures, pairs = fit_figures(groups), []
        for (m, d, c), g in sorted(group_points([p for p in points if p.hardware_key == device]).items()):
            runs = tuple(v.middle for (om, _, oc), v in older.items() if om == m and oc == c) if own_run else ()
            e = estimate(m, d, c, groups, figures=figures, anchors=runs or None, batch=g.middle.batch)
            if e is not None and groups:
                pairs.append((g.middle, e))
        out[device] = pairs
    return out


def _older_runs(points: Sequence[Point], firsts: dict[str, int], first: int) -> dict[Any, Any]:
    """The figures of every device out before `first` (its first figure in an earlier year), grouped, whenever
    published: the runs a user could have made on hardware they had (a source's plateau left out, as evidence)."""
    return group_points(without_pipeline_bound([p for p in points if firsts.get(p.hardware_key, first) < first]))


def launch_stretched(
    by_device: dict[str, Pairs], launches: dict[str, Pairs], firsts: dict[str, int]
) -> dict[str, Pairs]:
    """The pairs with the in-use extrapolation stretch replaced by the one chosen on the launches before the device's
    first figure (silicon_check.stretch_before, at the widening in use): a date cut's range never carries a c chosen
    on its own figures or on anything published after them."""
    out = {}
    for d, pairs in by_device.items():
        c = stretch_before(launches, firsts, firsts[d], NEW_SILICON_WIDENING)
        out[d] = [(p, stretch(e, c - EXTRAPOLATION_C)) for p, e in pairs]
    return out


def by_case(pairs: Pairs) -> dict[str, dict[str, Any]]:
    """The pairs split by what the estimate started from: the model's own figure on another device, or none."""
    return {"own figure elsewhere": summary([x for x in pairs if x[1].anchor is not None]),
            "no figure of the model": summary([x for x in pairs if x[1].anchor is None])}  # fmt: skip


def chronological_json(by_device: dict[str, Pairs], firsts: dict[str, int]) -> dict[str, Any]:
    """The chronological check's summary: overall, per vendor, by case, per device (with its first year)."""
    flat = [x for pairs in by_device.values() for x in pairs]
    out: dict[str, Any] = summary(flat)
    out["by_vendor"] = by_vendor(flat)
    out["by_case"] = by_case(flat)
    # a chip beyond every device with a figure before it: the case error_case quotes for such a row (LAUNCH)
    out["beyond_the_span"] = summary([x for x in flat if x[1].beyond > 0])
    out["by_device"] = {d: summary(pairs) | {"first_year": firsts[d]} for d, pairs in by_device.items()}
    return out


@dataclass(frozen=True)
class Launches:
    """Every device estimated as at its launch (as estimates state them): firsts, each device's first year; strict,
    from what was published before; own_run, the same anchored on the model's figure on an older device."""

    firsts: dict[str, int]
    strict: dict[str, Pairs]
    own_run: dict[str, Pairs]


def launches(rates: Sequence[lfl.Rate], points: Sequence[Point]) -> Launches:
    firsts, years = first_years(rates), point_years(rates)
    return Launches(firsts, chronological(points, years, firsts), chronological(points, years, firsts, own_run=True))
