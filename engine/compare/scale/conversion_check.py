"""How well one model's figure, converted by traced cost, predicts another model's on the same device: the check
behind engine.compare.scale.converted's correction and range (printed by bench/bench_estimates.py --json,
`by_path`, "traced cost").

Every pair of figures that ONE source measured on one device, one stack and one precision class for two models of
one kind with a traced cost (a stand-in's op mix, or one scaled to a FLOP count, is not a traced cost) is a test: model A's figure × cost_ratio(A → B)
against B's figure. The log errors fall in two classes. Within NEAR_FLOPS× in FLOPs per example the conversion
holds (a few tens of %); farther apart, a figure converted from a larger model comes out too fast (a small model's
step is held by per-step overhead the FLOPs and bytes do not see) and one from a smaller model too slow — by a
factor that grows with the FLOP gap: log error ≈ EXPONENT × log(FLOPs ratio), the exponent fitted through the origin
on the far pairs. So a far conversion is corrected × (FLOPs ratio)^−exponent. Its range, in every class, is the
small-sample (split-conformal) band of the class's residuals: the k-th smallest and k-th largest of n with
k = ⌊(n + 1) × 0.1⌋ (at least 1), which holds a new pair's truth with probability ≥ 80 % where the pairs are alike.
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


LEVEL = 0.8  # the range's target coverage


@dataclass(frozen=True)
class ConversionClass:
    """One class of conversions: `near`, `from_larger`, `from_smaller`.

    Attributes:
      n: pairs checked; exponent: the correction's, × (FLOPs ratio from ÷ to)^−exponent (0 for near);
      low, high: the band (conformal_band) of truth ÷ corrected conversion (the range's factors);
      median_error_pct: the median |error| after the correction, in %.
    """

    name: str
    n: int
    exponent: float
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


def conformal_band(resid: Sequence[float], level: float = LEVEL) -> tuple[float, float]:
    """The k-th smallest and k-th largest of `resid`, k = ⌊(n + 1)(1 − level) ÷ 2⌋ but at least 1: a new value
    like them falls inside with probability ≥ `level` (split conformal; the 10–90 % quantiles of a few values
    hold less often than 80 %). Below 1 ÷ (1 − level) − 1 values it is their whole span, and that says less."""
    s = sorted(resid)
    k = max(1, math.floor((len(s) + 1) * (1 - level) / 2))
    return s[k - 1], s[-k]


def log_flops_ratio(label: tuple[str, ...]) -> float:
    """log(FLOPs per example of the model converted from ÷ the model converted to) of a conversion_pairs label."""
    a, b = cost_of(label[5]), cost_of(label[6])
    return math.log(a.total_flops / b.total_flops) if a and b and a.total_flops and b.total_flops else 0.0


def fit_exponent(far: Sequence[tuple[tuple[str, ...], float]]) -> float:
    """The far conversions' exponent: log error = exponent × log FLOPs ratio, least squares through the origin."""
    xs = [(log_flops_ratio(label), err) for label, err in far]
    den = sum(x * x for x, _ in xs)
    return sum(x * e for x, e in xs) / den if den else 0.0


def residuals(name: str, exponent: float, mine: Sequence[tuple[tuple[str, ...], float]]) -> list[float]:
    """log(truth ÷ corrected conversion) of each of the class's pairs."""
    return [(0.0 if name == "near" else exponent * log_flops_ratio(label)) - err for label, err in mine]


def check_conversions(rates: Sequence[lfl.Rate]) -> dict[str, ConversionClass]:
    """Each class's correction and range from the reference figures (rates of any model of the training task)."""
    labelled = conversion_pairs(rates)
    exponent = fit_exponent([(label, e) for c, label, e in labelled if c != "near"])
    out = {}
    for name in ("near", "from_larger", "from_smaller"):
        resid = residuals(name, exponent, [(label, e) for c, label, e in labelled if c == name])
        if not resid:
            continue
        lo, hi = conformal_band(resid)
        out[name] = ConversionClass(
            name, len(resid), 0.0 if name == "near" else exponent, math.exp(lo), math.exp(hi),
            100 * (math.exp(statistics.median(abs(x) for x in resid)) - 1),
        )  # fmt: skip
    return out


def held_out(labelled: Sequence[Labelled], name: str) -> list[tuple[float, bool, float]]:
    """(|error| %, held, width) of each pair of class `name` with the pair and its reverse left out of the exponent
    and of the band — every choice made without it (engine.compare.estimate.path_check prints them)."""
    out = []
    for c, label, err in labelled:
        if c != name:
            continue
        back = (*label[:5], label[6], label[5])
        exponent = fit_exponent([(lb, e) for c2, lb, e in labelled if c2 != "near" and lb not in (label, back)])
        mine = [(lb, e) for c2, lb, e in labelled if c2 == name and lb not in (label, back)]
        if len(mine) < 2:
            continue
        lo, hi = conformal_band(residuals(name, exponent, mine))
        resid = residuals(name, exponent, [(label, err)])[0]
        out.append((100 * (math.exp(abs(resid)) - 1), lo <= resid <= hi, math.exp(hi - lo)))
    return out
