"""Vocabularies shared by the reference data and the analysis: units, conversions, hardware units.

Pure Python (no pandas needed). The metrics come from the one registry (engine.reference.metrics),
the hardware from the one table (engine.catalog.hardware_table); both are re-exported here for the
reference loader. A speedup is always "how many times better", whatever the metric measures.
"""

from __future__ import annotations

import math

from engine.catalog.hardware_table import BY_KEY, key_for_name
from engine.reference.metrics import METRICS

# Throughput metrics are interchangeable when comparing a local run (examples/s) with a paper (images/s).
THROUGHPUT_METRICS = ("images_per_s", "examples_per_s")
TIME_METRICS = tuple(m for m, i in METRICS.items() if i.kind == "time")
# Tasks in which a TPU figure implies XLA (TPU v2+ training programs are compiled by XLA).
TPU_ALWAYS_XLA_TASKS = ("training", "micro")

DEVICE_TYPES = ("cpu", "gpu", "tpu")
SOURCE_KINDS = ("seed", "paper", "vendor", "blog", "benchmark-suite", "accelbench", "local")
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


HARDWARE = BY_KEY  # the one hardware table (engine.catalog.hardware_table)


def short_name(hardware_key: str, article: bool = False) -> str:
    """The device's short name ('H100', 'TPU v4'), or its key where the table does not know it; with its article
    ('an H100', 'a TPU v4') for a sentence."""
    name = HARDWARE[hardware_key].short if hardware_key in HARDWARE else hardware_key
    return (f"an {name}" if name[:1] in "AEHILMNORSX" else f"a {name}") if article else name


# Board-level keys share their chip family's peaks and specs (a v2-8 board is 4 TPU v2 chips).
_FAMILY = {"tpu_v2_8": "tpu_v2", "tpu_v3_8": "tpu_v3"}


def chip_family(hardware_key: str) -> str:
    """The chip family of a key: 'tpu_v2_8' → 'tpu_v2'; other keys are their own family."""
    return _FAMILY.get(hardware_key, hardware_key)


def same_family(hardware_key: str) -> set[str]:
    """Every key of the same chip family ({'tpu_v2', 'tpu_v2_8'} for either)."""
    fam = chip_family(hardware_key)
    return {k for k in HARDWARE if chip_family(k) == fam} or {hardware_key}


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


def hardware_key_for_device(device: str, device_name: str = "") -> str:
    """The reference `hardware_key` for a local run's device ("gpu", "Tesla T4" → "t4").

    An unrecognised GPU gives "gpu_unknown", an unrecognised TPU "tpu_unknown", a CPU "cpu".
    """
    key = key_for_name(device_name, device) if device in ("gpu", "tpu") else None
    return key or {"gpu": "gpu_unknown", "tpu": "tpu_unknown"}.get(device, "cpu")
