"""Vocabularies shared by the reference data and the analysis: metrics, units, hardware units.

Pure Python (no pandas needed). Every metric has one canonical unit and a direction, so a speedup
is always "how many times better" whatever the metric measures.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class MetricInfo:
    """What a metric measures.

    Attributes:
      label: axis/legend text without the unit.
      unit: canonical unit; values in the curated CSV are in this unit (or one of `alt_units`).
      higher_is_better: False for times, prices, power.
      kind: how the value scales with the number of devices —
        "rate" (throughput: splits across devices), "time" (wall clock: device-seconds when
        normalised), "capacity" (peak, memory, power, price: splits across devices),
        "intensive" (ratios, accuracy, step time: unchanged).
      alt_units: other units accepted for this metric (converted for charts).
    """

    label: str
    unit: str
    higher_is_better: bool
    kind: str
    alt_units: tuple[str, ...] = ()


METRICS: dict[str, MetricInfo] = {
    "train_time_s": MetricInfo("Training time", "s", False, "time"),
    "op_time_s": MetricInfo("Op time", "s", False, "time"),
    "epoch_time_s": MetricInfo("Time per epoch", "s", False, "time"),
    "first_epoch_s": MetricInfo("First epoch (incl. compile)", "s", False, "time"),
    "step_time_ms": MetricInfo("Step time", "ms", False, "intensive"),
    "images_per_s": MetricInfo("Throughput", "images/s", True, "rate"),
    "examples_per_s": MetricInfo("Throughput", "examples/s", True, "rate"),
    "speedup_vs": MetricInfo("Speedup (stated)", "x", True, "intensive"),
    "perf_per_watt_ratio": MetricInfo("Perf/W ratio", "x", True, "intensive"),
    "power_ratio": MetricInfo("Power saving ratio", "x", True, "intensive"),
    "peak_tflops": MetricInfo("Peak compute", "TFLOPS", True, "capacity"),
    "peak_tflops_fp64": MetricInfo("Peak FP64 compute", "TFLOPS", True, "capacity"),
    "peak_tops": MetricInfo("Peak integer ops", "TOPS", True, "capacity"),
    "memory_gb": MetricInfo("Memory", "GB", True, "capacity", ("GiB",)),
    "mem_bw_gbs": MetricInfo("Memory bandwidth", "GB/s", True, "capacity"),
    "onchip_memory_mib": MetricInfo("On-chip memory", "MiB", True, "capacity"),
    "tdp_w": MetricInfo("TDP", "W", False, "capacity"),
    "power_measured_w": MetricInfo("Measured power", "W", False, "capacity"),
    "price_usd_per_h": MetricInfo("Price", "USD/h", False, "capacity"),
    "cost_to_accuracy_usd": MetricInfo("Cost to accuracy", "USD", False, "intensive"),
    "top1_accuracy": MetricInfo("Top-1 accuracy", "%", True, "intensive"),
    "images_per_s_per_usd": MetricInfo("Throughput per price", "images/s per USD/h", True, "intensive"),
}

# Throughput metrics are interchangeable when comparing a local run (examples/s) with a paper (images/s).
THROUGHPUT_METRICS = ("images_per_s", "examples_per_s")
TIME_METRICS = tuple(m for m, i in METRICS.items() if i.kind == "time")
# Tasks in which a TPU figure implies XLA (TPU v2+ training programs are compiled by XLA).
TPU_ALWAYS_XLA_TASKS = ("training", "micro")

DEVICE_TYPES = ("cpu", "gpu", "tpu")
SOURCE_KINDS = ("seed", "paper", "vendor", "blog", "benchmark-suite", "local")
TASKS = ("training", "inference", "micro", "spec", "price")
DATA_KINDS = ("real", "synthetic", "unknown", "")
VALUE_KINDS = ("exact", "approx", "lower_bound", "upper_bound", "derived")
BATCH_SCOPES = ("global", "per_replica", "unknown", "")
COUNT_UNITS = ("chip", "board", "core", "die", "gpu", "pod", "node", "socket", "host", "system")
# Training policies (what a run used) and arithmetic types (what a peak is quoted for).
PRECISIONS = (
    "float32",
    "tf32",
    "mixed_float16",
    "mixed_bfloat16",
    "float16",
    "bfloat16",
    "bf16_fp16",  # a datasheet peak that holds for both fp16 and bf16
    "int8",
    "fp8",
    "float64",
    "unknown",
    "",  # not applicable (memory, power, prices)
)

# Unit conversions to a base unit per dimension.
_UNIT_SCALE: dict[str, tuple[str, float]] = {
    "ms": ("time", 1e-3),
    "s": ("time", 1.0),
    "min": ("time", 60.0),
    "h": ("time", 3600.0),
    "MiB": ("bytes", 2.0**20),
    "GiB": ("bytes", 2.0**30),
    "MB": ("bytes", 1e6),
    "GB": ("bytes", 1e9),
    "TB": ("bytes", 1e12),
    "GFLOPS": ("flops", 1e9),
    "TFLOPS": ("flops", 1e12),
    "PFLOPS": ("flops", 1e15),
    "W": ("power", 1.0),
    "kW": ("power", 1e3),
}


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """`value` in `from_unit` expressed in `to_unit` (s↔ms↔min↔h, MiB↔GiB↔GB, GFLOPS↔TFLOPS, W↔kW).

    Raises:
      ValueError: the units measure different things or are unknown.
    """
    if from_unit == to_unit:
        return float(value)
    a, b = _UNIT_SCALE.get(from_unit), _UNIT_SCALE.get(to_unit)
    if a is None or b is None or a[0] != b[0]:
        raise ValueError(f"cannot convert {from_unit!r} to {to_unit!r}")
    return float(value) * a[1] / b[1]


def to_canonical(metric: str, value: float, unit: str) -> float:
    """`value` in the metric's canonical unit (e.g. memory in GiB → GB)."""
    return convert(value, unit, METRICS[metric].unit)


