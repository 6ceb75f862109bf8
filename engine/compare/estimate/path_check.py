"""The error each row really has (issue 42 item 5): every path an estimate takes checked on real figures held out,
each fully nested — the held-out figure's silicon out of every fit that chooses anything — and in time order.

- by path: the step model and the device ratio (the leave-silicon-out pairs split by method); the stack factor
  (each cross-vendor pair's chip estimated with its silicon out of the fit AND of its vendor's factor, recomputed
  from the remaining pairs); the TPU law (each TPU pair predicted by the law with α from the other pairs only); the
  traced-cost conversion (each class of engine.compare.scale.conversion_check, leave one pair out);
- chronological (engine.compare.estimate.launch_check): every figure of a device estimated from what was published
  strictly before its first figure;
- by vendor: the leave-silicon-out pairs split by the held-out device's vendor.

bench/bench_estimates.py --json prints them (`by_path`, `chronological`, `by_vendor`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from engine.compare.estimate import stack_factor as sf
from engine.compare.estimate.estimate import (
    Estimate,
    Point,
    estimate_batch,
)
from engine.compare.estimate.estimate_check import summary_json
from engine.compare.estimate.points import group_points, point_of_rate, without_pipeline_bound
from engine.compare.estimate.silicon_check import median_width
from engine.compare.estimate.tpu_chain import tpu_pairs
from engine.compare.estimate.tpu_family import exponent, law_band, law_beyond, law_ratio
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.silicon import DEVICES, NONE, silicon
from engine.compare.scale.conversion_check import conversion_pairs, held_out

Pairs = list[tuple[Point, Estimate]]
VENDORS = ("nvidia", "amd", "google")


def summary(pairs: Sequence[tuple[Point, Estimate]]) -> dict[str, Any]:
    """estimate_check.summary_json, the width the median of log widths (as leave_silicon_out's)."""
    out: dict[str, Any] = summary_json(pairs)
    if pairs:
        out["median_width"] = round(median_width(pairs), 2)
    return out


def vendor(key: str) -> str:
    return DEVICES.get(key, NONE).vendor


def by_vendor(pairs: Sequence[tuple[Point, Estimate]]) -> dict[str, dict[str, Any]]:
    """The pairs' summary per vendor of the held-out device (nvidia, amd, google), where it has any."""
    return {v: summary(got) for v in VENDORS if (got := [x for x in pairs if vendor(x[0].hardware_key) == v])}


def by_method(pairs: Sequence[tuple[Point, Estimate]]) -> dict[str, dict[str, Any]]:
    """The pairs' summary per path: "step model" (memory-aware) and "ratio"."""
    names = {"memory-aware": "step model", "ratio": "ratio"}
    return {n: summary([x for x in pairs if x[1].method == m]) for m, n in names.items()}


def training_rates(ref: Any) -> list[lfl.Rate]:
    """The reference table's training rows as rates."""
    rows = ref[ref["task"] == "training"].to_dict("records") if not ref.empty else []
    return [r for r in (lfl.rate_of_reference(x) for x in rows) if r is not None]


# --- the stack factor -------------------------------------------------------------------------------------------


def _score(x: lfl.Rate, e: Estimate | None) -> dict[str, Any] | None:
    truth = point_of_rate(x.one) if x.one is not None else None
    if e is None or truth is None:
        return None
    t, v = truth.examples_per_sec, e.examples_per_sec
    return {"truth": t, "estimate": v, "low": e.low, "high": e.high, "error_pct": 100 * abs(v - t) / t,
            "held": e.low <= t <= e.high, "width": e.high / e.low}  # fmt: skip


def stack_factor_pairs(rates: Sequence[lfl.Rate], points: Sequence[Point]) -> list[dict[str, Any]]:
    """Each cross-vendor pair (stack_factor.cross_vendor_pairs) scored with its chip's silicon out of the fit (the
    step model without the vendor's figures) and out of the factor: the vendor's factor recomputed from the pairs
    of its OTHER silicons; where none remains, the estimate without a factor, said so (`factor` None)."""
    groups = group_points(without_pipeline_bound(points))
    reqs = sf.pair_requests(rates, groups)
    made = estimate_batch([q for *_, q in reqs])
    out = []
    for (x, y, rnd, _), got in zip(reqs, made, strict=True):
        held = silicon(x.hardware_key)
        keep = [i for i, (xi, *_) in enumerate(reqs) if silicon(xi.hardware_key) != held]
        kept = sf.stack_factors([reqs[i] for i in keep], [made[i] for i in keep], x.workload, x.kind)
        factor = kept.get(vendor(x.hardware_key))
        e = sf.with_stack(got[0], factor) if got and factor else (got[0] if got else None)
        scored = _score(x, e)
        if scored is not None:
            name = f"{rnd} {x.workload}: {x.hardware_key} from {y.hardware_key}"
            out.append({"pair": name, "vendor": vendor(x.hardware_key), "silicon": held,
                        "factor": round(factor.factor, 3) if factor else None, **scored})  # fmt: skip
    return out


def _pair_summary(scored: Sequence[dict[str, Any]]) -> dict[str, Any]:
    if not scored:
        return {"points": 0}
    return {"points": len(scored), "median_abs_error_pct": round(statistics.median(s["error_pct"] for s in scored), 1),
            "coverage_pct": round(100 * sum(s["held"] for s in scored) / len(scored), 1),
            "median_width": round(math.exp(statistics.median(math.log(s["width"]) for s in scored)), 2),
            "without_factor": sum(s["factor"] is None for s in scored)}  # fmt: skip


def stack_factor_check(rates: Sequence[lfl.Rate], points: Sequence[Point]) -> dict[str, Any]:
    """The stack factor's held-out error, overall and per vendor (amd, google), with each pair."""
    scored = stack_factor_pairs(rates, points)
    out: dict[str, Any] = _pair_summary(scored)
    out["by_vendor"] = {v: _pair_summary([s for s in scored if s["vendor"] == v]) for v in ("amd", "google")}
    out["pairs"] = [{k: (round(v, 3) if isinstance(v, float) else v) for k, v in s.items()} for s in scored]
    return out


# --- the TPU law --------------------------------------------------------------------------------------------------

TpuPair = tuple[str, str, str, str, str, float]  # (model, kind, precision class, target, anchor, target ÷ anchor)


def model_tpu_pairs(rates: Sequence[lfl.Rate]) -> list[TpuPair]:
    """Every model's TPU pairs (tpu_chain.tpu_pairs on its published rates), one per (model, class, two chips): the
    median of its sources' ratios."""
    published = [r for r in rates if r.basis == "published"]
    ratios: dict[tuple[str, str, str, str, str], list[float]] = {}
    for model in sorted({r.shaped for r in published if r.device_type == "tpu"}):
        mine = [r for r in published if r.shaped == model]
        for pc in ("mixed", "float32"):
            for t, a, ratio, _ in tpu_pairs(mine, pc):
                ratios.setdefault((model, mine[0].kind, pc, t, a), []).append(ratio)
    return [(*k, statistics.median(v)) for k, v in sorted(ratios.items())]


def _alpha(pair: TpuPair, pairs: Sequence[TpuPair]) -> tuple[float | None, str, list[TpuPair]]:
    """α of the OTHER pairs: the model's own other chip pairs, else its kind's, else every other pair's (with them)."""
    model, kind, pc, t, a, _ = pair
    others = [p for p in pairs if not (p[0] == model and p[2] == pc and {p[3], p[4]} == {t, a})]
    for name, got in (("model", [p for p in others if p[0] == model]), ("kind", [p for p in others if p[1] == kind]),
                      ("all", others)):  # fmt: skip
        alphas = [(p, x) for p in got if (x := exponent(p[3], p[4], p[5], p[2])) is not None]
        if alphas:
            return statistics.median(x for _, x in alphas), name, [p for p, _ in alphas]
    return None, "none", []


def _law_error(pair: TpuPair, pairs: Sequence[TpuPair]) -> tuple[float, float, str, float] | None:
    """(log(law ÷ truth), α, where α came from, how far beyond those pairs it reaches: law_beyond) of `pair`, α from
    the other pairs of `pairs` only."""
    alpha, whence, used = _alpha(pair, pairs)
    law = law_ratio(pair[3], pair[4], alpha, pair[2]) if alpha is not None else None
    far = law_beyond(pair[3], pair[4], pair[2], [(p[3], p[4]) for p in used])
    return (math.log(law / pair[5]), alpha or 0.0, whence, far) if law else None


def tpu_law_check(rates: Sequence[lfl.Rate]) -> dict[str, Any]:
    """Each TPU pair's target chip predicted from its anchor by the law, α from the other pairs only; its range the
    one a TPU-law row carries (tpu_family.law_band at that α: nothing in it is fitted on the held-out pair)."""
    pairs = model_tpu_pairs(rates)
    scored: list[dict[str, Any]] = []
    for p in pairs:
        if (got := _law_error(p, pairs)) is None or (band := law_band(p[3], p[4], got[1], p[2], got[3])) is None:
            continue
        scored.append({"pair": f"{p[0]} {p[2]}: {p[3]} from {p[4]}", "alpha": round(got[1], 2), "alpha_from": got[2],
                       "error_pct": round(100 * abs(math.exp(got[0]) - 1), 1), "held": band[0] <= p[5] <= band[1],
                       "width": round(band[1] / band[0], 2)})  # fmt: skip
    if not scored:
        return {"points": 0}
    return {"points": len(scored), "median_abs_error_pct": round(statistics.median(s["error_pct"] for s in scored), 1),
            "coverage_pct": round(100 * sum(s["held"] for s in scored) / len(scored), 1),
            "median_width": round(statistics.median(s["width"] for s in scored), 2), "pairs": scored}  # fmt: skip


# --- the traced-cost conversion -----------------------------------------------------------------------------------


def traced_cost_check(rates: Sequence[lfl.Rate]) -> dict[str, dict[str, Any]]:
    """Each conversion class, leave one pair out (the pair and its reverse): its correction's exponent and its band
    from the rest (conversion_check.held_out)."""
    labelled = conversion_pairs(rates)
    out = {}
    for name in ("near", "from_larger", "from_smaller"):
        if scored := held_out(labelled, name):
            out[name] = {"points": len(scored),
                         "median_abs_error_pct": round(statistics.median(s[0] for s in scored), 1),
                         "coverage_pct": round(100 * sum(s[1] for s in scored) / len(scored), 1),
                         "median_width": round(statistics.median(s[2] for s in scored), 2)}  # fmt: skip
    return out
