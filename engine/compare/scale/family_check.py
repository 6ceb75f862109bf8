"""How well a device ratio measured on one member of an architecture family carries to another (issue 42 item 3):
the check behind engine.compare.scale.scaled.FAMILY_MARGIN.

Every two devices that ONE source measured on two members of one family (workload.FAMILIES: BERT-base and
BERT-large in Lambda's suite) on one stack and precision class give two ratios of the same two devices; the log of
their quotient is the error a family transfer makes. The margin is the 80th percentile of its size.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.workload import FAMILIES


@dataclass(frozen=True)
class FamilyCheck:
    """n: device pairs checked; median_error_pct, p80_error_pct: of |member ratio ÷ other member's ratio − 1|."""

    n: int
    median_error_pct: float
    p80_error_pct: float


def _family_of(model: str) -> str:
    """One name per family: the alphabetically first of a model and its members."""
    return min([model, *FAMILIES.get(model, ())])


def family_errors(rates: Sequence[lfl.Rate]) -> list[float]:
    """|log(ratio on member A ÷ ratio on member B)| of every same-source device pair measured on two members."""
    groups: dict[tuple[str, str, str, str], dict[str, dict[str, list[float]]]] = {}
    for r in rates:
        one = r.one
        if one is None or r.task != "training" or r.doubtful or not r.on_accelerator or r.workload not in FAMILIES:
            continue
        key = (r.source_id, r.stack, r.precision_class, _family_of(r.workload))
        groups.setdefault(key, {}).setdefault(r.shaped, {}).setdefault(r.hardware_key, []).append(one.value)
    out = []
    for members in groups.values():
        for a, b in itertools.combinations(sorted(members), 2):
            if a.split("@")[0] == b.split("@")[0]:
                continue  # one model at two shapes is no family transfer
            devices = sorted(set(members[a]) & set(members[b]))
            for d1, d2 in itertools.combinations(devices, 2):
                ra = statistics.median(members[a][d1]) / statistics.median(members[a][d2])
                rb = statistics.median(members[b][d1]) / statistics.median(members[b][d2])
                out.append(abs(math.log(ra / rb)))
    return out


def check_families(rates: Sequence[lfl.Rate]) -> FamilyCheck | None:
    errs = sorted(family_errors(rates))
    if not errs:
        return None
    p80 = errs[round(0.8 * (len(errs) - 1))]
    return FamilyCheck(len(errs), 100 * (math.exp(statistics.median(errs)) - 1), 100 * (math.exp(p80) - 1))
