"""A device's silicon facts, read once from the hardware table: dense peak FLOP/s per precision class, memory
bandwidth, and which die it is (siblings such as H100 SXM / PCIe / H200 / GH200 share one) — per one device as
engine.compare.facts.workload.device_unit counts it. Every stage reads these here: the saturation rule
(evidence), the step model and its checks (estimate)."""

from __future__ import annotations

from engine.compare.facts.workload import device_unit
from engine.reference.units import units_between
from engine.spec import hardware_table


def peak_flops(key: str, pc: str) -> float | None:
    """Dense peak FLOP/s of one device (workload.device_unit) for a precision class. float32 means TF32 where the
    GPU has it (the frameworks' default for convolutions and matmuls on Ampere and later), and bfloat16 on a TPU
    that lists no float32 peak (XLA's default precision runs float32 matmuls as bfloat16 passes)."""
    dev = hardware_table.BY_KEY.get(key)
    if dev is None:
        return None
    table = dev.peak_tflops
    half = max((table.get(h) or 0.0) for h in ("float16", "bfloat16")) or None
    f32 = table.get("tf32") or table.get("float32") or (half if dev.device_type == "tpu" else None)
    per_unit = half if pc == "mixed" else f32
    per = units_between(key, device_unit(key), dev.peak_unit)
    return per_unit * per * 1e12 if per_unit and per else None


def bandwidth(key: str) -> float | None:
    """Memory bandwidth of one device (workload.device_unit), bytes/s."""
    dev = hardware_table.BY_KEY.get(key)
    per = units_between(key, device_unit(key), dev.peak_unit) if dev is not None else None
    return dev.mem_bw_gbs * per * 1e9 if dev is not None and dev.mem_bw_gbs and per else None


def silicon(key: str) -> str:
    dev = hardware_table.BY_KEY.get(key)
    return (dev.silicon if dev is not None else "") or key
