"""Which time column of a file is a training curve's time axis (issue 43): a time said to be per step, epoch or
batch, or one in ms or µs, is a measured time, never the axis; of several elapsed times, the training or submission
time is the axis and the evaluation or logging times are labels (AlgoPerf: accumulated_submission_time over
accumulated_eval_time). Pure Python; read by engine.imports.shape.shapes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec
from engine.imports.facts.units import unit_from_header

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


_PER_EPOCH = re.compile(r"time[\s_]*per[\s_]*epoch|epoch[\s_]*(?:time|duration)")
_WEEK_S = 7 * 24 * 3600.0


def epoch_seconds(frame: pd.DataFrame, m: ImportMapping) -> list[str]:
    """A time per epoch the file gives no unit for (mac-ml-speed-test's `avg_time_per_epoch`) is in seconds: Python
    loops time epochs with time.time() differences, and Keras and PyTorch Lightning print s per epoch. Taken only
    where every value is a plausible epoch in seconds (above 0, under a week), and said as an assumption."""
    said = []
    for column, spec in m.values.items():
        if spec.unit or unit_from_header(column)[1] or not _PER_EPOCH.search(column.lower()):
            continue
        values = pd.to_numeric(frame[column], errors="coerce").dropna()
        if len(values) and values.gt(0).all() and values.lt(_WEEK_S).all():
            m.values[column] = replace(spec, metric=" ".join(re.split(r"[_\s]+", column)).strip(), unit="s")
            said.append(f"{column}: no unit given, read as seconds (a time per epoch; change the unit if not)")
    return said


def one_record(frame: pd.DataFrame, m: ImportMapping) -> None:
    """A file of one record (a run's `metric,value,unit` report) holds no curve: its time (`total_train_time`) is a
    measured result and its step (`num_epochs`) a setting of the run, never a series' axis."""
    if len(frame) != 1 or not m.column("time") or m.fmt:  # a known format's axis (an MLLOG's minutes) stays
        return
    for column in m.columns("time"):
        m.roles[column] = "value"
        name, unit = unit_from_header(column)
        m.values[column] = ValueSpec(" ".join(re.split(r"[_\s]+", name)).strip(), unit or m.time_unit)
    for column in m.columns("step"):
        m.roles[column] = "setting"
    m.shape = "json" if m.shape == "timeseries" else m.shape
