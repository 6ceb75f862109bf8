"""What this machine has, found without TensorFlow: CPU facts and peak, GPUs (NVML), a TPU.

Used before a run starts (so `--device gpu` on a GPU-less machine is refused in milliseconds)
and by the Devices page. The worker later verifies real placement with TensorFlow itself.
"""

from __future__ import annotations

import functools
import os
import platform
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine.catalog import hardware_table


@dataclass(frozen=True)
class CpuInfo:
    """The host CPU.

    Attributes:
      name: brand string.
      cores: CPUs this process may use (affinity), which is what TF's thread pools get.
      clock_ghz: the clock the peak assumes: cpufreq's maximum where the OS exposes it, else a base clock.
      vector_extensions: the SIMD/FMA flags that set FLOPs per cycle.
      flops_per_cycle_fp32: per core, from the vector width and FMA units.
      peak_gflops_fp32: cores × clock × FLOPs per cycle.
      clock_basis: where clock_ghz came from (CLOCK_MAX, CLOCK_BASE_NAME or CLOCK_CURRENT).
    """

    name: str
    cores: int
    clock_ghz: float
    vector_extensions: tuple[str, ...]
    flops_per_cycle_fp32: int
    peak_gflops_fp32: float
    memory_gb: float
    clock_basis: str = ""

    @property
    def peak_is_floor(self) -> bool:
        """True when the clock is not the highest the cores can run at: turbo runs above it, so a measured
        rate may pass this "peak" and a % of it is an upper bound, not the real fraction."""
        return self.clock_basis != CLOCK_MAX


@dataclass(frozen=True)
class GpuInfo:
    index: int
    name: str
    memory_mb: float
    driver_version: str


@dataclass(frozen=True)
class Accelerators:
    """GPUs and TPU found without TF. `tpu` is the address/name or "local" for a TPU VM, else ""."""

    gpus: tuple[GpuInfo, ...] = ()
    tpu: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)


