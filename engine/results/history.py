"""Exploring results history: many loaded files as one frame, then filter, group, pivot, baseline
deltas and "which settings differ". Pure pandas and vectorised, so 100,000 rows stay interactive.

Every loaded row carries the same dimension columns (`DIMENSIONS`), whichever file it came from;
AccelBench exports keep all their result columns too, foreign tables add one column per metric.
Loading lives in engine.results.history_files (one file or the store → History rows).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date

import numpy as np
import pandas as pd

from engine.reference.metrics import RESULT_METRICS
from engine.results.directions import direction_of
from engine.results.quantities import natural_key
from engine.results.schema import COLUMN_NAMES

# Columns every History row has, whatever file it came from.
DIMENSIONS = (
    "file", "run_id", "date", "device_label", "model", "workload", "kind", "status",
    "global_batch_size", "precision", "source",
)  # fmt: skip
# Columns worth grouping, pivoting or colouring by (low cardinality, meaningful).
GROUPABLE = (
    "device_label", "workload", "model", "kind", "status", "precision", "global_batch_size", "file",
    "backend", "device", "dtype", "xla", "strategy", "replicas", "dataset", "tf_version", "device_name",
    "device_count", "variant", "framework", "form_factor", "provider",
)  # fmt: skip
# Context an imported row (engine.imports.importer) carries besides DIMENSIONS: numbers that are not metrics.
IMPORT_CONTEXT = (
    "device_count", "hardware_key", "variant", "system", "framework", "elapsed_s", "step", "price_usd_per_h",
    "power_w", "system_price_usd", "note", "memory_gb", "form_factor", "provider", "host",
)  # fmt: skip

# AccelBench's own metric columns: (label, unit, higher is better), from the one metric registry.
METRIC_LABELS: dict[str, tuple[str, str, bool]] = {
    name: (m.label, m.unit, m.higher_is_better) for name, m in RESULT_METRICS.items()
}

# Settings that change how fast a run goes: rows differing in these are not like for like.
SPEED_SETTINGS: dict[str, str] = {
    "kind": "workload kind",
    "model": "model",
    "shape": "operation shape",
    "global_batch_size": "global batch size",
    "per_replica_batch_size": "per-replica batch size",
    "precision": "precision",
    "dtype": "dtype",
    "xla": "XLA",
    "backend": "framework (Keras backend: TensorFlow, JAX or PyTorch)",
    "dataset": "data (synthetic vs real, which dataset)",
    "tf_version": "TensorFlow version",
    "replicas": "device count (replicas)",
    "strategy": "distribution strategy",
    "device": "device type",
    "device_name": "device",
    "host_cores": "CPU cores",
}
# Settings shown when asking "what differs" (speed settings first, then the rest of the context).
SETTING_COLUMNS = (
    *SPEED_SETTINGS, "epochs", "steps_per_epoch", "params", "devices_used", "keras_version",
    "python_version", "driver_version", "host_memory_gb", "source", "file",
)  # fmt: skip


def metric_title(metric: str) -> str:
    """Axis text with the unit: 'Throughput (examples/s)'; a foreign metric keeps its own name, which carries
    its unit ('Time to train (min)'), or says that the file gave none."""
    if metric in METRIC_LABELS:
        label, unit, _ = METRIC_LABELS[metric]
        return f"{label} ({unit})" if unit else label
    named = "(" in metric or re.search(r"\w/\s*(?:s|sec|second|h|min)\b", metric)  # 'images/sec' is its unit
    return metric if named else f"{metric} (no unit given)"


def higher_is_better(metric: str) -> bool | None:
    """Direction of a metric; None when unknown (a foreign metric)."""
    if metric in METRIC_LABELS:
        return METRIC_LABELS[metric][2]
    stated = direction_of(metric)  # an imported metric's unit or the user's "lower is better"
    if stated is not None:
        return stated
    low = metric.lower()
    if any(w in low for w in ("/s", "per_s", "per sec", "/sec", "throughput", "gflop", "accuracy")):
        return True
    if any(w in low for w in ("time", "latency", "(s)", "(ms)", "cost", "loss", "memory")):
        return False
    return None


# --- exploring ----------------------------------------------------------------------------------


_DERIVED = re.compile(r" per (?:USD/h|USD|W|\$)\b", re.IGNORECASE)
_WORK_WORDS = ("throughput", "latency", "time to train", "minutes to train", "/s)", "per second")


def is_derived(metric: str) -> bool:
    """A metric computed from another one and a price or a power (throughput per USD, per W): never the default
    and never what a scaling or speed view is about."""
    return bool(_DERIVED.search(metric_title(metric)))


def _rank(metric: str) -> int:
    """0: the file's rate of work (throughput); 1: its times (latency, time to train); 2: anything else;
    3: per-USD/per-W. A rate before a time: a serving report's statistics of its output rate (LLMPerf's p50) come
    before those of its latencies, as the default view opens on the rate."""
    if is_derived(metric):
        return 3
    low = metric.lower()
    if not any(w in low for w in _WORK_WORDS):
        return 2
    return 0 if higher_is_better(metric) is True and "latency" not in low else 1


def metric_columns(df: pd.DataFrame) -> list[str]:
    """Numeric columns worth charting, each with data: AccelBench metrics first, then foreign metrics — the rate of
    work (throughput, latency, time to train) before the rest, derived per-USD/per-W columns last — so the first
    one is the sensible default."""
    own = [m for m in METRIC_LABELS if m in df.columns and df[m].notna().any()]
    skip = set(COLUMN_NAMES) | set(DIMENSIONS) | set(IMPORT_CONTEXT)
    foreign = [c for c in df.columns if c not in skip and pd.api.types.is_numeric_dtype(df[c]) and df[c].notna().any()]
    derived = [m for m in own if is_derived(m)]
    own = [m for m in own if m not in derived]
    return own + sorted(foreign, key=lambda c: (_rank(c), c)) + derived


def choices(df: pd.DataFrame, column: str) -> list[str]:
    """Distinct non-empty values of a column, as sorted text (for filter pickers)."""
    if column not in df.columns:
        return []
    values = df[column].dropna()
    return sorted(pd.unique(values.astype("str")).tolist())


def date_bounds(df: pd.DataFrame) -> tuple[date, date] | None:
    dates = df["date"].dropna() if "date" in df.columns else pd.Series(dtype="datetime64[ns, UTC]")
    if dates.empty:
        return None
    return dates.min().date(), dates.max().date()


def filter_frame(
    df: pd.DataFrame,
    wanted: Mapping[str, Sequence[str] | None] | None = None,
    *,
    date_range: tuple[date, date] | None = None,
    include_undated: bool = True,
) -> pd.DataFrame:
    """Rows inside `date_range` (inclusive days, UTC) whose columns take one of the wanted values.

    `wanted` maps a column to the allowed values as text (e.g. {"device_label": ["CPU · AMD EPYC"]});
    an empty or None list means no filter on that column.
    """
    mask = np.ones(len(df), dtype=bool)
    if date_range is not None and "date" in df.columns:
        start = pd.Timestamp(date_range[0], tz="UTC")
        end = pd.Timestamp(date_range[1], tz="UTC") + pd.Timedelta(days=1)
        dates = df["date"]
        inside = ((dates >= start) & (dates < end)).fillna(False).to_numpy(dtype=bool)
        mask &= inside | (dates.isna().to_numpy() & include_undated)
    for column, values in (wanted or {}).items():
        if values and column in df.columns:
            mask &= df[column].astype("str").isin(list(values)).to_numpy(dtype=bool) & df[column].notna().to_numpy()
    return df[mask]


def group_label(frame: pd.DataFrame, by: Sequence[str]) -> pd.Series:
    """'CPU · AMD EPYC · 512' — the group's values joined, for legends and baselines."""
    if not by:
        return pd.Series(["all rows"] * len(frame), index=frame.index)
    parts = [frame[c].astype("str").where(frame[c].notna(), "—") for c in by]
    label = parts[0]
    for p in parts[1:]:
        label = label + " · " + p
    return label


