"""An estimate where nothing was measured or published: clearly labelled, with a range, and checked.

- **ratio**: the model's figure on another device (the anchor) × the ratio of the two devices seen on OTHER models
  of its kind (workload.model_kind) at the same precision class; the range is that ratio's spread widened by
  RATIO_MARGIN. Rough when fewer than MIN_RATIO_MODELS models are behind the ratio.
- **memory-aware**, where no ratio seen on two or more other models exists (step_model, step_fit): the model's
  figure on a device of the same silicon, else the nearest in modelled speed, × the modelled step-time ratio of the
  two devices from its per-op FLOPs and bytes at fitted efficiencies; a model with no figure anywhere: its modelled
  rate × the level of its kind (rough). The range: quantiles of the fit's residuals.

Several figures of one (model, device, precision class) count as their middle one; a pipeline-bound source's
figures (evidence.saturation's rule, applied to the points given) are no evidence. An estimate never uses the figure
it stands in for, which makes estimating a known figure its own leave-one-out check (estimate_check).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.catalog import catalog
from engine.compare.estimate import extrapolation, step_fit, step_model
from engine.compare.estimate.extrapolation import stretch, widen  # noqa: F401 (re-exported: silicon_check, tests)
from engine.compare.estimate.no_figure import level_rate
from engine.compare.estimate.points import (  # noqa: F401 (Point's helpers re-exported: picks, estimate_check, tests)
    Groups,
    Key,
    Point,
    group_points,
    middle,
    point_of_rate,
    points_from_reference,
    usable_device,
    without_pipeline_bound,
)
from engine.compare.estimate.step_model import byte_text, pct, sig
from engine.compare.facts.silicon import DEVICES, NONE
from engine.compare.facts.workload import model_kind, precision_class
from engine.reference.units import short_name

RATIO_MARGIN = 0.25  # a device ratio carried across models of one kind: the error the method aims to stay within
MIN_RATIO_MODELS = 2
CLASSES = ("float32", "mixed")


@dataclass(frozen=True)
class Estimate:
    """A throughput nobody measured, with its range (per single device) and how it was reached.

    Attributes: method "ratio" or "memory-aware"; rough: a ratio seen on one other model, or a memory-aware estimate
    of a model with no figure anywhere; anchor: the model's own figure that was scaled (None: none); ratio_models:
    the other models the device ratio was seen on; how: what was multiplied by what, in words; capped: held at a
    ceiling (step_floor), an upper bound.
    """

    model: str
    hardware_key: str
    precision_class: str
    examples_per_sec: float
    low: float
    high: float
    method: str
    rough: bool
    anchor: Point | None
    ratio_models: tuple[str, ...]
    how: str
    capped: bool = False
    beyond: float = 0.0  # new silicon: log distance of its peak or bandwidth beyond every fitted device's


def _device_ratio(groups: Groups, model: str, target: str, anchor: str, pc: str) -> float:
    """target ÷ anchor on `model`, within each source that measured both where one did (its settings cancel)."""
    on_t, on_a = groups[(model, target, pc)], groups[(model, anchor, pc)]
    shared = sorted(set(on_t.by_source) & set(on_a.by_source))
    if not shared:
        return on_t.middle.examples_per_sec / on_a.middle.examples_per_sec
    return statistics.median(on_t.by_source[s].examples_per_sec / on_a.by_source[s].examples_per_sec for s in shared)


def _by_ratio(
    model: str,
    target: str,
    pc: str,
    groups: Groups,
    kind: str | None = None,
    anchors: Sequence[Point] | None = None,
) -> Estimate | None:
    kind = kind or model_kind(model)
    given = {p.hardware_key: p for p in anchors} if anchors is not None else None
    options = []
    for m, anchor, c in groups:
        if m != model or c != pc or anchor == target or not groups[(m, anchor, c)].usable:
            continue
        if given is not None and anchor not in given:  # one scale: only the answer's measured anchors
            continue
        others = sorted(
            o for o, d, oc in groups
            if d == target and oc == pc and o != model and groups[(o, d, oc)].kind == kind and (o, anchor, pc) in groups
        )  # fmt: skip
        if others:
            a = given[anchor] if given is not None else groups[(model, anchor, pc)].middle
            ratios = [_device_ratio(groups, o, target, anchor, pc) for o in others]
            # most ratio models first; then AccelBench's own figure; then the nearest device (the least carried)
            near = abs(math.log(statistics.median(ratios)))
            options.append((-len(others), a.basis != "measured", near, anchor, a, others, ratios))
    if not options:
        return None
    *_, anchor, a, others, ratios = min(options, key=lambda o: o[:4])
    mid, lo, hi = statistics.median(ratios), min(ratios), max(ratios)
    spread = f"{lo:.2g}–{hi:.2g}×, median {mid:.3g}×" if hi / lo > 1.005 else f"{mid:.3g}×"
    n_models, v = f"{len(others)} other {kind} model{'s' if len(others) > 1 else ''}", a.examples_per_sec
    unit = "img/s" if model in catalog.MODELS and catalog.MODELS[model].kind == "image" else "examples/s"
    how = (
        f"Estimate: {model} on {short_name(anchor, True)} ({v:,.{0 if v >= 100 else 1}f} {unit}, {a.basis}) × the "
        f"{short_name(target)}/{short_name(anchor)} ratio seen on {n_models} ({spread})"
    )
    low, high, rough = v * lo / (1 + RATIO_MARGIN), v * hi * (1 + RATIO_MARGIN), len(others) < MIN_RATIO_MODELS
    return Estimate(model, target, pc, v * mid, low, high, "ratio", rough, a, tuple(others), how)


def fit_figures(groups: Groups) -> tuple[step_fit.Figure, ...]:
    """Each (model, device, precision class)'s middle figure, on the devices an estimate can name."""
    kinds = {m: g.kind for (m, _, _), g in groups.items()}  # each model's cost and kind, worked out once
    out, costs = [], {m: step_model.cost_of(m, None, k) for m, k in kinds.items()}
    for (m, d, c), group in sorted(groups.items()):
        if group.usable:
            mid = group.middle
            out.append(step_fit.Figure(m, d, c, mid.examples_per_sec, mid.batch, mid.kind, costs[m]))
    return tuple(out)


