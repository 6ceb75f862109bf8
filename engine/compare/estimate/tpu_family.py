"""TPU chips no source measured beside another for the run's model, placed from the TPU root along the model's
own TPU scaling law (issue 36: "no TPU v6e chip below an older TPU chip").

Where one source measured the model on two TPU chips (engine.compare.estimate.tpu_chain: Google's MLPerf v0.7 ResNet-50 on
TPU v3 and v4, per chip), that ratio says how the model follows a TPU's compute and its memory bandwidth on XLA's
TPU stack: ratio = (peak ratio)^α × (bandwidth ratio)^(1 − α). For ResNet-50, 3,478 / 2,004 = 1.74 between chips
2.24× apart in compute and 1.33× in bandwidth gives α ≈ 0.55; for BERT-large, 2.26 gives α ≈ 1 (compute-bound). The
other TPU chips (v2, v5e, v5p, v6e) then hang from the root by that law rather than by the GPU-fitted step model,
whose bytes — traced by XLA on a CPU, unfused — make ResNet-50 look memory-bound on every TPU and would rank a
918-TFLOP/s v6e below a 459-TFLOP/s v5p. Still an estimate; its range (law_band) is what the law can honestly
claim from three chip pairs whose α disagree (ResNet-50 0.51, BERT-large 1.0, GPT-3 0.48): every ratio α in [0, 1]
gives — from bandwidth alone to compute alone — and at least the step model's nested new-silicon band around the
law (a path with too few checks of its own falls back on the general one). The law was seen to hold only on pairs
1.3–2.2× apart; a chip further from the root than any pair α came from (TPU v7 is 8.4× TPU v4's peak, 6.1× its
bandwidth) is an extrapolation of it, and its range stretches with that distance as the step model's does beyond its
fitted span (law_beyond; extrapolation.EXTRAPOLATION_C, the general stretch: no pair here is that far apart to choose
one of the law's own). TPU_LAW: its check on the other TPU pairs, engine.compare.estimate.path_check.tpu_law_check.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import replace

from engine.compare.estimate.estimate_check import CHECK, NEW_SILICON
from engine.compare.estimate.extrapolation import EXTRAPOLATION_C
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.silicon import DEVICES, NONE
from engine.reference.units import short_name

MIN_SPREAD = 0.1  # log(peak ratio) − log(bandwidth ratio) below this says nothing about α
LAW_SOURCE = "TPU scaling law of this model"  # a TPU-law row's ratio_source starts so (error_case quotes TPU_LAW)
# the TPU law's check (path_check.tpu_law_check, bench/bench_estimates.py --json by_path "TPU law"; tied by
# tests/compare/test_path_check.py): each TPU pair (both directions) from α of the other pairs, its range law_band —
# (median |error| %, range held %, directions, median range width high ÷ low)
TPU_LAW = (28.0, 100.0, 6, 2.22)


def exponent(target: str, anchor: str, ratio: float, pc: str) -> float | None:
    """α of one measured pair: how much of the ratio follows compute (1) rather than bandwidth (0)."""
    t, a = DEVICES.get(target, NONE), DEVICES.get(anchor, NONE)
    p_t, p_a, b_t, b_a = t.peak_flops[pc], a.peak_flops[pc], t.bandwidth, a.bandwidth
    if not (p_t and p_a and b_t and b_a) or ratio <= 0:
        return None
    lp, lb = math.log(p_t / p_a), math.log(b_t / b_a)
    if abs(lp - lb) < MIN_SPREAD:
        return None
    return min(1.0, max(0.0, (math.log(ratio) - lb) / (lp - lb)))


def law_ratio(target: str, root: str, alpha: float, pc: str) -> float | None:
    t, r = DEVICES.get(target, NONE), DEVICES.get(root, NONE)
    p_t, p_r, b_t, b_r = t.peak_flops[pc], r.peak_flops[pc], t.bandwidth, r.bandwidth
    if not (p_t and p_r and b_t and b_r):
        return None
    return float((p_t / p_r) ** alpha * (b_t / b_r) ** (1 - alpha))


def law_band(target: str, root: str, alpha: float, pc: str, beyond: float = 0.0) -> tuple[float, float] | None:
    """(low, high) of target ÷ root: the ratios from α 0 (bandwidth alone) to α 1 (compute alone) — three chip
    pairs cannot pin α nearer — widened, where narrower, to the step model's nested new-silicon band around the
    law's ratio (CHECK[NEW_SILICON]: the general band of an estimate of silicon nobody here measured); then, where
    the two chips lie further apart than any pair α was taken from (`beyond`, law_beyond), stretched by
    exp(EXTRAPOLATION_C × beyond) each side, as the step model's range is beyond its fitted span."""
    law, by_bw, by_peak = (law_ratio(target, root, a, pc) for a in (alpha, 0.0, 1.0))
    if not (law and by_bw and by_peak):
        return None
    half = math.sqrt(CHECK[NEW_SILICON].median_width)  # the general band, even in log space about the value
    k = _stretch(beyond)
    return min(by_bw, by_peak, law / half) / k, max(by_bw, by_peak, law * half) * k


