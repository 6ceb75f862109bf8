"""What people want from other tools' results, computed on History rows: the long CSV the headless import
writes, the spread of repeated rows of one configuration (noise band), scaling from 1 to N devices against
the ideal line, and time (and cost) to reach a target accuracy. Pure pandas; no streamlit.

Every speedup is "how many times faster": value ÷ baseline for a rate, baseline ÷ value for a time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from engine.imports.facts.units import unit_of
from engine.imports.roles.settings import SETTING, setting_columns
from engine.results.history import group_label, higher_is_better, metric_columns

LONG_ID = (
    "device_label", "device_count", "variant", "hardware_key", "system", "model", "precision", "global_batch_size",
    "framework", "date", "elapsed_s", "step", "price_usd_per_h", "power_w", "system_price_usd", "note", "memory_gb",
    "form_factor", "provider", "host",
)  # fmt: skip
# What makes two rows the same configuration (their spread is noise, not a difference).
# The host is not: repeats on different hosts of one configuration are its noise band.
CONFIG = (
    "device_label", "device_count", "memory_gb", "form_factor", "variant", "model", "precision", "global_batch_size",
    "framework",
)  # fmt: skip


def to_long(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (row, metric) with a value: the context columns, `metric`, `value` and its `unit` (what the
    row counted — images/s, sequences/s — where AccelBench's axis says examples/s)."""
    ids = [c for c in LONG_ID if c in frame.columns] + setting_columns(frame)
    metrics = metric_columns(frame)
    own = frame["unit"] if "unit" in frame.columns else pd.Series("", index=frame.index)
    data = frame[[*ids, *metrics]].assign(_row_unit=own.astype(object).where(own.notna(), ""))
    out = data.melt(id_vars=[*ids, "_row_unit"], value_vars=metrics, var_name="metric", value_name="_value")
    out = out.rename(columns={"_value": "value"})  # a foreign metric may itself be called "value"
    out = out.dropna(subset=["value"]).reset_index(drop=True)
    out["unit"] = [unit_of(m, str(u)) for m, u in zip(out["metric"], out["_row_unit"], strict=True)]
    return out.drop(columns="_row_unit")


def _config(df: pd.DataFrame, extra: Sequence[str] = ()) -> list[str]:
    """What makes rows one configuration: CONFIG and every setting the rows carry (a sequence length …)."""
    return [c for c in (*CONFIG, *extra) if c in df.columns and df[c].notna().any()] + setting_columns(df)