def _modelled(key: str, pc: str) -> bool:
    """The device has a peak at `pc` and a bandwidth (facts.silicon.DEVICES): the step model can speak for it."""
    dev = DEVICES.get(key, NONE)
    return bool(dev.bandwidth and dev.peak_flops[pc])


def _own_figures(model: str, pc: str, groups: Groups, anchors: Sequence[Point] | None) -> list[Point]:
    """The model's own figures a memory-aware estimate may start from, on devices with a peak and a bandwidth."""
    if anchors is not None:  # one scale (engine.compare.scale.one_scale): the answer's measured anchors, nothing else
        return [a for a in anchors if _modelled(a.hardware_key, pc)]
    return [
        g.middle for (m, d, c), g in groups.items()
        if m == model and c == pc and g.usable and _modelled(d, c)
    ]  # fmt: skip


def _step_ratios(
    cost: step_model.Cost, fit: step_fit.Fit, own: Sequence[Point], target: str, pc: str, at: extrapolation.ByAnchor
) -> list[tuple[float, Point]]:
    """(modelled step time on the figure's device ÷ on the target, the figure) for each of the model's figures; `at`:
    the target's efficiencies beside each (extrapolation.anchor_efficiencies)."""
    out = []
    for a in own:
        ea_c, ea_m = fit.efficiencies(a.hardware_key, pc)
        e_c, e_m = at[a.hardware_key]
        t_a = step_model.step_seconds(cost, a.hardware_key, pc, ea_c, ea_m, fit.overhead_s, a.batch)
        t_d = step_model.step_seconds(cost, target, pc, e_c, e_m, fit.overhead_s, a.batch)
        if t_a and t_d:
            out.append((t_a / t_d, a))
    return out


