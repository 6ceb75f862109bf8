"""Put numbers on a common footing: per chip/board/core, throughput ↔ time, peaks by precision,
and a local run's result row in the reference schema so both can sit in one table or chart.

Pure pandas; no streamlit, no tensorflow.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

import pandas as pd

from engine.reference.units import HARDWARE, METRICS, hardware_key_for_device, same_family, units_between


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


def describe_count(hardware_key: str, hardware_count: Any, count_unit: str) -> str:
    """'1 board (4 chips, 8 cores)' / '1 die (half a K80 board)' / '8 gpu'."""
    if is_missing(hardware_count):
        return count_unit
    text = f"{hardware_count} {count_unit}"
    extra = []
    for unit in ("chip", "core"):
        if unit != count_unit and HARDWARE.get(hardware_key) and unit in HARDWARE[hardware_key].unit_sizes:
            per = units_between(hardware_key, count_unit, unit)
            if per is not None and count_unit in ("board", "pod", "chip"):
                extra.append(f"{float(hardware_count) * per:g} {unit}s")
    if hardware_key == "k80" and count_unit == "die":
        extra.append("half a K80 board each" if int(hardware_count) > 1 else "half a K80 board")
    return f"{text} ({', '.join(extra)})" if extra else text


# --- throughput ↔ time ---


def examples_per_s_from_time(total_s: float, epochs: int, steps_per_epoch: int, batch_size: int) -> float:
    """Average examples/s over a run of `epochs` × `steps_per_epoch` steps of `batch_size` (global)."""
    if total_s <= 0:
        raise ValueError("total_s must be positive")
    return epochs * steps_per_epoch * batch_size / total_s


def epoch_time_s_from_throughput(examples_per_s: float, steps_per_epoch: int, batch_size: int) -> float:
    """Seconds one epoch of `steps_per_epoch` steps of `batch_size` takes at `examples_per_s`."""
    if examples_per_s <= 0:
        raise ValueError("examples_per_s must be positive")
    return steps_per_epoch * batch_size / examples_per_s


def train_time_s_from_throughput(examples_per_s: float, epochs: int, steps_per_epoch: int, batch_size: int) -> float:
    """Seconds for the whole run at a steady `examples_per_s` (no compile time included)."""
    return epochs * epoch_time_s_from_throughput(examples_per_s, steps_per_epoch, batch_size)


def reference_throughput(row: Mapping[str, Any]) -> float | None:
    """Average examples/s of a reference `train_time_s` row whose epochs, steps and global batch are
    all known (e.g. article 001's TPU rows at batch 128: 23 steps/epoch), else None."""
    if row.get("metric") != "train_time_s" or row.get("target"):
        return None
    epochs, steps, batch = row.get("epochs"), row.get("steps_per_epoch"), row.get("batch_size")
    if not (is_present(epochs) and is_present(steps) and is_present(batch)):
        return None
    return examples_per_s_from_time(float(row["value"]), int(epochs), int(steps), int(batch))


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


# --- peak compute by precision ---

# Which datasheet peak a run's precision is bounded by. float32 on Ampere/Hopper may run as TF32
# (TensorFlow enables TF32 for float32 matmuls/convs on those GPUs by default), stated as a caveat.
_PEAK_FOR = {
    "float32": ("float32",),
    "tf32": ("tf32",),
    "mixed_float16": ("float16", "bf16_fp16"),
    "float16": ("float16", "bf16_fp16"),
    "mixed_bfloat16": ("bfloat16", "bf16_fp16"),
    "bfloat16": ("bfloat16", "bf16_fp16"),
    "int8": ("int8",),
}


@dataclass(frozen=True)
class PeakLookup:
    """A datasheet peak for one device.

    Attributes:
      tflops: peak TFLOP/s per `per_unit`.
      per_unit: chip, gpu, die, board...
      precision: the precision the peak is quoted for.
      ref_id: the reference row it came from.
      caveats: why it may not be the right ceiling.
    """

    tflops: float
    per_unit: str
    precision: str
    ref_id: str
    caveats: tuple[str, ...]


def peak_tflops(ref: pd.DataFrame, hardware_key: str, precision: str, per: str = "chip") -> PeakLookup | None:
    """The datasheet peak TFLOP/s of `hardware_key` for a run in `precision`, per `per` unit.

    Prefers an exact precision match from a non-doubtful row; falls back to a peak whose precision
    the source did not state (TPU v2's 45 TFLOPS), with a caveat. None when nothing fits.
    """
    rows = ref[(ref["metric"] == "peak_tflops") & ref["hardware_key"].isin(same_family(hardware_key))]
    wanted = _PEAK_FOR.get(precision, (precision,))
    for pool, caveat in (
        (rows[rows["precision"].isin(wanted) & ~rows["doubtful"]], ""),
        (rows[rows["precision"].isin(wanted)], "the only matching peak is flagged doubtful"),
        (
            rows[rows["precision"] == "unknown"],
            f"the source does not say which precision this peak is for ({precision} asked)",
        ),
    ):
        for row in pool.to_dict("records"):
            conv = per_unit(
                row["value"], "peak_tflops", row["hardware_key"], row["hardware_count"], row["count_unit"], per
            )
            if conv is None:
                continue
            caveats = [c for c in (caveat, row["doubt_reason"]) if c]
            if precision == "float32" and hardware_key in ("a100", "h100"):
                caveats.append(
                    "TensorFlow runs float32 matmuls as TF32 on this GPU by default; the TF32 peak is higher"
                )
            return PeakLookup(conv.value, per, row["precision"], row["ref_id"], tuple(caveats))
    return None


# --- a local result row (design §3) in the reference schema ---

_NATIVE_DATASET = {"imagenet_shape": "imagenet"}


def _local_base(result: Mapping[str, Any]) -> dict[str, Any]:
    from engine.spec import catalog  # light module: facts only, no TensorFlow

    kind = result.get("kind") or "train"
    device = (result.get("device") or "cpu").lower()
    name = result.get("device_name") or ""
    key = hardware_key_for_device(device, name)
    replicas = int(result.get("replicas") or 1)
    model = kind if kind in ("matmul", "conv2d") else (result.get("model") or "")
    dataset = result.get("dataset") or ""
    if kind == "train" and model in catalog.MODELS:
        native = (
            catalog.resolve_dataset(model, dataset).name if dataset in (*catalog.DATASETS, "synthetic") else dataset
        )
        dataset_key = _NATIVE_DATASET.get(native, native)
    else:
        dataset_key = "synthetic"
    if device == "tpu":
        count, unit = replicas, "core"
    elif device == "gpu":
        count, unit = replicas, ("die" if key == "k80" else "gpu")
    else:
        count, unit = 1, "host"  # logical CPU devices split one host; they are not more hardware
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
        "framework": "tensorflow",
        "framework_version": str(result.get("tf_version") or ""),
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
    base = _local_base(result)

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
