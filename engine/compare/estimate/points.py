"""The evidence an estimate starts from: every measured or published training figure as ONE device's Point
(engine.compare.estimate.estimate reads them; its check engine.compare.estimate.estimate_check too)."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.plateau import plateau_devices
from engine.compare.facts.silicon import DEVICES, NONE
from engine.compare.facts.workload import EIGHT_BIT, model_kind
from engine.reference.normalize import is_missing

Key = tuple[str, str, str]  # (model, hardware_key, precision_class)


@dataclass(frozen=True)
class Point:
    """One measured or published training throughput of ONE device.

    Attributes:
      model: the model (workload) key; `bert_base@384` at a stated sequence length not the zoo's (shaped_model).
      hardware_key: the device; precision_class: "float32" or "mixed".
      examples_per_sec: per single device (workload.device_unit: a GPU, a K80 die, a v2-8 board, a TPU chip).
      basis: "measured" (AccelBench's own runs), "published", or "estimate" (a converted anchor, scale.converted).
      source_id: where the figure came from; label: how a person reads it.
      batch: the batch per device it ran at, where stated (the step model's per-step overhead needs it).
      kind: the model's kind (workload.model_kind; a point made of a rate takes the rate's, Rate.kind), read once
        when the point is made, so the estimate stage reads it instead of working it out per point.
      devices: how many devices the run it is a share of had (1: the device alone).
      tuned: a closed-division MLPerf Training figure (tuned_ceiling): a vendor-tuned stack's ceiling, not the
        device's speed under a plain framework's fit.
    """

    model: str
    hardware_key: str
    precision_class: str
    examples_per_sec: float
    basis: str
    source_id: str
    label: str
    batch: float | None = None
    kind: str = field(default="", compare=False)
    devices: float = field(default=1.0, compare=False)
    tuned: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", model_kind(self.model))


def point_of_rate(rate: lfl.Rate) -> Point | None:
    """A training rate as one device's Point; None for doubtful rows, one-sided bounds or an unknown count."""
    n_devices = rate.device_units
    # a one-sided bound is not a value to scale from, nor one to check an estimate against
    if rate.task != "training" or rate.doubtful or rate.bound in ("at most", "at least") or not n_devices:
        return None
    basis = rate.basis if rate.basis in ("measured", "estimate") else "published"
    per_device_batch = _batch(rate.settings.get("batch_size"), n_devices)
    return Point(
        rate.shaped, rate.hardware_key, rate.precision_class, rate.value / n_devices, basis, rate.source_id,
        rate.label, per_device_batch, rate.kind, n_devices, tuned_ceiling(rate),
    )  # fmt: skip


_CLOSED = re.compile(r"MLPerf Training v[\d.]+ closed division")


def tuned_ceiling(rate: lfl.Rate) -> bool:
    """A figure of an MLPerf Training closed-division submission: hand-tuned kernels, large batches, a vendor's own
    stack — the ceiling of what a device reaches, which its rows' notes say is not a plain framework's figure."""
    return bool(_CLOSED.search(str(rate.settings.get("source_title") or "")))


def points_of(rates: Sequence[lfl.Rate]) -> list[Point | None]:
    """point_of_rate of each rate, in one call."""
    return [point_of_rate(r) for r in rates]


def _batch(batch: object, n_devices: float) -> float | None:
    try:
        b = float(str(batch)) if not is_missing(batch) else 0.0
    except ValueError:
        return None
    return b / n_devices if b > 0 else None


def evidence_points(
    reference: Sequence[lfl.Rate], store: Sequence[lfl.Rate], anchors: Sequence[lfl.Rate] | None
) -> tuple[Groups, list[Point] | None]:
    """(the reference table's rates (engine.compare.evidence.rates.Evidence.reference) and the store's measured
    figures as points, less a pipeline-bound source's (without_pipeline_bound), grouped (group_points); the answer's
    anchors as points — None when there are none: any figure of the model may then be a start), in one pass."""
    points = reference_points(reference) + [p for p in (point_of_rate(r) for r in store) if p is not None]
    starts = [p for p in (point_of_rate(a) for a in anchors or ()) if p is not None]
    return group_points(without_pipeline_bound(points)), starts or None


def points_from_reference(ref: pd.DataFrame) -> list[Point]:
    """Every usable training figure of the reference table, per single device.

    AccelBench's own pack measures one workload on several backends on one machine; their spread is each
    backend's overhead, not the device (Keras-torch's eager dispatch runs ResNet-50 at a quarter of Keras-JAX's
    rate on an H100), so per (model, device, precision class, source) only the fastest backend's figure is kept.
    """
    rows = ref[ref["task"] == "training"].to_dict("records") if not ref.empty else []
    return reference_points([r for r in (lfl.rate_of_reference(x) for x in rows) if r is not None])


def reference_points(rates: Sequence[lfl.Rate]) -> list[Point]:
    """points_from_reference of rates already made (the answer's evidence stage made them once). An 8-bit training
    figure (fp8, int8: MLPerf's LLM rows) is no point: the step model's mixed class runs at 16-bit peaks, so such a
    figure enters only through a same-source ratio (scale.scaled) or a stack factor's pair (estimate.stack_factor)."""
    points = [p for p in (point_of_rate(r) for r in rates if r.precision not in EIGHT_BIT) if p is not None]
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
    """A device an estimate can name: a known GPU or TPU (facts.silicon: DeviceFacts.estimable)."""
    return DEVICES.get(key, NONE).estimable


@dataclass(frozen=True)
class Group:
    """The points of one (model, device, precision class), with what the estimate reads of them worked out once.

    Attributes:
      points: the figures, in the order they came.
      middle: the middle of its sources' figures (middle), one each, of its plain-framework sources where it has
        any (not Point.tuned); by_source: each source's middle figure of its runs on the fewest devices, by source_id.
      usable: the device is one an estimate can name (usable_device); kind: the model's kind.
    """

    points: tuple[Point, ...]
    middle: Point
    by_source: dict[str, Point]
    usable: bool
    kind: str


Groups = dict[Key, Group]


def group_points(points: Sequence[Point]) -> Groups:
    """The points grouped by (model, device, precision class), in the order each key first comes."""
    lists: dict[Key, list[Point]] = {}
    for p in points:
        lists.setdefault((p.model, p.hardware_key, p.precision_class), []).append(p)
    return {k: _group(g) for k, g in lists.items()}


def _group(g: list[Point]) -> Group:
    sources: dict[str, list[Point]] = {}
    for p in g:
        sources.setdefault(p.source_id, []).append(p)
    # a device's own speed is its figure run alone: one device's share of a multi-device run also carries the
    # gradients' all-reduce and the scaling loss, which the step model (one device's step) has no term for (Lambda's
    # tacotron2 on 8 H200s: 44k/s a device, alone 119k/s), so a source's figure is the middle of its runs on the
    # fewest devices; the group's middle is the middle of its sources' figures, one each, so a source that
    # published many rows (Lambda: 1, 2, 4, 8 GPUs, two drivers) does not decide it alone
    by_source = {s: middle(_fewest_devices(ps)) for s, ps in sources.items()}
    # the device's figure (what anchors an estimate and what checks one) is a plain framework's where a source gives
    # one: a tuned MLPerf ceiling among them moved an A100's middle 9 % (issue 42, BENCHMARKS sixth round); it
    # stands only where nothing else does (a TPU slice), and its same-source ratios count either way (by_source)
    plain = [p for p in by_source.values() if not p.tuned]
    return Group(tuple(g), middle(plain or list(by_source.values())), by_source, usable_device(g[0].hardware_key),
                 g[0].kind)  # fmt: skip


def _fewest_devices(group: Sequence[Point]) -> list[Point]:
    """The points of the runs on the fewest devices."""
    fewest = min(p.devices for p in group)
    return [p for p in group if p.devices == fewest]


def middle(group: Sequence[Point]) -> Point:
    """The group's middle figure (median_low: a real figure, not an average of two)."""
    mid = statistics.median_low(p.examples_per_sec for p in group)
    return next(p for p in group if p.examples_per_sec == mid)


def without_pipeline_bound(points: Sequence[Point]) -> list[Point]:
    """The points less the published figures of a pipeline-bound source (engine.compare.facts.plateau, the rule of
    the saturation flag: a plateau across devices far apart in compute and bandwidth timed the source's input
    pipeline, not the chip), the rule applied to these points alone: the evidence an estimate is given decides."""
    groups: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    for p in points:
        if p.basis == "published":
            groups.setdefault((p.source_id, p.model, p.precision_class), {}).setdefault(p.hardware_key, []).append(
                p.examples_per_sec
            )
    flat = plateau_devices(groups)
    return [p for p in points if p.hardware_key not in flat.get((p.source_id, p.model, p.precision_class), ())]
