"""Put numbers on a common footing: per chip/board/core, throughput ↔ time,
and a local run's result row in the reference schema so both can sit in one table or chart.

Pure pandas; no streamlit, no tensorflow.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

import pandas as pd

from engine.catalog.backends import FRAMEWORK_OF
from engine.reference.units import HARDWARE, METRICS, hardware_key_for_device, units_between


@dataclass(frozen=True)
class PerUnit:
    """A value re-expressed for a different counting unit.

    Attributes:
      value: the converted value.
      unit: its unit label, e.g. "images/s per chip" or "chip·s".
      units_counted: how many target units the original figure covered (4.0 for a v2-8 board → chips).
      note: how it was derived, for a tooltip or caveat.
    """

    value: float
    unit: str
    units_counted: float
    note: str


_T = TypeVar("_T")


def is_missing(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)) or v == ""


def is_present(v: _T | None) -> TypeGuard[_T]:
    """`not is_missing(v)`, telling the type checker that `v` is not None past the check."""
    return not is_missing(v)


def per_unit(
    value: float, metric: str, hardware_key: str, hardware_count: Any, count_unit: str, target_unit: str
) -> PerUnit | None:
    """`value` re-expressed per `target_unit` (chip, core, board, die, gpu), or None when impossible.

    Throughput, peaks, memory, power and price split evenly across units (a linear share, which is
    what "per chip" means in vendor tables). Times become device-time (chip·s): the same job on
    4 chips for 10 s used 40 chip·s. Ratios, accuracy and step times do not change.
    """
    info = METRICS[metric]
    if info.kind == "intensive":
        return PerUnit(float(value), info.unit, 1.0, "unchanged: does not scale with device count")
    if is_missing(hardware_count):
        return None
    per = units_between(hardware_key, count_unit, target_unit)
    if per is None:
        return None
    n = float(hardware_count) * per
    where = f"{hardware_count} {count_unit} = {n:g} {target_unit}"
    if info.kind == "time":
        return PerUnit(float(value) * n, f"{target_unit}·{info.unit}", n, f"device time: {where}")
    return PerUnit(float(value) / n, f"{info.unit} per {target_unit}", n, f"linear share: {where}")


def add_per_unit(df: pd.DataFrame, target_unit: str) -> pd.DataFrame:
    """A copy of reference-like rows with `value_per_unit`, `unit_per_unit`, `per_unit_note` added
    (NaN/blank where the hardware's units cannot be converted, e.g. CPU nodes → chips)."""
    out = df.copy()
    vals, units, notes = [], [], []
    for row in out.itertuples(index=False):
        r = per_unit(row.value, row.metric, row.hardware_key, row.hardware_count, row.count_unit, target_unit)
        vals.append(r.value if r else math.nan)
        units.append(r.unit if r else "")
        notes.append(r.note if r else f"cannot express {row.count_unit} as {target_unit}")
    out["value_per_unit"], out["unit_per_unit"], out["per_unit_note"] = vals, units, notes
    return out


# --- throughput ↔ time ---


def global_batch(row: Mapping[str, Any]) -> int | None:
    """The global batch of a reference-like row, or None when it cannot be established."""
    b, scope = row.get("batch_size"), row.get("batch_scope")
    if not is_present(b):
        return None
    if scope == "per_replica":
        n, unit, key = row.get("hardware_count"), row.get("count_unit", ""), row.get("hardware_key", "")
        replica_unit = "core" if HARDWARE.get(key) and HARDWARE[key].device_type == "tpu" else unit
        if not is_present(n):
            return None
        per = units_between(key, unit, replica_unit)
        return int(b) * int(float(n) * per) if per else None
    if scope == "unknown":
        return None
    return int(b)


# --- a local result row (design §3) in the reference schema ---

_NATIVE_DATASET = {"imagenet_shape": "imagenet"}


def _local_dataset_key(kind: str, model: str, dataset: str) -> str:
    """The reference schema's dataset key of a local run: its model's native dataset for synthetic data."""
    from engine.catalog import catalog  # light module: facts only, no TensorFlow

    if kind != "train" or model not in catalog.MODELS:
        return "synthetic"
    native = catalog.resolve_dataset(model, dataset).name if dataset in (*catalog.DATASETS, "synthetic") else dataset
    return _NATIVE_DATASET.get(native, native)


def _local_count(device: str, key: str, replicas: int) -> tuple[int, str]:
    if device == "tpu":
        return replicas, "core"
    if device == "gpu":
        return replicas, ("die" if key == "k80" else "gpu")
    return 1, "host"  # logical CPU devices split one host; they are not more hardware


def _flops_per_example(result: Mapping[str, Any]) -> float | None:
    gflops, eps = result.get("gflops"), result.get("examples_per_sec")
    if is_present(gflops) and is_present(eps) and float(eps) > 0 and float(gflops) > 0:
        return float(gflops) * 1e9 / float(eps)
    return None


def local_settings(result: Mapping[str, Any]) -> dict[str, Any]:
    """A local result row's settings in the reference schema (hardware key and count, model, batch, …)."""
    kind = result.get("kind") or "train"
    device = (result.get("device") or "cpu").lower()
    name = result.get("device_name") or ""
    key = hardware_key_for_device(device, name)
    model = kind if kind in ("matmul", "conv2d") else (result.get("model") or "")
    dataset = result.get("dataset") or ""
    dataset_key = _local_dataset_key(kind, model, dataset)
    count, unit = _local_count(device, key, int(result.get("replicas") or 1))
    run_id = str(result.get("run_id") or "local")
    label = name or device.upper()
    return {
        "ref_id": f"run:{run_id}",
        "source_id": "LOCAL",
        "source_title": f"Local run {run_id}",
        "source_url": "",
        "source_kind": "local",
        "origin": "local",
        "hardware": f"{label} (this run)" if run_id == "local" else f"{label} (run {run_id[-8:]})",
        "hardware_label": label,
        "hardware_key": key,
        "device_type": device,
        "hardware_count": count,
        "count_unit": unit,
        "baseline_key": "",
        "framework": FRAMEWORK_OF.get(str(result.get("backend") or "tensorflow"), str(result.get("backend"))),
        "framework_version": str(result.get("tf_version") or result.get("framework_version") or ""),
        "task": "micro" if kind in ("matmul", "conv2d") else "training",
        "model": model,
        "model_label": model,
        "params": result.get("params"),
        "dataset": dataset_key,
        "dataset_label": dataset,
        "data_kind": "synthetic" if kind != "train" or dataset == "synthetic" else "real",
        "target": "",
        "batch_size": result.get("global_batch_size"),
        "batch_scope": "global",
        "epochs": result.get("epochs"),
        "steps_per_epoch": result.get("steps_per_epoch"),
        "shape": result.get("shape") or "",
        "precision": (result.get("dtype") if kind != "train" else result.get("precision")) or "float32",
        "xla": bool(result.get("xla")),
        # the run's own count (layer count or the framework's): what an estimate of a model no table knows needs
        "flops_per_example": _flops_per_example(result) if kind == "train" else None,
        "model_kind": result.get("model_kind") if is_present(result.get("model_kind")) else None,
        "value_kind": "exact",
        "doubtful": False,
        "doubt_reason": "",
        "notes": "",
    }


def local_result_rows(result: Mapping[str, Any]) -> pd.DataFrame:
    """A local result row (design §3 columns) as reference-schema rows, one per measured metric.

    Training: examples_per_s, train_time_s (total_s), first_epoch_s, epoch_time_s (steady epochs),
    step_time_ms. Microbenchmarks: op_time_s (the median repetition) and step_time_ms.
    """
    base = local_settings(result)

    def num(key: str) -> float | None:
        v = result.get(key)
        return float(v) if is_present(v) and float(v) > 0 else None

    metrics: list[tuple[str, float | None, str]] = []
    if base["task"] == "micro":
        ms = num("step_time_ms_median")
        metrics.append(("op_time_s", ms / 1000 if ms else None, "median repetition"))
    else:
        metrics.append(("examples_per_s", num("examples_per_sec"), "steady state, after warm-up"))
        metrics.append(("train_time_s", num("total_s"), "whole run incl. compile and first epoch"))
        metrics.append(("first_epoch_s", num("first_epoch_s"), "includes tracing/compile"))
        epochs, total, first = result.get("epochs"), num("total_s"), num("first_epoch_s")
        if total and first and is_present(epochs) and int(epochs) > 1 and total > first:
            metrics.append(("epoch_time_s", (total - first) / (int(epochs) - 1), "mean of epochs after the first"))
    metrics.append(("step_time_ms", num("step_time_ms_median"), "median step"))
    rows = [
        base
        | {
            "metric": m,
            "value": v,
            "unit": METRICS[m].unit,
            "higher_is_better": METRICS[m].higher_is_better,
            "notes": note,
        }
        for m, v, note in metrics
        if v is not None
    ]
    return pd.DataFrame(rows)