def noise(df: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Per configuration with two or more rows: median, min, max, coefficient of variation (%) and rows."""
    by = _config(df)
    data = df.dropna(subset=[metric])
    if data.empty or not by:
        return pd.DataFrame(columns=["group", "median", "min", "max", "cv_pct", "rows"])
    col = data.groupby(by, dropna=False, sort=True)[metric]
    out = pd.DataFrame(
        {
            "median": col.median(),
            "min": col.min(),
            "max": col.max(),
            "cv_pct": col.std() / col.mean() * 100,
            "rows": col.size(),
        }
    ).reset_index()
    out = out[out["rows"] >= 2].reset_index(drop=True)
    out.insert(0, "group", group_label(out, [c for c in by if out[c].nunique(dropna=False) > 1] or by[:1]).to_numpy())
    return out


def within_noise(a: float, b: float, band: pd.Series) -> bool:
    """True when two values differ by less than the configuration's own spread (max − min of its repeats)."""
    return abs(a - b) <= float(band.max()) if len(band) else False


def scaling(df: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Per device × configuration with two or more device counts: the median at each count, the ideal
    (linear from the smallest count), efficiency (actual ÷ ideal, 1 = perfect) and × faster than the smallest."""
    if "device_count" not in df.columns:
        return pd.DataFrame()
    data = df.dropna(subset=[metric, "device_count"])
    if data.empty:
        return pd.DataFrame()
    by = _scaling_lines(data)
    med = data.groupby([*by, "device_count"], dropna=False, sort=True)[metric].median().reset_index()
    higher = higher_is_better(metric) is not False
    parts = []
    for _, g in med.groupby(by, dropna=False, sort=True):
        if g["device_count"].nunique() < 2:
            continue
        g = g.sort_values("device_count")
        n0, v0 = float(g["device_count"].iloc[0]), float(g[metric].iloc[0])
        n = g["device_count"].astype(float)
        g = g.assign(
            ideal=v0 * n / n0 if higher else v0 * n0 / n,
            speedup=g[metric] / v0 if higher else v0 / g[metric],
        )
        g["efficiency"] = g["speedup"] / (n / n0)
        parts.append(g)
    if not parts:
        return pd.DataFrame()
    out = pd.concat(parts, ignore_index=True)
    out.insert(0, "group", group_label(out, [c for c in by if out[c].nunique(dropna=False) > 1] or by[:1]).to_numpy())
    return out


def _scaling_lines(data: pd.DataFrame) -> list[str]:
    """What splits scaling into lines: the configuration without the count, and without a batch or setting only
    where it goes with the count (weak scaling's batch, a node count: one value per count) — never several batch
    sizes or sequence lengths pooled at one count."""
    by = [c for c in _config(data) if c != "device_count"]
    for column in [c for c in by if c == "global_batch_size" or c.startswith(SETTING)]:
        others = [c for c in by if c != column]
        if data.groupby([*others, "device_count"], dropna=False)[column].nunique(dropna=False).max() <= 1:
            by = others
    return by


def time_to_target(df: pd.DataFrame, metric: str, target: float) -> pd.DataFrame:
    """Per curve (file × device × model): the first elapsed time at which the metric reaches `target`
    (≥ for accuracy, ≤ for loss), in hours, and its cost where the rows carry a price per hour."""
    data = df.dropna(subset=[metric, "elapsed_s"]) if "elapsed_s" in df.columns else df.iloc[0:0]
    by = [c for c in ("file", "device_label", "device_count", "model") if c in data.columns]
    rows = []
    higher = higher_is_better(metric) is not False
    for key, g in data.sort_values("elapsed_s").groupby(by, dropna=False, sort=True):
        reached = g[g[metric] >= target] if higher else g[g[metric] <= target]
        hours = float(reached["elapsed_s"].iloc[0]) / 3600 if len(reached) else np.nan
        price = g["price_usd_per_h"].dropna() if "price_usd_per_h" in g.columns else pd.Series(dtype=float)
        count = g["device_count"].dropna() if "device_count" in g.columns else pd.Series(dtype=float)
        rows.append({
            **dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True)),
            "hours": hours,
            "cost_usd": hours * float(price.iloc[0]) if len(price) and not np.isnan(hours) else np.nan,
            "best": float(g[metric].max() if higher else g[metric].min()),
            "devices": int(count.iloc[0]) if len(count) else None,
        })  # fmt: skip
    out = pd.DataFrame(rows)
    if not out.empty:
        out.insert(
            0, "group", group_label(out, [c for c in by if out[c].nunique(dropna=False) > 1] or by[:1]).to_numpy()
        )
    return out


# Published targets a time-to-accuracy curve is usually read against: (metric words, target %, whose target).
TARGETS = (("top-5 accuracy", 93.0, "DAWNBench's ImageNet target: 93 % top-5"),)


def _last(df: pd.DataFrame, tail: str) -> tuple[str, pd.Series]:
    """The column whose dotted name ends with `tail` (a sidecar's `meta.workload.validation_target_value`) and its
    filled cells; ("", empty) when none."""
    col = next((str(c) for c in df.columns if str(c).split(".")[-1] == tail), "")
    return col, (df[col].dropna().astype(str).replace("", None).dropna() if col else pd.Series(dtype=str))


def _logged_target(df: pd.DataFrame, metric: str) -> tuple[float, str] | None:
    """The log's own target where its sidecar gives one (AlgoPerf's meta data: `validation_target_value` for its
    `target_metric_name`), for the validation metric it names; a fraction on an accuracy shown in % is scaled."""
    low = metric.lower()
    col, cells = _last(df, "validation_target_value")
    value = pd.to_numeric(cells, errors="coerce").dropna()
    if "validation" not in low or value.empty:
        return None
    _, names = _last(df, "target_metric_name")
    named = names.iloc[0].split("/")[-1].replace("_", " ").lower() if len(names) else ""
    if named and named not in low:
        return None  # the target is for another metric (a loss, an error rate)
    given = float(value.iloc[0])
    scaled = given * 100.0 if "accuracy" in low and "%" in metric and given <= 1.0 else given
    return scaled, f"the log's own target: {col.split('.')[-1]} {given:g}" + (
        f" = {scaled:g} %" if scaled != given else ""
    )


def default_target(df: pd.DataFrame, metric: str) -> tuple[float, str]:
    """The target a time-to-accuracy view starts from, and why: the log's own (its sidecar's validation target),
    a benchmark's published target for this metric (DAWNBench ImageNet: 93 % top-5), else the 90th percentile of
    the values reached."""
    own = _logged_target(df, metric)
    if own is not None:
        return own
    low = metric.lower()
    for words, target, why in TARGETS:
        if words in low and "%" in low:
            return target, why
    values = df[metric].dropna() if metric in df.columns else pd.Series(dtype=float)
    why = "the 90th percentile of the values (no published target known for this metric)"
    if any(words.split()[0] in c.lower() and c != metric for c in df.columns for words, _, _ in TARGETS):
        why += "; this log also has Top-5 accuracy, whose published target (93 % for ImageNet) applies"
    return (round(float(values.quantile(0.9)), 2) if len(values) else 0.0), why