def _by_memory(
    model: str,
    target: str,
    pc: str,
    groups: Groups,
    flops: float | None,
    kind: str | None = None,
    anchors: Sequence[Point] | None = None,
    figures: tuple[step_fit.Figure, ...] | None = None,
    shaped: str | None = None,
    batch: float | None = None,
) -> Estimate | None:
    """The memory-aware step model: the model's own figure on another device × the modelled step-time ratio of the
    two devices, or, with no figure of the model anywhere, its modelled rate × the level of its kind. `figures`:
    fit_figures made once per answer (the target's own left out here); `shaped`: the model at the run's shape."""
    kind = kind or model_kind(model)
    cost = step_model.cost_of(shaped or model, flops, kind)
    mine = (model, target, pc)
    figs = fit_figures(groups) if figures is None else tuple(f for f in figures if f.key != mine)
    fit, fit_bw = step_fit.fit(figs), DEVICES.get(target, NONE).bandwidth
    if cost is None or fit is None or not DEVICES.get(target, NONE).peak_flops[pc] or not fit_bw:
        return None
    e_c, e_m = fit.efficiencies(target, pc)
    sibling = fit.borrowed_from(target)
    own = _own_figures(model, pc, groups, anchors)
    mem = step_model.bound_share(cost, target, pc, e_c, e_m)
    work = (
        f"{sig(cost.total_flops / 1e9)} GFLOP per training example and {byte_text(cost.total_bytes)} moved (memory "
        f"traffic {pct(mem)} of the modelled step on {short_name(target, True)})"
    )
    fitted = f"{pct(e_c)} of peak compute and {pct(e_m)} of bandwidth, fitted on {fit.n_figures} figures" + (
        f" (the factors of its {sibling} silicon)" if sibling else ""
    )
    unit = "img/s" if model in catalog.MODELS and catalog.MODELS[model].kind == "image" else "examples/s"
    at = extrapolation.anchor_efficiencies(target, pc, extrapolation.fitted(groups), fit.factors, (e_c, e_m), own)
    if scaled := _step_ratios(cost, fit, own, target, pc, at):
        # from a device of the same silicon where there is one, else the nearest (the step-time ratio closest to
        # 1): the less the model carries, the less its error (checked with the device left out, issue 29: the
        # nearest device missed by less than the median over every device's figure; estimate_check.CHECK)
        die = DEVICES.get(target, NONE).silicon or target
        same = [x for x in scaled if (DEVICES.get(x[1].hardware_key, NONE).silicon or x[1].hardware_key) == die]
        ratio, a = min(same or scaled, key=lambda x: abs(math.log(x[0])))
        value, (down, up), v = a.examples_per_sec * ratio, step_fit.band(fit.residuals), a.examples_per_sec
        how = (
            f"Estimate (memory-aware): {model} on {short_name(a.hardware_key, True)} ({v:,.{0 if v >= 100 else 1}f} "
            f"{unit}, {a.basis}) × {ratio:.3g}, the {short_name(target)}/{short_name(a.hardware_key)} step-time ratio of "
            f"its {work}, at {fitted}"
        )
        how += extrapolation.note(at, a.hardware_key, (e_c, e_m))
        rough = len(fit.residuals) < 5
        return Estimate(model, target, pc, value, value * down, value * up, "memory-aware", rough, a, (), how)
    # the run's batch (its own, else its anchors': the user's run) sets the per-step overhead's share
    got = level_rate(cost, fit, target, pc, kind, batch or next((a.batch for a in anchors or () if a.batch), None))
    if got is None:
        return None
    (value, down, up, level), peak = got, DEVICES.get(target, NONE).peak_flops[pc] or 0.0
    how = (f"Rough estimate (memory-aware): {work}, on its {peak / 1e12:,.3g} TFLOP/s peak and {fit_bw / 1e9:,.4g} GB/s, "
           f"at {fitted}, × {math.exp(level):.2g} (the level seen on figures of {kind} models); its op mix: {cost.how}")  # fmt: skip
    return Estimate(model, target, pc, value, value * down, value * up, "memory-aware", True, None, (), how)


