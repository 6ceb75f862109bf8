"""Plotly figures for reference numbers (and local runs next to them). No streamlit here.

Bars are one per row, coloured by device type; doubtful rows are hatched and lighter, with their own
legend entry, so a doubtful figure is never mistaken for a solid one. The value axis turns
logarithmic when the largest value is more than 20× the smallest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import DEVICE_COLOURS, DEVICE_NAMES, wants_log
from engine.reference.speedup import metric_family
from engine.reference.units import METRICS, axis_title, to_canonical

COLOURS = DEVICE_COLOURS
NAMES = DEVICE_NAMES


def _bar_labels(df: pd.DataFrame) -> list[str]:
    """Hardware names, made unique only as far as needed: batch, data, precision, source, then a number."""
    recs = df.to_dict("records")
    labels = [str(r["hardware"]) for r in recs]
    extras = (
        lambda r: f"bs {int(r['batch_size'])}" if pd.notna(r.get("batch_size")) else "bs n/a",
        lambda r: str(r.get("data_kind") or "data n/a"),
        lambda r: str(r.get("precision") or "precision n/a"),
        lambda r: str(r.get("source_id", "")),
    )
    for extra in extras:
        repeated = {label for label in labels if labels.count(label) > 1}
        labels = [
            f"{label} · {extra(r)}" if label in repeated else label for label, r in zip(labels, recs, strict=True)
        ]
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            labels[i] = f"{label} #{seen[label]}"
    return labels


def _hover(row: Mapping[str, Any], unit: str) -> str:
    parts = [
        f"<b>{row['hardware']}</b>",
        f"{row['value_canonical']:,.4g} {unit}",
        f"{row.get('source_id', '')} ({row.get('year') if pd.notna(row.get('year')) else 'year n/a'})",
        f"model: {row.get('model_label') or row.get('model') or '—'}",
        f"batch: {row.get('batch_label') or row.get('batch_size') or '—'} · precision: {row.get('precision') or '—'}",
    ]
    if row.get("doubtful"):
        parts.append(f"<i>doubtful: {row.get('doubt_reason', '')}</i>")
    return "<br>".join(str(p) for p in parts)


def bar_by_hardware(
    rows: pd.DataFrame,
    metric: str,
    model: str | None = None,
    log: bool | None = None,
    title: str | None = None,
) -> go.Figure:
    """Bars of `metric` (images/s and examples/s count as one) by hardware, for one model or all rows.

    Args:
      rows: reference-like rows; local rows (source_kind "local") are drawn in their own colour.
      metric: a metric key, e.g. "train_time_s".
      model: keep only this model key; None keeps every row.
      log: force a log (True) or linear (False) value axis; None decides by the 20× rule.
      title: figure title; a default names the metric, model and direction.

    Returns:
      The figure; with no matching rows, an empty figure whose title says so.
    """
    info = METRICS[metric]
    df = _rows_for(rows, metric, model)
    fig = go.Figure()
    if df.empty:
        fig.update_layout(title=f"No {info.label.lower()} rows{f' for {model}' if model else ''}")
        return fig
    for (colour_key, doubtful), g in df.groupby(["colour_key", "doubtful"], sort=False):
        fig.add_trace(_bar_trace(g, str(colour_key), bool(doubtful), info.unit))
    use_log = wants_log(df["value_canonical"]) if log is None else log
    unit = METRICS[df["metric"].iloc[0]].unit if metric_family(metric) == "throughput" else info.unit
    direction = "higher is better" if info.higher_is_better else "lower is better"
    fig.update_layout(
        title=title or f"{info.label}{f' — {model}' if model else ''} ({direction})",
        barmode="overlay",
        legend_title_text="Device",
        xaxis={
            "title": "Hardware",
            "categoryorder": "array",
            "categoryarray": list(df["bar_label"]),
            "tickangle": -30,
            "automargin": True,
        },
        yaxis={
            "title": axis_title(metric).replace(f"({info.unit})", f"({unit})"),
            "type": "log" if use_log else "linear",
        },
        margin={"t": 60},
    )
    return fig


def _rows_for(rows: pd.DataFrame, metric: str, model: str | None) -> pd.DataFrame:
    """The rows of `metric`'s family (and `model`), in canonical units, best first, labelled and colour-keyed."""
    fam = metric_family(metric)
    df = rows[[metric_family(m) == fam for m in rows["metric"]]]
    if model:
        df = df[df["model"] == model]
    if df.empty:
        return df
    df = df.copy()
    df["value_canonical"] = [
        to_canonical(m, v, u) for m, v, u in zip(df["metric"], df["value"], df["unit"], strict=True)
    ]
    df = df.sort_values("value_canonical", ascending=not METRICS[metric].higher_is_better, kind="stable")
    df["bar_label"] = _bar_labels(df)
    df["colour_key"] = [
        "local" if k == "local" else d for k, d in zip(df["source_kind"], df["device_type"], strict=True)
    ]
    return df


def _bar_trace(g: pd.DataFrame, colour_key: str, doubtful: bool, unit: str) -> go.Bar:
    """One device type's bars; doubtful ones lighter and hatched, under their own legend entry."""
    colour = COLOURS.get(colour_key, "#888")
    return go.Bar(
        x=g["bar_label"],
        y=g["value_canonical"],
        name=NAMES.get(colour_key, colour_key) + (" — doubtful (hatched)" if doubtful else ""),
        marker={
            "color": colour,
            "opacity": 0.45 if doubtful else 1.0,
            "pattern": {"shape": "/" if doubtful else ""},
            "line": {"color": colour, "width": 1},
        },
        hovertext=[_hover(r, unit) for r in g.to_dict("records")],
        hoverinfo="text",
    )
