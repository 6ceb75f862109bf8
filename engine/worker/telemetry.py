"""The telemetry sampler: a daemon thread that reads NVML, psutil and RAPL a few times a second while
a run goes, keeps the samples (stored as the run's "telemetry" series) and sends each one as a
`telemetry` progress event so the Run page can draw it live. Sample keys: engine.runs.telemetry.

ACCELBENCH_TELEMETRY=0 turns the sampler off (the run then says energy is not measurable).
Every source is optional: no NVIDIA driver, no psutil, or RAPL unreadable (root-only since 2020 on
most kernels) just leaves its keys out. A call that fails once is not tried again.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from engine.runs.progress import Reporter

POWERCAP = Path("/sys/class/powercap")
DEFAULT_INTERVAL_S = 0.25
OFF_SWITCH = "ACCELBENCH_TELEMETRY"  # "0" turns the sampler off


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def rapl_zones(root: Path = POWERCAP) -> dict[str, tuple[Path, int | None]]:
    """Readable RAPL package and DRAM zones: key → (energy_uj file, max_energy_range_uj)."""
    zones: dict[str, tuple[Path, int | None]] = {}
    for zone in sorted(root.glob("intel-rapl:*")):
        try:
            name = (zone / "name").read_text().strip()
        except OSError:
            continue
        if not (name.startswith("package") or name == "dram"):
            continue  # core/uncore are inside the package: counting them too would count twice
        if _read_int(zone / "energy_uj") is None:
            continue
        key = f"rapl_{name}_uj" if f"rapl_{name}_uj" not in zones else f"rapl_{zone.name}_{name}_uj"
        zones[key] = (zone / "energy_uj", _read_int(zone / "max_energy_range_uj"))
    return zones


def _power_limit_w(nv: Any, h: Any) -> float:
    return nv.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0


def _slowdown_c(nv: Any, h: Any) -> float:
    return nv.nvmlDeviceGetTemperatureThreshold(h, nv.NVML_TEMPERATURE_THRESHOLD_SLOWDOWN)


class _Nvml:
    """NVML readers for the GPUs the run can see (CUDA_VISIBLE_DEVICES indices, else all)."""

    def __init__(self) -> None:
        self.handles: list[tuple[str, Any]] = []
        self.meta: dict[str, dict[str, float]] = {"gpu_power_limit_w": {}, "gpu_slowdown_c": {}}
        self.broken: set[str] = set()
        self.nv: Any = None
        try:
            import pynvml

            pynvml.nvmlInit()
        except Exception:  # noqa: BLE001 — no driver, no library: no GPU telemetry
            return
        self.nv = pynvml
        visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
        indices = [int(i) for i in visible.split(",") if i.strip().isdigit()] if visible else []
        try:
            indices = indices or list(range(pynvml.nvmlDeviceGetCount()))
        except Exception:  # noqa: BLE001
            return
        for i in indices:
            h = self._call(f"gpu{i}", partial(self.nv.nvmlDeviceGetHandleByIndex, i))
            if h is None:
                continue
            gpu = f"gpu{i}"
            self.handles.append((gpu, h))
            limit = self._call(gpu + "limit", partial(_power_limit_w, self.nv, h))
            slow = self._call(
                gpu + "slow",
                partial(_slowdown_c, self.nv, h),
            )
            if limit:
                self.meta["gpu_power_limit_w"][gpu] = limit
            if slow:
                self.meta["gpu_slowdown_c"][gpu] = slow

    def _call(self, name: str, fn: Callable[[], Any]) -> Any:
        if name in self.broken:
            return None
        try:
            return fn()
        except Exception:  # noqa: BLE001 — NVMLError_NotSupported and friends
            self.broken.add(name)
            return None

    def read(self, out: dict[str, Any]) -> None:
        for gpu, h in self.handles:
            for key, fn in _NVML_READS.items():
                value = self._call(f"{gpu}_{key}", partial(fn, self.nv, h))
                if value is not None:
                    out[f"{gpu}_{key}"] = value


_NVML_READS: dict[str, Callable[[Any, Any], Any]] = {
    "power_w": lambda nv, h: nv.nvmlDeviceGetPowerUsage(h) / 1000.0,
    "energy_mj": lambda nv, h: nv.nvmlDeviceGetTotalEnergyConsumption(h),
    "sm_mhz": lambda nv, h: nv.nvmlDeviceGetClockInfo(h, nv.NVML_CLOCK_SM),
    "mem_mhz": lambda nv, h: nv.nvmlDeviceGetClockInfo(h, nv.NVML_CLOCK_MEM),
    "temp_c": lambda nv, h: nv.nvmlDeviceGetTemperature(h, nv.NVML_TEMPERATURE_GPU),
    "util_pct": lambda nv, h: nv.nvmlDeviceGetUtilizationRates(h).gpu,
    "mem_used_mb": lambda nv, h: round(nv.nvmlDeviceGetMemoryInfo(h).used / 2**20, 1),
    "throttle": lambda nv, h: nv.nvmlDeviceGetCurrentClocksThrottleReasons(h),
}


class Sampler:
    """Start it before the work and stop it after; `samples` and `meta` hold what it read."""

    def __init__(
        self, report: Reporter | None = None, interval_s: float = DEFAULT_INTERVAL_S, powercap: Path = POWERCAP
    ):
        self.report = report
        self.interval_s = interval_s
        self.samples: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.rapl = rapl_zones(powercap)
        self.nvml = _Nvml()
        self.meta: dict[str, Any] = {"rapl_max_uj": {k: m for k, (_, m) in self.rapl.items() if m}, **self.nvml.meta}
        self.meta["cpu_base_mhz"] = (_read_int(Path("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency")) or 0) / 1000
        try:
            import psutil

            self.proc: Any = psutil.Process()
            self.psutil: Any = psutil
            psutil.cpu_percent(None)  # the first call only sets the reference point
        except ImportError:
            self.psutil = None

    def sample(self) -> dict[str, Any]:
        """One reading of every source, stamped with unix time."""
        s: dict[str, Any] = {"t": round(time.time(), 4)}
        if self.psutil is not None:
            s["cpu_pct"] = self.psutil.cpu_percent(None)
            s["rss_mb"] = round(self.proc.memory_info().rss / 2**20, 1)
            freq = self.psutil.cpu_freq() if self.meta["cpu_base_mhz"] else None
            if freq:
                s["cpu_mhz"] = freq.current
        for key, (path, _) in self.rapl.items():
            value = _read_int(path)
            if value is not None:
                s[key] = value
        self.nvml.read(s)
        return s

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._take()

    def _take(self) -> None:
        s = self.sample()
        self.samples.append(s)
        if self.report is not None:
            self.report.event("telemetry", **s)

    def start(self) -> Sampler:
        if os.environ.get(OFF_SWITCH) == "0":
            return self  # switched off (bench/bench_telemetry.py's "off" rounds): no samples
        self._take()  # one reading before the work, so the run is bracketed
        self._thread = threading.Thread(target=self._loop, name="telemetry", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> list[dict[str, Any]]:
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=5)
            self._thread = None
            self._take()  # and one after it
        return self.samples