def _stretch(beyond: float) -> float:
    """The factor a law range stretches by on each side, `beyond` (log) past the pairs α came from."""
    return math.exp(EXTRAPOLATION_C * beyond)


def _distance(a: str, b: str, pc: str) -> tuple[float, float]:
    """|log| of the peak and bandwidth ratios of two chips (0, 0 where either is unknown)."""
    x, y = DEVICES.get(a, NONE), DEVICES.get(b, NONE)
    p_x, p_y, b_x, b_y = x.peak_flops[pc], y.peak_flops[pc], x.bandwidth, y.bandwidth
    if not (p_x and p_y and b_x and b_y):
        return 0.0, 0.0
    return abs(math.log(p_x / p_y)), abs(math.log(b_x / b_y))


def law_beyond(target: str, root: str, pc: str, pairs: Sequence[tuple[str, str]]) -> float:
    """How much further apart (log, in peak or bandwidth) target and root are than any chip pair α came from (0:
    within): the law was seen to hold on pairs 1.3–2.2× apart, and TPU v7 is 7–8× from TPU v4."""
    spans = [_distance(t, a, pc) for t, a in pairs]
    if not spans:
        return 0.0
    far_p, far_b = _distance(target, root, pc)
    return max(0.0, far_p - max(p for p, _ in spans), far_b - max(b for _, b in spans))


def along_law(rows: Sequence[lfl.Rate], root: lfl.Rate, pairs: Sequence[tuple[str, str, float, str]],
              pc: str, skip: set[str]) -> list[lfl.Rate]:  # fmt: skip
    """`rows` with every TPU estimate other than the root and the `skip`ped (chained) chips placed from the root by the
    model's TPU law (α from `pairs`, each a (target, anchor, target/anchor, words) of one source)."""
    alphas = [a for t, k, r, _ in pairs if (a := exponent(t, k, r, pc)) is not None]
    if not alphas:
        return list(rows)
    alpha = statistics.median(alphas)
    words = "; ".join(sorted({w.split("|", 1)[0] for *_, w in pairs}))
    seen = [(t, k) for t, k, *_ in pairs]
    out = []
    for r in rows:
        ratio = law_ratio(r.hardware_key, root.hardware_key, alpha, pc)
        mine = r.device_type == "tpu" and r.basis == "estimate" and r.hardware_key not in skip | {root.hardware_key}
        if not mine or not ratio:
            out.append(r)
            continue
        out.append(_placed(r, root, ratio, alpha, words, pc, law_beyond(r.hardware_key, root.hardware_key, pc, seen)))
    return out


def _placed(
    row: lfl.Rate, root: lfl.Rate, ratio: float, alpha: float, words: str, pc: str, beyond: float = 0.0
) -> lfl.Rate:
    low, high = law_band(row.hardware_key, root.hardware_key, alpha, pc, beyond) or (ratio, ratio)
    name, root_name = short_name(row.hardware_key), short_name(root.hardware_key)
    source = f"{LAW_SOURCE} (α {alpha:.2f}, from {words})"
    far = (
        f", stretched × {_stretch(beyond):.3g} each side: the two chips lie further apart than the "
        f"pair the law was taken from"
        if beyond > 0
        else ""
    )
    how = (
        f"Estimate: the {root_name} row ({root.value:,.0f} {root.unit}, {root.basis}) × {ratio:.3g} = "
        f"({name}/{root_name} peak)^{alpha:.2f} × ({name}/{root_name} bandwidth)^{1 - alpha:.2f}, the law the "
        f"model's own TPU pair follows ({words}); its range every α from 0 to 1 gives (bandwidth alone to compute "
        f"alone), at least the step model's new-silicon band{far}: × {low:.3g}–{high:.3g}"
    )
    value = root.value * ratio
    settings = {**row.settings, "anchor_key": root.hardware_key, "ratio_source": source, "law_beyond": beyond}
    return replace(row, value=value, how=how, settings=settings, low=root.value * low, high=root.value * high)