def _proc_cpuinfo() -> dict[str, str]:
    """The first processor's block of /proc/cpuinfo as {field: value} (empty off Linux).

    Read by hand on purpose: py-cpuinfo gives the same fields, but its public call starts a Python
    subprocess (about a second), which the sub-second refusal of `--device gpu` cannot afford.
    """
    try:
        block = Path("/proc/cpuinfo").read_text().split("\n\n", 1)[0]
    except OSError:
        return {}
    pairs = (line.split(":", 1) for line in block.splitlines() if ":" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def flops_per_cycle_fp32(flags: set[str], vendor_amd: bool) -> int:
    """FP32 FLOPs per cycle per core: lanes × 2 (FMA) × FMA units.

    Zen 4 runs AVX-512 on two 256-bit pipes, so AMD's AVX-512 counts as 256-bit wide unless the
    core is Zen 5 (which added VP2INTERSECT alongside full-width units).
    """
    if "avx512f" in flags and (not vendor_amd or "avx512_vp2intersect" in flags):
        return 64
    if "avx2" in flags and "fma" in flags:
        return 32
    if "avx" in flags:
        return 16
    if "asimd" in flags:  # Arm NEON: 4 lanes × FMA × 2 pipes
        return 16
    return 8


CLOCK_MAX = "cpufreq maximum"  # the highest clock any core may reach: a peak from it is a ceiling
CLOCK_BASE_NAME = "base clock in the model name"
CLOCK_CURRENT = "current clock (no cpufreq here, e.g. a VM)"  # a VM reports its nominal clock: a floor


def _sysfs_max_mhz() -> float:
    """The highest cpuinfo_max_freq of any core (kHz in sysfs), 0 where cpufreq is not exposed."""
    best = 0.0
    for path in Path("/sys/devices/system/cpu").glob("cpu[0-9]*/cpufreq/cpuinfo_max_freq"):
        try:
            best = max(best, int(path.read_text().strip()) / 1000)
        except (OSError, ValueError):
            continue
    return best


def pick_clock(max_mhz: float, model_name: str, current_mhz: float) -> tuple[float, str]:
    """(GHz, basis): cpufreq's maximum where known (no core runs faster, so % of peak stays ≤ 100), else the
    base clock a model name such as 'Xeon Gold 6248 @ 2.50GHz' states, else the current clock; both floors."""
    if max_mhz > 0:
        return max_mhz / 1000, CLOCK_MAX
    named = re.search(r"@\s*([0-9.]+)\s*GHz", model_name)
    if named:
        return float(named.group(1)), CLOCK_BASE_NAME
    return (current_mhz / 1000, CLOCK_CURRENT) if current_mhz > 0 else (0.0, "")


def _clock(model_name: str) -> tuple[float, str]:
    try:
        import psutil

        freq = psutil.cpu_freq()
    except Exception:  # psutil is a dependency, but a device list must never crash on it
        freq = None
    max_mhz = max((freq.max if freq else 0.0) or 0.0, _sysfs_max_mhz())
    return pick_clock(max_mhz, model_name, (freq.current if freq else 0.0) or 0.0)


@functools.lru_cache(maxsize=1)
def cpu_info() -> CpuInfo:
    proc = _proc_cpuinfo()
    flags = set((proc.get("flags") or proc.get("Features") or "").split())
    name = proc.get("model name") or platform.processor() or platform.machine()
    vendor_amd = "AMD" in (proc.get("vendor_id", "") + name)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    clock, basis = _clock(name)
    clock = round(clock, 3)  # the peak is computed from the clock as shown, so the two always agree
    fpc = flops_per_cycle_fp32(flags, vendor_amd)
    shown = (
        "sse4_2",
        "avx",
        "avx2",
        "fma",
        "avx512f",
        "avx512_bf16",
        "avx512_fp16",
        "amx_bf16",
        "amx_tile",
        "asimd",
        "sve",
    )
    try:
        import psutil

        mem_gb = psutil.virtual_memory().total / 2**30
    except Exception:  # psutil is a dependency, but a device list must never crash on it
        mem_gb = 0.0
    return CpuInfo(
        name=name,
        cores=cores,
        clock_ghz=clock,
        vector_extensions=tuple(f for f in shown if f in flags),
        flops_per_cycle_fp32=fpc,
        peak_gflops_fp32=round(cores * clock * fpc, 1),
        memory_gb=round(mem_gb, 1),
        clock_basis=basis,
    )


def cpu_peak_gflops(dtype: str = "float32") -> float:
    """The CPU's dense peak for `dtype`. Without native fp16/bf16 FMA units the fp32 peak is the ceiling."""
    info = cpu_info()
    peak = info.peak_gflops_fp32
    if dtype == "bfloat16" and ("avx512_bf16" in info.vector_extensions or "amx_bf16" in info.vector_extensions):
        return peak * 2
    return peak


def accelerator_peak_gflops(device_name: str, dtype: str = "float32") -> float | None:
    """Datasheet peak for a GPU/TPU name (engine.catalog.hardware_table), or None when the device is not in it."""
    key = hardware_table.key_for_name(device_name)
    value = hardware_table.peak_tflops(key, dtype) if key else None
    return value * 1000 if value else None


def _nvml_gpus() -> tuple[list[GpuInfo], str]:
    try:
        import pynvml  # from nvidia-ml-py; absent driver → NVMLError
    except ImportError:
        return [], "nvidia-ml-py is not installed"
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # NVMLError_LibraryNotFound etc.: no NVIDIA driver here
        return [], f"NVML unavailable ({exc.__class__.__name__})"
    try:
        driver = pynvml.nvmlSystemGetDriverVersion()
        driver = driver.decode() if isinstance(driver, bytes) else driver
        out = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            h = pynvml.nvmlDeviceGetHandleByIndex(i)
            name = pynvml.nvmlDeviceGetName(h)
            name = name.decode() if isinstance(name, bytes) else name
            mem = pynvml.nvmlDeviceGetMemoryInfo(h).total / 2**20
            out.append(GpuInfo(i, name, round(mem), driver))
        return out, ""
    finally:
        pynvml.nvmlShutdown()


def _visible(gpus: list[GpuInfo]) -> list[GpuInfo]:
    cvd = os.environ.get("CUDA_VISIBLE_DEVICES")
    if cvd is None:
        return gpus
    wanted = [p.strip() for p in cvd.split(",") if p.strip().isdigit()]
    return [g for g in gpus if str(g.index) in wanted]


def detect_accelerators() -> Accelerators:
    """GPUs via NVML (or the driver's /proc entries), a TPU via its address or a TPU VM's device files."""
    gpus, note = _nvml_gpus()
    notes = [note] if note else []
    if not gpus:
        for i, path in enumerate(sorted(Path("/proc/driver/nvidia/gpus").glob("*/information"))):
            model = ""
            with path.open() as f:
                for line in f:
                    if line.startswith("Model:"):
                        model = line.split(":", 1)[1].strip()
            gpus.append(GpuInfo(i, model or "NVIDIA GPU", 0.0, ""))
    tpu = os.environ.get("TPU_NAME") or os.environ.get("COLAB_TPU_ADDR", "")
    if not tpu and (any(Path("/dev").glob("accel[0-9]*")) or os.environ.get("TPU_ACCELERATOR_TYPE")):
        tpu = "local"
    return Accelerators(gpus=tuple(_visible(gpus)), tpu=tpu, notes=tuple(notes))


def describe_available(acc: Accelerators | None = None) -> str:
    """One line: what devices exist, for error messages."""
    acc = acc or detect_accelerators()
    cpu = cpu_info()
    parts = [f"CPU ({cpu.name}, {cpu.cores} cores)"]
    parts += [f"GPU {g.index} ({g.name})" for g in acc.gpus]
    if acc.tpu:
        parts.append(f"TPU ({acc.tpu})")
    return "this machine has: " + ", ".join(parts)


def device_problem(device: str, acc: Accelerators | None = None, tpu_address: str = "") -> str | None:
    """Why `device` cannot be used here (None when it can) — checked before any run starts."""
    if device == "cpu" or (device == "tpu" and tpu_address):
        return None
    acc = acc or detect_accelerators()
    if device == "gpu" and not acc.gpus:
        return f"no GPU found (NVIDIA driver/NVML sees none); {describe_available(acc)}. Use --device cpu."
    if device == "tpu" and not acc.tpu:
        return (
            "no TPU found (no --tpu, TPU_NAME or COLAB_TPU_ADDR, and no TPU VM devices); "
            f"{describe_available(acc)}. Use --device cpu."
        )
    return None


def host_summary() -> dict:
    """The machine facts stored with every result (no host name)."""
    cpu = cpu_info()
    return {
        "host_cores": cpu.cores,
        "host_memory_gb": cpu.memory_gb,
        "python_version": platform.python_version(),
        "cpu": asdict(cpu),
    }
