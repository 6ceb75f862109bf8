"""A device's facts, worked out ONCE for every device of the hardware table when this module is imported
(DEVICES): what one device is (its unit: a GPU, a TPU chip or board, a CPU host), which die it is (siblings such
as H100 SXM / PCIe / H200 / GH200 share one), dense peak FLOP/s per precision class and memory bandwidth — per one
device as `unit` counts it. Every stage reads these attributes from the table (the saturation rule in evidence,
the step model and its checks in estimate, the answer's chip counts) instead of working them out per row; the
functions below answer the same for callers outside the pipeline."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.catalog import hardware_table
from engine.compare.facts.workload import device_unit
from engine.reference.units import units_between


@dataclass(frozen=True)
class DeviceFacts:
    unit: str  # workload.device_unit
    silicon: str  # the die; "" for a device not in the hardware table (a caller uses the key itself)
    peak_flops: Mapping[str, float | None] = field(default_factory=dict)  # FLOP/s by precision class
    bandwidth: float | None = None  # bytes/s
    estimable: bool = False  # a known GPU or TPU an estimate can name (a CPU host has no stable ratio to anything)
    vendor: str = "nvidia"  # whose software stack it runs: "nvidia" (CUDA), "amd" (ROCm), "google" (XLA on TPU), "cpu"


NONE = DeviceFacts(unit="gpu", silicon="", peak_flops={"mixed": None, "float32": None})


def _peak_flops(key: str, pc: str) -> float | None:
    """Dense peak FLOP/s of one device (workload.device_unit) for a precision class. float32 means TF32 where the
    stack runs float32 as TF32 by default — CUDA on Ampere and later (cuDNN's convolutions, TF's and XLA's matmuls);
    FP32 on ROCm, where TF32 is "strictly opt-in" (pytorch/pytorch#190711: MIOpen convolutions default to full fp32;
    hipBLASLt matmuls need HIPBLASLT_ALLOW_TF32=1, #139869), so an MI300X's float32 run is costed at its 163 TFLOP/s
    FP32 matrix peak, not its 654 TF32 one — and bfloat16 on a TPU that lists no float32 peak (XLA's default
    precision runs float32 matmuls as bfloat16 passes)."""
    dev = hardware_table.BY_KEY.get(key)
    if dev is None:
        return None
    table = dev.peak_tflops
    half = max((table.get(h) or 0.0) for h in ("float16", "bfloat16")) or None
    tf32 = table.get("tf32") if _vendor(dev) == "nvidia" else None
    f32 = tf32 or table.get("float32") or (half if dev.device_type == "tpu" else None)
    per_unit = half if pc == "mixed" else f32
    per = units_between(key, device_unit(key), dev.peak_unit)
    return per_unit * per * 1e12 if per_unit and per else None


def _bandwidth(key: str) -> float | None:
    dev = hardware_table.BY_KEY.get(key)
    per = units_between(key, device_unit(key), dev.peak_unit) if dev is not None else None
    return dev.mem_bw_gbs * per * 1e9 if dev is not None and dev.mem_bw_gbs and per else None


def _facts(key: str) -> DeviceFacts:
    peaks = {pc: _peak_flops(key, pc) for pc in ("mixed", "float32")}
    dev = hardware_table.BY_KEY[key]
    estimable = dev.device_type in ("gpu", "tpu") and not key.endswith("_unknown")
    return DeviceFacts(device_unit(key), dev.silicon or key, peaks, _bandwidth(key), estimable, _vendor(dev))


def _vendor(dev: hardware_table.Device) -> str:
    if dev.device_type in ("tpu", "cpu"):
        return "google" if dev.device_type == "tpu" else "cpu"
    return "amd" if dev.key.startswith("mi") else "nvidia"


STACKS = {"nvidia": "CUDA", "amd": "ROCm", "google": "XLA on TPU", "cpu": "CPU"}  # each vendor's own stack


DEVICES: dict[str, DeviceFacts] = {key: _facts(key) for key in hardware_table.BY_KEY}


def peak_flops(key: str, pc: str) -> float | None:
    """Dense peak FLOP/s of one device for a precision class ('mixed' or 'float32'), from DEVICES."""
    return DEVICES.get(key, NONE).peak_flops["mixed" if pc == "mixed" else "float32"]


def bandwidth(key: str) -> float | None:
    """Memory bandwidth of one device (workload.device_unit), bytes/s."""
    return DEVICES.get(key, NONE).bandwidth


def silicon(key: str) -> str:
    return DEVICES.get(key, NONE).silicon or key
