"""Small, dependency-free statistics for timings (the UI and tests use them without numpy)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default method), q in [0, 100]."""
    if not values:
        return math.nan
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize_ms(seconds: Sequence[float]) -> dict[str, float]:
    """Median and p10/p90 of durations given in seconds, reported in milliseconds."""
    ms = [s * 1000.0 for s in seconds]
    return {
        "step_time_ms_median": percentile(ms, 50),
        "step_time_ms_p10": percentile(ms, 10),
        "step_time_ms_p90": percentile(ms, 90),
    }