def axis_title(metric: str) -> str:
    """'Throughput (images/s)' — the label with the canonical unit, for chart axes."""
    info = METRICS[metric]
    return f"{info.label} ({info.unit})"


def speedup(value: float, baseline: float, higher_is_better: bool) -> float:
    """How many times better `value` is than `baseline` (>1 = better), whatever the metric's direction.

    For a time (lower is better) that is baseline/value; for a throughput value/baseline.
    """
    if not (value > 0 and baseline > 0) or math.isinf(value) or math.isinf(baseline):
        raise ValueError(f"speedup needs two positive finite numbers, got {value!r} and {baseline!r}")
    return value / baseline if higher_is_better else baseline / value


def geometric_mean(values: list[float]) -> float:
    """The geometric mean — the right average for ratios (0.5× and 2× cancel out)."""
    if not values or any(v <= 0 for v in values):
        raise ValueError("geometric mean needs at least one positive value")
    return math.exp(sum(math.log(v) for v in values) / len(values))


@dataclass(frozen=True)
class HardwareFamily:
    """How one hardware key counts its units.

    Attributes:
      key: the normalised key used in the reference CSV (`hardware_key`).
      device_type: cpu, gpu or tpu.
      short: short display name.
      unit_sizes: how many base units (TPU cores, GPU dies) one of each unit holds — a Cloud TPU
        v2-8 "board" is 4 chips and 8 cores; a K80 board is 2 GK210 dies, and a Colab/GCE "GPU"
        is one die. Units absent here cannot be converted (CPU nodes vs sockets vary by system).
    """

    key: str
    device_type: str
    short: str
    unit_sizes: Mapping[str, float]


_TPU_V2 = {"core": 1, "chip": 2, "board": 8, "pod": 512}  # a v2 Pod: 256 chips
_TPU_V3 = {"core": 1, "chip": 2, "board": 8, "pod": 2048}  # a v3 Pod: 1024 chips
_TPU_V4 = {"core": 1, "chip": 2, "board": 8, "pod": 8192}  # a v4 Pod: 4096 chips (megacore: 2 cores/chip)
_ONE_GPU = {"gpu": 1, "die": 1, "chip": 1, "board": 1}

