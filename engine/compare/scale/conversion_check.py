"""How well one model's figure, converted by traced cost, predicts another model's on the same device: the check
behind engine.compare.scale.converted's correction and range (printed by bench/bench_estimates.py --json,
`by_path`, "traced cost").

Every pair of figures that ONE source measured on one device, one stack and one precision class for two models of
one kind with a traced cost (a stand-in's op mix, or one scaled to a FLOP count, is not a traced cost) is a test: model A's figure × cost_ratio(A → B)
against B's figure. The log errors fall in two classes. Within NEAR_FLOPS× in FLOPs per example the conversion
holds (a few tens of %); farther apart, a figure converted from a larger model comes out too fast (a small model's
step is held by per-step overhead the FLOPs and bytes do not see) and one from a smaller model too slow — by a
factor the check measures. So a far conversion is corrected by that class's median error, and its range is the
spread of that class (10th–90th percentile), each stated.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.cost import cost_of, cost_ratio_of

NEAR_FLOPS = 4.0  # two models within 4× in FLOPs per example: the conversion needs no correction


@dataclass(frozen=True)
class ConversionClass:
    """One class of conversions: `near`, `from_larger`, `from_smaller`.

    Attributes:
      n: pairs checked; correction: the factor applied (exp(−median log error); 1 for near);
      low, high: the 10th and 90th percentile of truth ÷ corrected conversion (the range's factors);
      median_error_pct: the median |error| after the correction, in %.
    """

    name: str
    n: int
    correction: float
    low: float
    high: float
    median_error_pct: float


def conversion_class(frm_flops: float, to_flops: float) -> str:
    """'near', 'from_larger' or 'from_smaller' for a conversion from a model of `frm_flops` to one of `to_flops`."""
    r = frm_flops / to_flops
    if 1 / NEAR_FLOPS <= r <= NEAR_FLOPS:
        return "near"
    return "from_larger" if r > 1 else "from_smaller"


def conversion_errors(rates: Sequence[lfl.Rate]) -> dict[str, list[float]]:
    """log(predicted ÷ figure) of every same-source pair, by class."""
    out: dict[str, list[float]] = {"near": [], "from_larger": [], "from_smaller": []}
    for name, _, err in conversion_pairs(rates):
        out[name].append(err)
    return out


Labelled = tuple[str, tuple[str, ...], float]  # (class, (source, device, class, stack, kind, from, to), log error)


def conversion_pairs(rates: Sequence[lfl.Rate]) -> list[Labelled]:
    """Every same-source pair's class, what it converted (the group and the two models, so a check can leave a pair
    and its reverse out: engine.compare.estimate.path_check) and log(predicted ÷ figure)."""
    groups: dict[tuple[str, str, str, str, str], dict[str, list[float]]] = {}
    for r in rates:
        one = r.one
        cost = cost_of(r.shaped)
        if one is None or r.task != "training" or r.doubtful or not r.on_accelerator or cost is None or not cost.traced:
            continue
        group = (r.source_id, r.hardware_key, r.precision_class, r.stack, r.kind)
        groups.setdefault(group, {}).setdefault(r.shaped, []).append(one.value)
    out: list[Labelled] = []
    for group, models in sorted(groups.items()):
        _, device, pc, _, _ = group
        for a, b in itertools.permutations(sorted(models), 2):
            k = cost_ratio_of(a, b, device, pc)
            ca, cb = cost_of(a), cost_of(b)
            if k is None or ca is None or cb is None:
                continue
            pred, truth = statistics.median(models[a]) * k, statistics.median(models[b])
            out.append((conversion_class(ca.total_flops, cb.total_flops), (*group, a, b), math.log(pred / truth)))
    return out


def quantile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    i = q * (len(s) - 1)
    lo, hi = math.floor(i), math.ceil(i)
    return s[lo] + (s[hi] - s[lo]) * (i - lo)


def check_conversions(rates: Sequence[lfl.Rate]) -> dict[str, ConversionClass]:
    """Each class's correction and range from the reference figures (rates of any model of the training task)."""
    out = {}
    for name, errs in conversion_errors(rates).items():
        if not errs:
            continue
        bias = 0.0 if name == "near" else statistics.median(errs)
        resid = [bias - e for e in errs]  # log(truth ÷ corrected prediction)
        out[name] = ConversionClass(
            name, len(errs), math.exp(-bias), math.exp(quantile(resid, 0.1)), math.exp(quantile(resid, 0.9)),
            100 * (math.exp(statistics.median(abs(x) for x in resid)) - 1),
        )  # fmt: skip
    return out
