"""Which time column of a file is a training curve's time axis (issue 43): a time said to be per step, epoch or
batch, or one in ms or µs, is a measured time, never the axis; of several elapsed times, the training or submission
time is the axis and the evaluation or logging times are labels (AlgoPerf: accumulated_submission_time over
accumulated_eval_time). Pure Python; read by engine.imports.shapes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.imports.units import unit_from_header

_PER_UNIT_OF_WORK = re.compile(r"per[\s_]*(?:step|epoch|batch|iter(?:ation)?|sample|image|token|request)s?\b")


def per_step(name: str) -> bool:
    """A time in ms or µs by its header, or one said to be per step, epoch or batch (`avg_time_per_epoch`): a measured
    time, never a curve's time axis."""
    return unit_from_header(name)[1] in ("ms", "us") or bool(_PER_UNIT_OF_WORK.search(name.lower()))


def _time_score(name: str) -> int:
    """How much a time column is the time axis of a training curve: elapsed train/submission time first, the
    time spent evaluating or logging last."""
    low = name.lower()
    score = 2 * any(w in low for w in ("submission", "train")) + any(w in low for w in ("accumulated", "elapsed"))
    return score - 3 * any(w in low for w in ("eval", "logging", "log_", "total", "duration"))


def time_axis(roles: dict[str, str], kinds: dict[str, tuple[str, str]], named_time: Callable[[str], bool]) -> None:
    """Of several time columns (`named_time`: a column's name says it is a time), the one with the meaning of
    elapsed training time is the axis; the others are kept as text (labels), not charted as results."""
    times = [c for c in roles if kinds[c][0] == "number" and named_time(c) and not per_step(c)]
    if len(times) < 2:
        return
    best = max(times, key=lambda c: (_time_score(c), -times.index(c)))
    for c in times:
        roles[c] = "time" if c == best else "label"
