"""An estimate where nothing was measured or published: clearly labelled, with a range, and checked.

- **ratio**: the model's figure on another device (the anchor) × the ratio of the two devices seen on OTHER
  models of its kind (workload.model_kind) at the same precision class; the range is that ratio's spread,
  widened by RATIO_MARGIN (a ratio never carries exactly from one model to another). Rough when fewer than
  MIN_RATIO_MODELS models are behind the ratio.
- **roofline**, where no such pair exists: counted training FLOPs per example against the device's dense peak,
  at the band of MFU seen on similar figures (_mfu_band). Always rough.

Several figures of one (model, device, precision class) count as their middle one (median_low, a real figure):
a source with many configurations does not outvote the rest. An estimate never uses the figure it stands in
for, which makes estimating a known figure its own leave-one-out check (engine.compare.estimate_check).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from engine.compare import likeforlike as lfl
from engine.compare.model_flops import train_flops_per_example
from engine.compare.workload import device_count, device_unit, model_kind, precision_class, shaped_model
from engine.reference.units import HARDWARE, units_between
from engine.spec import catalog, hardware_table

RATIO_MARGIN = 0.25  # a device ratio carried across models of one kind: the error the method aims to stay within
MIN_RATIO_MODELS = 2
CLASSES = ("float32", "mixed")
Key = tuple[str, str, str]  # (model, hardware_key, precision_class)


@dataclass(frozen=True)
class Point:
    """One measured or published training throughput of ONE device.

    Attributes:
      model: the model (workload) key; `bert_base@384` at a stated sequence length not the zoo's (shaped_model).
      hardware_key: the device; precision_class: "float32" or "mixed".
      examples_per_sec: per single device (workload.device_unit: a GPU, a K80 die, a v2-8 board, a TPU chip).
      basis: "measured" (AccelBench's own runs) or "published".
      source_id: where the figure came from; label: how a person reads it.
    """

    model: str
    hardware_key: str
    precision_class: str
    examples_per_sec: float
    basis: str
    source_id: str
    label: str


@dataclass(frozen=True)
class Estimate:
    """A throughput nobody measured, with its range and how it was reached.

    Attributes:
      model, hardware_key, precision_class: what is estimated.
      examples_per_sec, low, high: the estimate and its range, per single device.
      method: "ratio" or "roofline"; rough: True for a roofline, or a ratio seen on a single other model.
      anchor: the model's own figure the ratio scaled (None for a roofline).
      ratio_models: the other models the device ratio was seen on.
      how: one plain sentence saying what was multiplied by what.
      capped: True where the value was held at a ceiling (engine.compare.step_floor): it is an upper bound.
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


def point_of_rate(rate: lfl.Rate) -> Point | None:
    """A training rate as one device's Point; None for doubtful rows, one-sided bounds or an unknown count."""
    n_devices = device_count(rate.hardware_key, rate.settings.get("hardware_count"), rate.settings.get("count_unit"))
    # a one-sided bound is not a value to scale from, nor one to check an estimate against
    if rate.task != "training" or rate.doubtful or rate.bound in ("at most", "at least") or not n_devices:
        return None
    basis = "measured" if rate.basis == "measured" else "published"
    return Point(
        shaped_model(rate.settings), rate.hardware_key, precision_class(rate.precision), rate.value / n_devices, basis,
        rate.source_id, rate.label,
    )  # fmt: skip


def points_from_reference(ref: pd.DataFrame) -> list[Point]:
    """Every usable training figure of the reference table, per single device.

    AccelBench's own pack measures one workload on several backends on one machine; their spread is each
    backend's overhead, not the device (Keras-torch's eager dispatch runs ResNet-50 at a quarter of Keras-JAX's
    rate on an H100), so per (model, device, precision class, source) only the fastest backend's figure is kept.
    """
    rows = ref[ref["task"] == "training"].to_dict("records") if not ref.empty else []
    rates = (lfl.rate_of_reference(r) for r in rows)
    points = [p for p in (point_of_rate(r) for r in rates if r is not None) if p is not None]
    best: dict[tuple[str, str, str, str], Point] = {}
    for p in points:
        k = (p.model, p.hardware_key, p.precision_class, p.source_id)
        if p.basis == "measured" and (k not in best or p.examples_per_sec > best[k].examples_per_sec):
            best[k] = p
    return [
        p
        for p in points
        if p.basis != "measured" or best[(p.model, p.hardware_key, p.precision_class, p.source_id)] is p
    ]


def usable_device(key: str) -> bool:
    """A device an estimate can name: a known GPU or TPU (a CPU host has no stable ratio to anything)."""
    dev = HARDWARE.get(key)
    return dev is not None and dev.device_type in ("gpu", "tpu") and not key.endswith("_unknown")


def group_points(points: Sequence[Point]) -> dict[Key, list[Point]]:
    keys = dict.fromkeys((p.model, p.hardware_key, p.precision_class) for p in points)
    return {k: [p for p in points if (p.model, p.hardware_key, p.precision_class) == k] for k in keys}


def middle(group: Sequence[Point]) -> Point:
    """The group's middle figure (median_low: a real figure, not an average of two)."""
    mid = statistics.median_low(p.examples_per_sec for p in group)
    return next(p for p in group if p.examples_per_sec == mid)


def _device_ratio(groups: dict[Key, list[Point]], model: str, target: str, anchor: str, pc: str) -> float:
    """target ÷ anchor on `model`, within each source that measured both where one did (its settings cancel)."""
    on_t, on_a = groups[(model, target, pc)], groups[(model, anchor, pc)]
    shared: Sequence[str | None] = sorted({p.source_id for p in on_t} & {p.source_id for p in on_a})

    def of(group: list[Point], source: str | None) -> float:
        return middle([p for p in group if source in (None, p.source_id)]).examples_per_sec

    return statistics.median(of(on_t, s) / of(on_a, s) for s in shared or [None])


def _short(key: str, article: bool = False) -> str:
    name = HARDWARE[key].short if key in HARDWARE else key
    return (f"an {name}" if name[:1] in "AEHILMNORSX" else f"a {name}") if article else name


def _by_ratio(
    model: str, target: str, pc: str, groups: dict[Key, list[Point]], kind: str | None = None
) -> Estimate | None:
    kind = kind or model_kind(model)
    options = []
    for m, anchor, c in groups:
        if m != model or c != pc or anchor == target or not usable_device(anchor):
            continue
        others = sorted(
            o for o, d, oc in groups
            if d == target and oc == pc and o != model and model_kind(o) == kind and (o, anchor, pc) in groups
        )  # fmt: skip
        if others:
            a = middle(groups[(model, anchor, pc)])
            ratios = [_device_ratio(groups, o, target, anchor, pc) for o in others]
            # most ratio models first; then AccelBench's own figure; then the nearest device (the least carried)
            near = abs(math.log(statistics.median(ratios)))
            options.append((-len(others), a.basis != "measured", near, anchor, a, others, ratios))
    if not options:
        return None
    *_, anchor, a, others, ratios = min(options, key=lambda o: o[:4])
    mid, lo, hi = statistics.median(ratios), min(ratios), max(ratios)
    spread = f"{lo:.2g}–{hi:.2g}×" if hi / lo > 1.005 else f"{mid:.2g}×"
    n_models, v = f"{len(others)} other {kind} model{'s' if len(others) > 1 else ''}", a.examples_per_sec
    unit = "img/s" if model in catalog.MODELS and catalog.MODELS[model].kind == "image" else "examples/s"
    how = (
        f"Estimate: {model} on {_short(anchor, True)} ({v:,.{0 if v >= 100 else 1}f} {unit}, {a.basis}) × the "
        f"{_short(target)}/{_short(anchor)} ratio seen on {n_models} ({spread})"
    )
    low, high, rough = v * lo / (1 + RATIO_MARGIN), v * hi * (1 + RATIO_MARGIN), len(others) < MIN_RATIO_MODELS
    return Estimate(model, target, pc, v * mid, low, high, "ratio", rough, a, tuple(others), how)


def peak_per_device_tflops(key: str, pc: str) -> float | None:
    """Dense peak of one device (workload.device_unit) for a precision class. float32 means TF32 where the GPU
    has it (the frameworks' default for convolutions and matmuls on Ampere and later), and bfloat16 on a TPU
    that lists no float32 peak (XLA's default precision runs float32 matmuls as bfloat16 passes)."""
    dev = hardware_table.BY_KEY.get(key)
    if dev is None:
        return None
    table = dev.peak_tflops
    half = max((table.get(h) or 0.0) for h in ("float16", "bfloat16")) or None
    f32 = table.get("tf32") or table.get("float32") or (half if dev.device_type == "tpu" else None)
    per_unit = half if pc == "mixed" else f32
    per = units_between(key, device_unit(key), dev.peak_unit)
    return per_unit * per if per_unit and per else None


def _mfu_band(
    model: str, pc: str, groups: dict[Key, list[Point]], flops: dict[str, float], kind: str | None = None
) -> tuple[list[float], str]:
    """MFU (achieved ÷ peak) of the figures most like the target, the first tier with at least 2 figures:

    1. the model's own figures on other devices at this precision class — a FLOPs count that is off for the
       workload those sources ran (another sequence length, another width) is off by the same factor there
       and cancels; 2. figures of models of its kind; 3. figures of any model.
    Outside tier 1 an MFU over 100 % means the count does not describe that figure's workload: left out.
    """
    kind = kind or model_kind(model)
    own: list[float] = []
    same: list[float] = []
    every: list[float] = []
    for (m, d, c), group in groups.items():
        f, peak = flops.get(m) or train_flops_per_example(m), peak_per_device_tflops(d, c)
        mfu = middle(group).examples_per_sec * f / (peak * 1e12) if f and peak and usable_device(d) else None
        if mfu is not None and m == model and c == pc:
            own.append(mfu)
        elif mfu is not None and mfu <= 1:
            every.append(mfu)
            same.extend([mfu] if model_kind(m) == kind else [])
    if len(own) >= 2:
        return own, f"{model}'s own figures on {len(own)} other devices"
    return (same, f"{len(same)} figures of {kind} models") if len(same) >= 2 else (every, f"{len(every)} figures")


def _pct(mfu: float) -> str:
    return f"{mfu * 100:.0f} %" if mfu >= 0.1 else f"{mfu * 100:.2g} %"


def _by_roofline(
    model: str, target: str, pc: str, groups: dict[Key, list[Point]], flops: float | None, kind: str | None = None
) -> Estimate | None:
    f, peak = flops or train_flops_per_example(model), peak_per_device_tflops(target, pc)
    table = hardware_table.BY_KEY[target].peak_tflops
    mfus, seen_on = _mfu_band(model, pc, groups, {model: f} if f else {}, kind)
    if not f or not peak or not mfus:
        return None
    per_mfu = peak * 1e12 / f
    mid, lo, hi = statistics.median(mfus), min(mfus), max(mfus)
    what = "half-precision" if pc == "mixed" else next(k for k in ("TF32", "float32", "bfloat16") if k.lower() in table)
    over = "; over 100 %: the sources ran another size of this model, which cancels" if hi > 1 else ""
    how = (
        f"Rough estimate: {f / 1e9:,.3g} GFLOP per training example on {_short(target, True)} ({peak:,.3g} "
        f"TFLOP/s {what} peak) at {_pct(lo)}–{_pct(hi)} of peak (median {_pct(mid)}), the band seen on {seen_on}{over}"
    )
    low, high = lo * per_mfu / (1 + RATIO_MARGIN), hi * per_mfu * (1 + RATIO_MARGIN)
    return Estimate(model, target, pc, mid * per_mfu, low, high, "roofline", True, None, (), how)


def estimate(
    model: str,
    hardware_key: str,
    precision: str,
    points: Sequence[Point],
    flops_per_example: float | None = None,
    kind: str | None = None,
) -> Estimate | None:
    """An estimate of `model`'s training examples/s on one `hardware_key` device at `precision` (a precision or
    its class), from the other points; None for an unknown device or when neither method has data. `kind`:
    a user model's, read from its layers (the zoo's is known by name; an unknown one counts as a convnet).

    Points of the target itself are left out: an estimate stands in for a figure, it never repeats one.
    """
    pc = precision if precision in CLASSES else precision_class(precision)
    if not usable_device(hardware_key):
        return None
    target = (model, hardware_key, pc)
    groups = group_points([p for p in points if (p.model, p.hardware_key, p.precision_class) != target])
    return _by_ratio(*target, groups, kind) or _by_roofline(*target, groups, flops_per_example, kind)