def estimate(
    model: str,
    hardware_key: str,
    precision: str,
    points: Sequence[Point] | Groups,
    flops_per_example: float | None = None,
    kind: str | None = None,
    anchors: Sequence[Point] | None = None,
    figures: tuple[step_fit.Figure, ...] | None = None,
    shaped: str | None = None,
    batch: float | None = None,
) -> Estimate | None:
    """`model`'s training examples/s on one `hardware_key` device at `precision` (or its class) from the other
    points (or the points grouped once, and their fit_figures); None for an unknown device or no data. `kind`: a
    user model's, from its layers. The target's own points are left out: an estimate never repeats a figure.
    `anchors`: the figures it may start from (the answer's measured rows, one_scale), in place of the model's.
    `shaped`: the model at the run's input shape (`resnet50@192x192x3`), whose cost the step model takes; `batch`:
    the run's per-device batch (a model with no figure: the step's overhead share; else its anchors')."""
    pc = precision if precision in CLASSES else precision_class(precision)
    if not DEVICES.get(hardware_key, NONE).estimable:
        return None
    target = (model, hardware_key, pc)
    # a plateau's figures time no chip: the rule applied to the points given (grouped ones had it: evidence_points)
    grouped = points if isinstance(points, dict) else group_points(without_pipeline_bound(points))
    groups = {k: g for k, g in grouped.items() if k != target}
    # a ratio seen on 2+ other models first (it misses by less than the step model); one on a single model after it
    ratio = _by_ratio(*target, groups, kind, anchors)
    if ratio is not None and not ratio.rough:
        return ratio
    memory = _by_memory(*target, groups, flops_per_example, kind, anchors, figures, shaped, batch)
    return _new_silicon_range(memory or ratio, groups)


def estimates(
    model: str,
    keys: Sequence[str],
    precision: str,
    groups: Groups,
    flops_per_example: float | None = None,
    kind: str | None = None,
    anchors: Sequence[Point] | None = None,
    shaped: str | None = None,
) -> list[Estimate]:
    """`estimate` for each device key from the points grouped once, in one pass (keys with no estimate left out)."""
    figures = fit_figures(groups)  # each model's cost worked out once for every device
    out = [estimate(model, k, precision, groups, flops_per_example, kind, anchors, figures, shaped) for k in keys]
    return [e for e in out if e is not None]


# (model, keys, precision, groups, kind, anchors, flops per example, shaped): a plain tuple, built without a call here
Request = tuple[str, tuple[str, ...], str, Groups, str | None, tuple[Point, ...] | None, float | None, str | None]


def estimate_batch(requests: Sequence[Request]) -> list[list[Estimate]]:
    """`estimates` of each request in one call (the stack factor's pairs and an answer's devices: stack_factor)."""
    return [estimates(m, ks, pc, groups, flops, kind, anchors, shaped) for m, ks, pc, groups, kind, anchors, flops, shaped
            in requests]  # fmt: skip


def _new_silicon_range(e: Estimate | None, groups: Groups) -> Estimate | None:
    """A step-model estimate for silicon no figure here ran on carries the range widened out of sample
    (step_fit.NEW_SILICON_WIDENING; engine.compare.estimate.silicon_check): the fit's residuals are in-sample and held
    about 80 % of such figures (63 % before the fit's size trend). Where its peak or bandwidth lies beyond every
    fitted device's (e.beyond), the range stretches further with that distance (extrapolation.EXTRAPOLATION_C)."""
    if e is None or e.method != "memory-aware" or any(_die(d) == _die(e.hardware_key) for _, d, _ in groups):
        return e
    far = extrapolation.beyond(e.hardware_key, e.precision_class, extrapolation.fitted(groups))
    return stretch(replace(widen(e, step_fit.NEW_SILICON_WIDENING), beyond=far), extrapolation.EXTRAPOLATION_C)


def _die(key: str) -> str:
    return DEVICES.get(key, NONE).silicon or key
