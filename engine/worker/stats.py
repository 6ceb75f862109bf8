"""Timing statistics for the result row: median and 10th/90th percentiles of step or repeat times."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def summarize_ms(seconds: Sequence[float]) -> dict[str, float]:
    """Median and p10/p90 of durations given in seconds, reported in milliseconds (NaN when empty).

    Percentiles are numpy's default, linear interpolation between the closest ranks.
    """
    if not seconds:
        p50 = p10 = p90 = math.nan
    else:
        p50, p10, p90 = (float(v) for v in np.percentile(np.asarray(seconds, dtype=float) * 1000.0, [50, 10, 90]))
    return {"step_time_ms_median": p50, "step_time_ms_p10": p10, "step_time_ms_p90": p90}


def finite_or_none(value: object) -> float | None:
    """A Keras log value as a plain float; None for a missing, non-numeric, NaN or infinite one."""
    try:
        f = float(value)  # type: ignore[arg-type]  # tensors, NumPy scalars and strings all convert
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None
