"""Energy, power and thermal figures from a run's telemetry samples (pure: no NVML, no psutil).

A sample is one flat dict, taken by engine.worker.telemetry a few times a second:
  t                     unix time (the clock of progress.jsonl)
  cpu_pct, rss_mb       host CPU utilisation (all cores, %) and the worker's resident memory
  cpu_mhz               current host clock, where the kernel reports it
  rapl_<domain>_uj      RAPL energy counter in µJ (package-0, dram, …); wraps at its max range
  gpu<i>_power_w        NVML board power (W)
  gpu<i>_energy_mj      NVML total energy counter since driver load (mJ)
  gpu<i>_sm_mhz, gpu<i>_mem_mhz, gpu<i>_temp_c, gpu<i>_util_pct, gpu<i>_mem_used_mb, gpu<i>_throttle

`meta` (not stored per sample) carries what does not change: rapl_max_uj per domain, GPU power
limits, slowdown temperatures, the CPU's base clock.

Energy covers the steady-state window only: a counter's difference (linearly interpolated at the
window's edges, wraparound undone) where a counter exists, else the trapezoid integral of sampled
power. Where neither exists the source is NOT_MEASURABLE and no energy is given — a TDP-based figure
is returned apart, labelled as an estimate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

NOT_MEASURABLE = "not measurable here"
NVML_COUNTER = "nvml-counter"
NVML_POWER = "nvml-power-integral"
RAPL = "rapl"

Sample = Mapping[str, Any]

# NVML clock-throttle reason bits (nvmlClocksThrottleReason*) that change the number a user gets.
THROTTLE_REASONS = {
    0x04: "software power cap",
    0x08: "hardware slowdown",
    0x20: "software thermal slowdown",
    0x40: "hardware thermal slowdown",
    0x80: "hardware power brake",
}


@dataclass(frozen=True)
class Energy:
    source: str
    energy_j: float | None = None
    seconds: float | None = None
    what: str = ""

    @property
    def avg_power_w(self) -> float | None:
        if self.energy_j is None or not self.seconds:
            return None
        return self.energy_j / self.seconds


def unwrap(values: Sequence[float], max_range: float | None) -> list[float]:
    """A wrapping counter made monotonic: each drop adds one `max_range` (RAPL's max_energy_range_uj)."""
    out: list[float] = []
    offset = 0.0
    for i, v in enumerate(values):
        if i and v < values[i - 1] and max_range:
            offset += max_range
        out.append(v + offset)
    return out


def interpolate(ts: Sequence[float], vs: Sequence[float], t: float) -> float:
    """Linear interpolation of (ts, vs) at t, within [ts[0], ts[-1]] (callers clip t to that range)."""
    for i in range(1, len(ts)):
        if ts[i] >= t:
            span = ts[i] - ts[i - 1]
            frac = (t - ts[i - 1]) / span if span > 0 else 1.0
            return vs[i - 1] + frac * (vs[i] - vs[i - 1])
    return vs[-1]


def _series(samples: Sequence[Sample], key: str) -> tuple[list[float], list[float]]:
    pts = [(float(s["t"]), float(s[key])) for s in samples if s.get(key) is not None and s.get("t") is not None]
    pts.sort()
    return [p[0] for p in pts], [p[1] for p in pts]


def _clip(ts: Sequence[float], window: tuple[float, float]) -> tuple[float, float] | None:
    if len(ts) < 2:
        return None
    t0, t1 = max(window[0], ts[0]), min(window[1], ts[-1])
    return (t0, t1) if t1 > t0 else None


def counter_delta(
    samples: Sequence[Sample], key: str, window: tuple[float, float], max_range: float | None = None
) -> tuple[float, float] | None:
    """(counter increase, seconds) over the window (clipped to what was sampled), or None."""
    ts, vs = _series(samples, key)
    span = _clip(ts, window)
    if span is None:
        return None
    vs = unwrap(vs, max_range)
    return interpolate(ts, vs, span[1]) - interpolate(ts, vs, span[0]), span[1] - span[0]


def power_integral(samples: Sequence[Sample], key: str, window: tuple[float, float]) -> tuple[float, float] | None:
    """(joules, seconds): the trapezoid integral of sampled power (W) over the window, or None."""
    ts, vs = _series(samples, key)
    span = _clip(ts, window)
    if span is None:
        return None
    t0, t1 = span
    pts = [(t0, interpolate(ts, vs, t0))] + [(t, v) for t, v in zip(ts, vs, strict=True) if t0 < t < t1]
    pts.append((t1, interpolate(ts, vs, t1)))
    joules = sum((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in zip(pts[:-1], pts[1:], strict=True))
    return joules, t1 - t0


def _keys(samples: Sequence[Sample], prefix: str, suffix: str) -> list[str]:
    found = {k for s in samples for k in s if k.startswith(prefix) and k.endswith(suffix)}
    return sorted(found)


def gpu_energy(samples: Sequence[Sample], window: tuple[float, float]) -> Energy | None:
    """All sampled GPUs' board energy: counters where every GPU has one, else power integrals."""
    counters = _keys(samples, "gpu", "_energy_mj")
    powers = _keys(samples, "gpu", "_power_w")
    if counters and len(counters) >= len(powers):
        parts = [counter_delta(samples, k, window) for k in counters]
        if all(parts):
            return Energy(
                NVML_COUNTER,
                sum(p[0] for p in parts if p) / 1000.0,
                max(p[1] for p in parts if p),
                f"NVML energy counter, {len(parts)} GPU board(s)",
            )
    if powers:
        parts = [power_integral(samples, k, window) for k in powers]
        if all(parts):
            return Energy(
                NVML_POWER,
                sum(p[0] for p in parts if p),
                max(p[1] for p in parts if p),
                f"integral of sampled NVML power, {len(parts)} GPU board(s)",
            )
    return None


def rapl_energy(samples: Sequence[Sample], window: tuple[float, float], meta: Mapping[str, Any]) -> Energy | None:
    """Host package (+DRAM) energy from RAPL counters (µJ, wraparound undone)."""
    keys = _keys(samples, "rapl_", "_uj")
    max_uj = meta.get("rapl_max_uj", {})
    parts = [(k, counter_delta(samples, k, window, max_uj.get(k))) for k in keys]
    got = [(k, p) for k, p in parts if p]
    if not got:
        return None
    domains = ", ".join(k.removeprefix("rapl_").removesuffix("_uj") for k, _ in got)
    return Energy(RAPL, sum(p[0] for _, p in got) / 1e6, max(p[1] for _, p in got), f"RAPL counters ({domains})")


def steady_energy(
    samples: Sequence[Sample], window: tuple[float, float] | None, device: str, meta: Mapping[str, Any] | None = None
) -> Energy:
    """The device's energy over the steady window: GPU boards for a GPU run, the host's RAPL otherwise."""
    if window is None or not samples:
        return Energy(NOT_MEASURABLE, what="no steady window or no samples")
    found = gpu_energy(samples, window) if device.startswith("gpu") else rapl_energy(samples, window, meta or {})
    return found or Energy(
        NOT_MEASURABLE, seconds=window[1] - window[0], what="no energy counter or power reading on this machine"
    )


def steady_window(
    series: Mapping[str, list[dict[str, Any]]], times: Mapping[str, list[float]]
) -> tuple[float, float] | None:
    """(start, end) unix times of the steady-state window, from the step or repeat records and the times
    they were reported (their ends). Steady = epochs 2…E, or, with one epoch, the steps after the first
    ⌈S/10⌉; for a microbenchmark, the timed repeats (engine.worker.keras_fit.StepClock.steady's rule)."""
    steps, step_t = series.get("step") or [], times.get("step") or []
    if steps and len(step_t) == len(steps):
        epochs = {int(s.get("epoch") or 1) for s in steps}
        if len(epochs) >= 2:
            keep = [i for i, s in enumerate(steps) if int(s.get("epoch") or 1) >= 2]
        else:
            n = len(steps)
            skip = min(max(1, math.ceil(n / 10)), n - 1) if n > 1 else 0
            keep = list(range(skip, n))
        first = keep[0]
        return step_t[first] - float(steps[first].get("step_time_ms") or 0) / 1000.0, step_t[keep[-1]]
    reps, rep_t = series.get("repeat") or [], times.get("repeat") or []
    if reps and len(rep_t) == len(reps):
        return rep_t[0] - float(reps[0].get("time_ms") or 0) / 1000.0, rep_t[-1]
    return None


def in_window(samples: Sequence[Sample], window: tuple[float, float]) -> list[Sample]:
    return [s for s in samples if window[0] <= float(s.get("t", -1)) <= window[1]]


def thermal_notes(samples: Sequence[Sample], window: tuple[float, float] | None, meta: Mapping[str, Any]) -> list[str]:
    """Plain notes on throttling in the window: a GPU at its power limit or hot, the CPU below its base clock."""
    inside = in_window(samples, window) if window else []
    notes: list[str] = []
    for key in _keys(inside, "gpu", "_power_w"):
        gpu = key.removesuffix("_power_w")
        limit = (meta.get("gpu_power_limit_w") or {}).get(gpu)
        watts = [float(s[key]) for s in inside if s.get(key) is not None]
        if limit and watts and max(watts) >= 0.97 * limit:
            notes.append(f"{gpu} reached its power limit ({max(watts):.0f} of {limit:.0f} W) in the timed window")
        slow = (meta.get("gpu_slowdown_c") or {}).get(gpu)
        temps = [float(s[f"{gpu}_temp_c"]) for s in inside if s.get(f"{gpu}_temp_c") is not None]
        if temps and max(temps) >= (slow - 5 if slow else 85):
            notes.append(f"{gpu} ran hot ({max(temps):.0f} °C) in the timed window")
        reasons = 0
        for smp in inside:
            reasons |= int(smp.get(f"{gpu}_throttle") or 0)
        named = [text for bit, text in THROTTLE_REASONS.items() if reasons & bit]
        if named:
            notes.append(f"{gpu} clocks were held down in the timed window ({', '.join(named)})")
    base = meta.get("cpu_base_mhz")
    mhz = [float(s["cpu_mhz"]) for s in inside if s.get("cpu_mhz")]
    if base and mhz and sorted(mhz)[len(mhz) // 2] < 0.95 * base:
        notes.append(f"host CPU ran below its base clock (median {sorted(mhz)[len(mhz) // 2]:.0f} of {base:.0f} MHz)")
    return notes
