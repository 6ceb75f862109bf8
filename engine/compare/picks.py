"""What Compare shows by default for a run: one row per device kind for the run's own workload — measured by
AccelBench where it exists, else published, else estimated (engine.compare.estimate) — nearest precision
first. The page's default view, `engine compare --reference auto` and the Run card all take these rows, so
they give the same sentence for the same run.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import pandas as pd

from engine.compare import likeforlike as lfl
from engine.compare.estimate import Estimate, estimate, points_from_reference
from engine.compare.single import one_device
from engine.compare.step_floor import capped, step_floor
from engine.compare.workload import not_comparable, precision_class
from engine.reference.units import HARDWARE, units_between

# Devices a user can rent today (each has a price): where none of these has a row for the workload, an
# estimate stands in, labelled as one.
ESTIMATE_DEVICES = ("t4", "l4", "a10g", "v100", "a100", "h100", "h200", "b200", "tpu_v5e", "tpu_v6e")
BASIS_RANK = {"measured": 0, "published": 1, "estimate": 2}


def _rank(r: lfl.Rate, mine: str, framework: str) -> tuple[int, bool, bool, bool, bool]:
    one = one_device(r)
    scaled = one is None or one is not r
    other_fw = r.basis == "measured" and r.settings.get("framework") != framework
    return BASIS_RANK.get(r.basis, 9), precision_class(r.precision) != mine, other_fw, r.doubtful, scaled


def _pick(group: Sequence[lfl.Rate], mine: str, framework: str) -> lfl.Rate:
    """The best-evidenced row of one device kind; among equally good published rows the median one (not the
    fastest). AccelBench's own rows on the run's backend come first; failing that, the fastest backend: the pack
    ran every backend on one machine, so their spread is each backend's overhead (named in the label and the
    grade), not the scatter between sources that the median guards against."""
    best = min(_rank(r, mine, framework) for r in group)
    tied = [r for r in group if _rank(r, mine, framework) == best]
    one = {r.id: (one_device(r) or r).value for r in tied}
    pick = max(one.values()) if best[0] == BASIS_RANK["measured"] else statistics.median_low(sorted(one.values()))
    return next(r for r in tied if one[r.id] == pick)


def _accelerator(key: str) -> bool:
    dev = HARDWARE.get(key)
    return dev is not None and dev.device_type in ("gpu", "tpu") and not key.endswith("_unknown")


def _same_model(base: lfl.Rate, ref: pd.DataFrame | None) -> list[lfl.Rate]:
    if ref is None or ref.empty:
        return []
    rows = ref[(ref["model"] == base.workload) & (ref["task"] == base.task)]
    return [r for r in (lfl.rate_of_reference(x) for x in rows.to_dict("records")) if r is not None]


def reference_rates(base: lfl.Rate, ref: pd.DataFrame | None) -> list[lfl.Rate]:
    """Every reference row of the run's workload (the one rule) that yields a rate."""
    return [r for r in _same_model(base, ref) if not_comparable(base.settings, r.settings, r.derivation) is None]


def other_shapes(base: lfl.Rate, ref: pd.DataFrame | None) -> list[lfl.Rate]:
    """Reference rows of the same model or operation at another input shape: listed apart, never in a ratio."""
    return [r for r in _same_model(base, ref) if not_comparable(base.settings, r.settings, r.derivation)]


def default_rows(
    base: lfl.Rate, ref: pd.DataFrame | None, device: str | None = None, estimates: bool = True
) -> list[lfl.Rate]:
    """One row per accelerator kind for `base`'s workload (or only `device`), best evidence first; estimates
    for the rentable devices with no row (training only: an estimate needs examples/s to scale)."""
    mine, framework = precision_class(base.precision), str(base.settings.get("framework") or "")
    groups: dict[str, list[lfl.Rate]] = {}
    for r in reference_rates(base, ref):
        if _accelerator(r.hardware_key) and (device is None or r.hardware_key == device):
            groups.setdefault(r.hardware_key, []).append(r)
    out = [_pick(g, mine, framework) for g in groups.values()]
    if estimates and base.task == "training":
        wanted = [device] if device else [k for k in ESTIMATE_DEVICES if k not in groups]
        out += estimated_rows(base, ref, [k for k in wanted if k not in groups])
    return out


def estimated_rows(base: lfl.Rate, ref: pd.DataFrame | None, keys: Sequence[str]) -> list[lfl.Rate]:
    """An estimate per device key, as a rate marked basis "estimate" with its range (engine.compare.estimate)."""
    if not keys or ref is None:
        return []

    points, floor = points_from_reference(ref), step_floor(ref)
    out = []
    for key in keys:
        kind = base.settings.get("model_kind") or None  # a user model's, from its layers
        e = estimate(base.workload, key, base.precision, points, flops_per_example=_flops(base), kind=kind)
        if e is not None:
            out.append(_as_rate(base, capped(e, base.settings.get("batch_size"), floor)))
    return out


def _flops(base: lfl.Rate) -> float | None:
    v = base.settings.get("flops_per_example")
    return float(v) if v else None


def _as_rate(base: lfl.Rate, e: Estimate) -> lfl.Rate:
    dev = HARDWARE.get(e.hardware_key)
    name = dev.short if dev else e.hardware_key
    precision = base.precision if precision_class(base.precision) == e.precision_class else "mixed_bfloat16"
    unit = "chip" if dev is not None and dev.device_type == "tpu" else "gpu"
    base_unit = "core" if unit == "chip" else "die"  # likeforlike counts TPU cores and GPU dies
    device_type = dev.device_type if dev else "gpu"
    settings = {
        "hardware_key": e.hardware_key, "hardware": name, "device_type": device_type,
        "hardware_count": 1, "count_unit": unit, "task": "training", "model": base.workload,
        "dataset": base.settings.get("dataset"), "precision": precision, "rough": e.rough, "source_kind": "estimate",
    }  # fmt: skip
    words = "estimate, rough" if e.rough else "estimate"
    return lfl.Rate(
        id=f"estimate:{e.hardware_key}:{base.workload}:{e.precision_class}", label=f"{name} ({words}, "
        f"{lfl.precision_text(precision)})", origin="estimate", task="training", workload=base.workload,
        value=e.examples_per_sec, unit="examples/s", devices=units_between(e.hardware_key, unit, base_unit),
        derivation="estimate", how=e.how, bound="at most" if e.capped else "about",
        hardware_key=e.hardware_key, device_type=device_type, source_id="ESTIMATE", settings=settings,
        basis="estimate", low=e.low, high=e.high,
    )  # fmt: skip
