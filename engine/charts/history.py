"""Plotly figures for the History page: aggregated bars with whiskers, × against a pinned baseline,
the metric over time and a pivot heatmap. No streamlit; the shared rules come from engine.charts.base."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import (
    BAD,
    GOOD,
    NEUTRAL,
    bar_height,
    empty_figure,
    finish,
    short_number,
    speedup_ticks,
    value_axis,
    wants_log,
)
from engine.results.history import in_natural_order, metric_title


def history_bars(
    agg: pd.DataFrame, metric: str, x: str, colour: str | None, how: str, value_title: str = ""
) -> go.Figure:
    """Aggregated metric per group as horizontal bars with a p10–p90 whisker, one bar per group (the
    group's values joined), coloured by the `colour` column — no empty slots for absent combinations.
    `value_title` names the axis with the units the rows counted ('Throughput (images/s)')."""
    if agg.empty:
        return empty_figure("No rows with a value for this metric after filtering.")
    value_title = value_title or metric_title(metric)
    data = in_natural_order(agg, [x, colour] if colour else [x])
    fig = go.Figure()
    groups = data.groupby(colour, sort=True, dropna=False) if colour else [("", data)]
    for name, g in groups:
        fig.add_trace(
            go.Bar(
                y=g["group"],
                x=g[metric],
                orientation="h",
                name=str(name) if colour else how,
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": (g["p90"] - g[metric]).clip(lower=0),
                    "arrayminus": (g[metric] - g["p10"]).clip(lower=0),
                    "thickness": 1.2,
                    "color": "#8c8c8c",  # mid-grey: visible on the light and the dark theme
                },
                customdata=list(zip(g["rows"], g["unit"] if "unit" in g.columns else [""] * len(g), strict=True)),
                hovertemplate="%{y}<br>%{x:,.4g} %{customdata[1]}<br>%{customdata[0]:,} rows"
                "<extra>%{fullData.name}</extra>",
                showlegend=bool(colour),
            )
        )
    fig.update_layout(barmode="overlay")  # one bar per category: overlay never leaves gaps for missing colours
    fig.update_yaxes(categoryorder="array", categoryarray=list(data["group"]), autorange="reversed")
    fig.update_xaxes(**value_axis(agg[metric], wants_log(agg[metric])))
    category = " · ".join(c.replace("_", " ") for c in ([x, colour] if colour else [x]))
    return finish(
        fig,
        f"{value_title}, {how}",
        category,
        f"{how.capitalize()} {value_title} by {category} (whiskers: p10–p90)",
        bar_height(len(data)),
    )


def delta_chart(agg: pd.DataFrame, metric: str, baseline_group: str) -> go.Figure:
    """How many times better each group is than the pinned baseline, on a log axis in × (½× and 2× equally
    far from 1×); green = better, red = worse. A metric whose direction is unknown has no "better": no chart."""
    data = agg.dropna(subset=["times"]) if "times" in agg.columns else agg.iloc[0:0]
    if data.empty:
        return empty_figure("Pin a baseline group with a value, for a metric whose better direction is known.")
    colours = [
        NEUTRAL if g == baseline_group else GOOD if t >= 1 else BAD
        for g, t in zip(data["group"], data["times"], strict=True)
    ]
    fig = go.Figure(
        go.Bar(
            y=data["group"],
            x=data["times"],
            orientation="h",
            marker_color=colours,
            text=[f"{short_number(t)}×" for t in data["times"]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}<br>%{x:.3g}× the baseline<extra></extra>",
        )
    )
    fig.add_vline(x=1, line_dash="dot", line_color=NEUTRAL)
    tickvals, ticktext = speedup_ticks(data["times"])
    fig.update_xaxes(type="log", tickvals=tickvals, ticktext=ticktext)
    fig.update_yaxes(autorange="reversed")
    return finish(
        fig,
        f"Times better than the baseline (×, log scale) in {metric_title(metric)}",
        "Group",
        f"× vs {baseline_group} (green = better, red = worse)",
        bar_height(len(data)),
    )


def history_time_chart(series: pd.DataFrame, metric: str, colour: str | None, bucket: str, how: str) -> go.Figure:
    """The metric per time bucket, one WebGL line per colour group (already aggregated by the caller)."""
    if series.empty:
        return empty_figure("No dated rows with a value for this metric.")
    fig = go.Figure()
    groups = series.groupby(colour, sort=True) if colour else [(how, series)]
    for name, g in groups:
        fig.add_trace(
            go.Scattergl(
                x=g["date"],
                y=g[metric],
                mode="lines+markers",
                name=str(name),
                customdata=g["rows"],
                hovertemplate="%{x}<br>%{y:,.4g}<br>%{customdata:,} rows<extra>%{fullData.name}</extra>",
            )
        )
    if series["date"].nunique() == 1:  # one bucket: give the axis a width, or plotly zooms to a millisecond
        only = pd.Timestamp(series["date"].iloc[0])
        step = {"second": "1s", "minute": "1min", "hour": "1h", "day": "1D", "week": "7D"}[bucket]
        fig.update_xaxes(range=[only - pd.Timedelta(step) * 3, only + pd.Timedelta(step) * 3])
    return finish(
        fig,
        f"Date (UTC, per {bucket})",
        f"{metric_title(metric)}, {how} per {bucket}",
        f"{metric_title(metric)} over time",
    )


def pivot_heatmap(table: pd.DataFrame, metric: str, index: str, columns: str, how: str) -> go.Figure:
    if table.empty:
        return empty_figure("Nothing to pivot after filtering.")
    z = table.to_numpy(dtype=float)
    text = [["" if math.isnan(v) else f"{v:,.4g}" for v in row] for row in z]
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[str(c) for c in table.columns],
            y=[str(i) for i in table.index],
            text=text,
            texttemplate="%{text}",
            colorscale="Blues",
            colorbar={"title": {"text": metric_title(metric)}},
            hovertemplate="%{y} × %{x}<br>%{z:,.4g}<extra></extra>",
        )
    )
    return finish(fig, columns.replace("_", " "), index.replace("_", " "), f"{how.capitalize()} {metric_title(metric)}")