def aggregate(df: pd.DataFrame, by: Sequence[str], metric: str, how: str = "median") -> pd.DataFrame:
    """One row per group: the metric's `how` (median, mean, min, max), its spread (p10, p90) and row count."""
    data = df[[*by, metric]].dropna(subset=[metric])
    if not len(data):
        return pd.DataFrame(columns=[*by, "group", metric, "p10", "p90", "rows"])
    grouper = data.groupby(list(by), dropna=False, sort=True) if by else data.groupby(np.zeros(len(data)))
    col = grouper[metric]
    out = pd.DataFrame({metric: col.agg(how), "p10": col.quantile(0.1), "p90": col.quantile(0.9), "rows": col.size()})
    out = out.reset_index() if by else out.reset_index(drop=True)
    out.insert(0, "group", group_label(out, by).to_numpy())
    return in_natural_order(out, ["group"])


def in_natural_order(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Rows ordered as a person reads their labels: numbers and sizes by magnitude ('32KiB' before '1MiB' before
    '16GiB', 'batch 8' before 'batch 64'), not as text."""
    return frame.sort_values(list(columns), key=lambda s: s.map(natural_key), kind="stable")


def pivot(df: pd.DataFrame, index: str, columns: str, metric: str, how: str = "median") -> pd.DataFrame:
    """A metric's `how` for each (index, columns) pair — e.g. model × device."""
    data = df[[index, columns, metric]].dropna(subset=[metric])
    data = data.assign(**{index: data[index].astype("str"), columns: data[columns].astype("str")})
    return data.pivot_table(index=index, columns=columns, values=metric, aggfunc=how)


def baseline_delta(agg: pd.DataFrame, metric: str, baseline_group: str) -> pd.DataFrame:
    """Adds `delta_pct` (how much each group's value differs from the baseline group's, in %),
    `times` (how many times better than the baseline: value ÷ baseline, or baseline ÷ value for a
    lower-is-better metric; NaN when the direction is unknown) and `better` (when the direction is known).
    """
    out = agg.copy()
    base_rows = out.loc[out["group"] == baseline_group, metric]
    if base_rows.empty or not base_rows.iloc[0] or pd.isna(base_rows.iloc[0]):
        out["delta_pct"] = out["times"] = np.nan
        out["better"] = pd.array([pd.NA] * len(out), dtype="boolean")
        return out
    base = float(base_rows.iloc[0])
    out["delta_pct"] = (out[metric] / base - 1.0) * 100.0
    direction = higher_is_better(metric)
    ratio = out[metric] / base
    out["times"] = np.nan if direction is None else (ratio if direction else 1.0 / ratio)
    if direction is None:
        out["better"] = pd.array([pd.NA] * len(out), dtype="boolean")
    else:
        better = (out["delta_pct"] > 0) if direction else (out["delta_pct"] < 0)
        out["better"] = better.astype("boolean").mask(out["group"] == baseline_group)  # the baseline is neither
    return out


def differing_settings(rows: pd.DataFrame, columns: Sequence[str] = SETTING_COLUMNS) -> pd.DataFrame:
    """The selected rows with only the setting columns whose values differ between them.

    Two empty cells count as equal; an empty and a filled one as different.
    """
    present = [c for c in columns if c in rows.columns]
    differ = [c for c in present if rows[c].astype("str").where(rows[c].notna(), "∅").nunique() > 1]
    keep = [c for c in ("run_id",) if c in rows.columns] + differ
    return rows[keep].reset_index(drop=True)


def speed_warnings(rows: pd.DataFrame) -> list[str]:
    """One line per speed-changing setting that differs between the rows, e.g.
    'global batch size differs: 32, 128'. Empty when the rows are like for like."""
    out = []
    for col, label in SPEED_SETTINGS.items():
        if col not in rows.columns:
            continue
        # rows from before a backend was recorded ran on TensorFlow, the only backend then
        missing = "tensorflow" if col == "backend" else "not recorded"
        values = rows[col].astype("str").where(rows[col].notna(), missing)
        distinct = list(dict.fromkeys(values.tolist()))
        if len(distinct) > 1:
            shown = ", ".join(distinct[:5]) + (" …" if len(distinct) > 5 else "")
            out.append(f"{label} differs: {shown}")
    return out


def time_series(df: pd.DataFrame, metric: str, color: str | None, how: str = "median") -> tuple[pd.DataFrame, str]:
    """The metric aggregated per time bucket (and per `color` group): hourly, daily or weekly,
    whichever keeps a chart readable. Returns the frame and the bucket name."""
    data = df.dropna(subset=["date", metric])
    if data.empty:
        return pd.DataFrame(columns=["date", metric, "rows"]), "day"
    span = data["date"].max() - data["date"].min()
    # aim for tens to a few hundred buckets whatever the span, so the line is neither one dot nor noise
    buckets = (
        (pd.Timedelta(minutes=10), "s", "second"),  # a telemetry log of a few minutes
        (pd.Timedelta(hours=3), "min", "minute"),
        (pd.Timedelta(days=5), "h", "hour"),
        (pd.Timedelta(days=400), "D", "day"),
    )
    freq, name = next(((f, n) for limit, f, n in buckets if span <= limit), ("W", "week"))
    naive = data["date"].dt.tz_convert(None)
    bucket = naive.dt.to_period("W").dt.start_time if freq == "W" else naive.dt.floor(freq)
    keys = [bucket.rename("date")] + ([data[color].astype("str").rename(color)] if color else [])
    grouped = data.groupby(keys, sort=True)[metric]
    out = pd.DataFrame({metric: grouped.agg(how), "rows": grouped.size()}).reset_index()
    return out, name