HARDWARE: dict[str, HardwareFamily] = {
    h.key: h
    for h in (
        HardwareFamily("cpu", "cpu", "CPU", {"host": 1}),
        HardwareFamily("colab_tpu_runtime_host_cpu", "cpu", "Colab 'TPU' runtime (host CPU)", {"host": 1}),
        HardwareFamily("tpu_v1", "tpu", "TPU v1", {"chip": 1}),
        HardwareFamily("tpu_v2", "tpu", "TPU v2", _TPU_V2),
        HardwareFamily("tpu_v2_8", "tpu", "TPU v2-8", _TPU_V2),
        HardwareFamily("tpu_v3", "tpu", "TPU v3", _TPU_V3),
        HardwareFamily("tpu_v3_8", "tpu", "TPU v3-8", _TPU_V3),
        HardwareFamily("tpu_v4", "tpu", "TPU v4", _TPU_V4),
        HardwareFamily("tpu_v4i", "tpu", "TPU v4i", {"chip": 1}),
        HardwareFamily("tpu_v5e", "tpu", "TPU v5e", {"core": 1, "chip": 1}),
        HardwareFamily("tpu_v5p", "tpu", "TPU v5p", {"core": 1, "chip": 2}),
        HardwareFamily("tpu_unknown", "tpu", "TPU (version not stated)", {"pod": 1}),
        HardwareFamily("k80", "gpu", "K80", {"die": 1, "gpu": 1, "board": 2}),
        HardwareFamily("p100", "gpu", "P100", _ONE_GPU),
        HardwareFamily("v100", "gpu", "V100", _ONE_GPU),
        HardwareFamily("t4", "gpu", "T4", _ONE_GPU),
        HardwareFamily("a100", "gpu", "A100", _ONE_GPU),
        HardwareFamily("h100", "gpu", "H100", _ONE_GPU),
        HardwareFamily("gpu_unknown", "gpu", "GPU (model not stated)", _ONE_GPU),
    )
}


# Board-level keys share their chip family's peaks and specs (a v2-8 board is 4 TPU v2 chips).
_FAMILY = {"tpu_v2_8": "tpu_v2", "tpu_v3_8": "tpu_v3"}


def family_of(hardware_key: str) -> str:
    """The chip family of a key: 'tpu_v2_8' → 'tpu_v2'; other keys are their own family."""
    return _FAMILY.get(hardware_key, hardware_key)


def same_family(hardware_key: str) -> set[str]:
    """Every key of the same chip family ({'tpu_v2', 'tpu_v2_8'} for either)."""
    fam = family_of(hardware_key)
    return {k for k in HARDWARE if family_of(k) == fam} or {hardware_key}


def units_between(hardware_key: str, from_unit: str, to_unit: str) -> float | None:
    """How many `to_unit`s one `from_unit` holds for this hardware (4.0 for a v2-8 board → chips).

    None when the relation is unknown (e.g. CPU nodes vs sockets, or an unknown key).
    """
    fam = HARDWARE.get(hardware_key)
    if fam is None:
        return 1.0 if from_unit == to_unit else None
    a, b = fam.unit_sizes.get(from_unit), fam.unit_sizes.get(to_unit)
    if from_unit == to_unit:
        return 1.0
    if a is None or b is None:
        return None
    return a / b


# Substrings of device names (as TF/NVML report them) → hardware key; first match wins.
_DEVICE_NAME_KEYS = (
    ("k80", "k80"),
    ("p100", "p100"),
    ("v100", "v100"),
    ("t4", "t4"),
    ("a100", "a100"),
    ("h100", "h100"),
    ("tpu v2", "tpu_v2"),
    ("tpu v3", "tpu_v3"),
    ("tpu v4", "tpu_v4"),
    ("tpu v5 lite", "tpu_v5e"),
    ("tpu v5e", "tpu_v5e"),
    ("tpu v5p", "tpu_v5p"),
)


def hardware_key_for_device(device: str, device_name: str = "") -> str:
    """The reference `hardware_key` for a local run's device ("gpu", "Tesla T4" → "t4").

    An unrecognised GPU gives "gpu_unknown", an unrecognised TPU "tpu_unknown", a CPU "cpu".
    """
    low = (device_name or "").lower()
    for needle, key in _DEVICE_NAME_KEYS:
        if needle in low and HARDWARE[key].device_type == device:
            return key
    return {"gpu": "gpu_unknown", "tpu": "tpu_unknown"}.get(device, "cpu")
