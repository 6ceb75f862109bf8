"""Anchors for a model nobody measured: another model of its kind that AccelBench (or your store) measured, converted
to the run's model by their traced costs on each device — the stated conversion the one-scale rule allows.

A flowers_cnn run or a user's own model (`--model-file`, `--model-fn`) has no measured row of its own, so its answer
used to start from whatever figure of the model was published (flowers_cnn: one 2018 TPU v2-8 board, Keras-TF).
Here each measured row of a sibling model (the same kind: a convnet for a convnet) at the run's precision class
becomes an estimate for the run's model on that device: the sibling's rate × its modelled step time ÷ the run's
model's (engine.compare.facts.cost.cost_ratio, FLOPs and bytes traced by XLA, or a user model's counted FLOPs in
its kind's op mix). The row is an estimate (basis "estimate", method "traced cost"), names the sibling and the
factor, and carries the conversion's own checked correction and range (CONVERSION, from
engine.compare.scale.conversion_check).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd

from engine.compare.evidence.rates import Evidence
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.cost import KIND_PROXY, cost_of, cost_ratio_of
from engine.compare.facts.floor import hold
from engine.compare.facts.run import RunFacts
from engine.compare.scale.conversion_check import conversion_class
from engine.reference.units import short_name

METHOD = "traced cost"
HELD = "held_row"  # a converted anchor's row as the answer shows it: under the step floor at the run's batch
CONVERTED = "converted_from"  # the settings key of a converted anchor: the measured row it was converted from
# class → (exponent, low, high): a measured model carried to another of its kind by traced cost, checked on every
# pair one source measured on one device, stack and precision (engine.compare.scale.conversion_check, printed by
# bench/bench_estimates.py --json under by_path "traced cost"; tests/compare/test_any_shape.py ties them): within 4×
# in FLOPs no correction; farther, × (FLOPs ratio from ÷ to)^−0.35 (a small model's per-step overhead is not in its
# FLOPs: from a model 16× larger × 0.38). low/high: the conformal band (≥ 80 %) of truth ÷ the corrected conversion.
CONVERSION: dict[str, tuple[float, float, float]] = {
    "near": (0.0, 0.67, 1.49),
    "from_larger": (0.35, 0.36, 2.75),
    "from_smaller": (0.35, 0.36, 2.78),
}
# class → the check's median |error| in % after the correction (the same check; quoted by every row hanging from one)
CONVERSION_ERROR_PCT = {"near": 7.1, "from_larger": 10.4, "from_smaller": 10.4}
CLASS_WORDS = {"near": "within 4× in FLOPs", "from_larger": "a far larger model", "from_smaller": "a far smaller model"}


def converted_anchors(ev: Evidence, facts: RunFacts, ref: pd.DataFrame | None = None) -> list[lfl.Rate]:
    """One estimate per device of the run's model, converted from the measured rows of ONE sibling model (the same
    kind, at the run's precision class, on one stack): the run's own stack first, then the nearest in cost, then the
    sibling with the most devices.
    Empty where the run's model has no cost (a model with no count) or no sibling was measured. Each carries, under
    settings HELD, itself as a row of the answer: held at or below the run's batch ÷ the fastest measured step of
    `ref` (engine.compare.facts.floor), said so — the run's own model at its own batch. Estimates start from the
    anchor unheld and are held under the same floor (engine.compare.estimate.rows)."""
    base = ev.base
    mine = cost_of(base.shaped, facts.flops_per_example, facts.model_kind)
    if base.task != "training" or mine is None:
        return []
    groups: dict[tuple[str, str], dict[str, lfl.Rate]] = {}
    for r in [*ev.store, *ev.reference]:
        one = r.one
        if r.basis != "measured" or one is None or one.precision_class != facts.precision_class:
            continue
        sib = cost_of(r.shaped)
        if r.workload == base.workload or r.kind != facts.model_kind or sib is None or not sib.traced:
            continue
        if not r.on_accelerator:
            continue
        best = groups.setdefault((r.shaped, r.stack), {})
        if one.hardware_key not in best or one.value > best[one.hardware_key].value:
            best[one.hardware_key] = one
    if not groups:
        return []

    def rank(k: tuple[str, str]) -> tuple[bool, float, int, bool]:
        sib = cost_of(k[0])
        near = abs(math.log(sib.total_flops / mine.total_flops)) if sib and sib.total_flops else math.inf
        return k[1] != base.stack, round(near, 1), -len(groups[k]), k[0] != KIND_PROXY.get(facts.model_kind)

    chosen = min(groups, key=rank)
    sib = cost_of(chosen[0])
    flops_ratio = (sib.total_flops if sib else 1.0) / mine.total_flops
    held = hold(facts.batch_size, ref)  # the step floor at the run's batch, read once
    out = [c for r in groups[chosen].values() if (c := _converted(base, facts, r, flops_ratio)) is not None]
    return [replace(c, settings={**c.settings, HELD: _floored(c, held)}) for c in out]


def _floored(r: lfl.Rate, held: tuple[float, str] | None) -> lfl.Rate:
    """`r` held at or below batch ÷ the fastest measured step (`held`: that ceiling and its words), said so."""
    if held is None or r.value <= held[0]:
        return r
    top, words = held
    settings = {**r.settings, "conversion_ratio": r.settings["conversion_ratio"] * top / r.value}
    return replace(r, value=top, low=min(r.low or top, top), high=top, bound="at most", how=f"{r.how}; {words}",
                   settings=settings)  # fmt: skip


def _converted(base: lfl.Rate, facts: RunFacts, r: lfl.Rate, flops_ratio: float) -> lfl.Rate | None:
    """`r` carried to the run's model by traced cost, corrected by its class's exponent of `flops_ratio` (FLOPs
    per example of `r`'s model ÷ the run's)."""
    k = cost_ratio_of(r.shaped, base.shaped, r.hardware_key, facts.precision_class, facts.flops_per_example,
                      facts.model_kind)  # fmt: skip
    if k is None:
        return None
    cls = conversion_class(flops_ratio, 1.0)
    exponent, lo, hi = CONVERSION[cls]
    correction = flops_ratio**-exponent
    k *= correction
    name, value = short_name(r.hardware_key), r.value * k
    fix = "" if not exponent else (f", × {correction:.2f} = (FLOPs ratio {flops_ratio:.3g})^−{exponent:.2f} for a "
                                   f"conversion from {CLASS_WORDS[cls]} (checked)")  # fmt: skip
    how = (
        f"Estimate (traced cost): {r.workload} measured on {name} ({r.value:,.0f} {r.unit}, {r.stack or 'measured'}, "
        f"{r.precision_words}) × {k:.3g}, its modelled step time ÷ {base.workload}'s on {name} (FLOPs and bytes "
        f"per example at the device's peak and bandwidth{fix}): another model of its kind, converted"
    )
    settings = {
        **r.settings, "model": base.workload, "dataset": base.settings.get("dataset"),
        "shape": base.settings.get("shape"), "source_kind": "estimate", "method": METHOD, "rough": True,
        "anchor_key": r.hardware_key, "anchor_model": r.workload, "conversion_ratio": k,
        "ratio_source": f"traced cost, {r.workload} → {base.workload}", CONVERTED: r.id,
        "conversion_class": cls, "conversion_band": (lo, hi),
    }  # fmt: skip
    return replace(
        r, id=f"converted:{r.hardware_key}:{r.id}", label=f"{name} (estimate from {r.workload} measured, "
        f"{r.precision_words})", origin="estimate", workload=base.workload, value=value, how=how, derivation="estimate",
        bound="about", source_id="ESTIMATE", settings=settings, basis="estimate", low=value * lo, high=value * hi,
    )  # fmt: skip
