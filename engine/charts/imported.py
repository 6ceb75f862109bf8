"""Figures for imported results on the History page: scaling from 1 to N devices against the ideal line,
the spread of repeated rows of one configuration (noise band), and time-to-accuracy curves with a target.
Built from the aggregates in engine.imports.view.imported; the shared rules come from engine.charts.base."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import NEUTRAL, PALETTE, bar_height, empty_figure, finish, value_axis, wants_log
from engine.results.history import higher_is_better, metric_title


def scaling_chart(sc: pd.DataFrame, metric: str) -> go.Figure:
    """The median at each device count per group (solid) and the ideal linear scaling from its smallest
    count (dotted, same colour); hover gives efficiency and × faster."""
    if sc.empty:
        return empty_figure("No device × model here was measured at two or more device counts.")
    fig = go.Figure()
    for i, (name, g) in enumerate(sc.groupby("group", sort=True)):
        colour = PALETTE[i % len(PALETTE)]
        fig.add_trace(
            go.Scatter(
                x=g["device_count"], y=g[metric], name=str(name), mode="lines+markers", line={"color": colour},
                customdata=list(zip(g["efficiency"] * 100, g["speedup"], strict=True)),
                hovertemplate="%{x} devices: %{y:,.4g}<br>%{customdata[1]:.2f}× faster than the fewest, "
                "%{customdata[0]:.0f}% efficient<extra>%{fullData.name}</extra>",
            )
        )  # fmt: skip
        fig.add_trace(
            go.Scatter(
                x=g["device_count"], y=g["ideal"], mode="lines", line={"color": colour, "dash": "dot", "width": 1},
                name=f"{name} — ideal", showlegend=False, hovertemplate="ideal: %{y:,.4g}<extra></extra>",
            )
        )  # fmt: skip
    counts = sorted(sc["device_count"].dropna().astype(int).unique())
    fig.update_xaxes(type="log", tickvals=counts, ticktext=[str(c) for c in counts])
    fig.update_yaxes(
        **value_axis(pd.concat([sc[metric], sc["ideal"]]), wants_log(pd.concat([sc[metric], sc["ideal"]])))
    )
    return finish(fig, "Devices (log scale)", metric_title(metric), f"Scaling: {metric_title(metric)} (dotted: ideal)")


def noise_chart(nz: pd.DataFrame, metric: str) -> go.Figure:
    """Each repeated configuration's median (dot) and min–max band (bar), with its coefficient of variation."""
    if nz.empty:
        return empty_figure("No configuration has two or more rows to show a spread.")
    data = nz.sort_values("median", ascending=higher_is_better(metric) is False)
    fig = go.Figure(
        go.Scatter(
            y=data["group"], x=data["median"], mode="markers+text", marker={"size": 10, "color": PALETTE[0]},
            error_x={"type": "data", "symmetric": False, "array": data["max"] - data["median"],
                     "arrayminus": data["median"] - data["min"], "color": NEUTRAL, "thickness": 6, "width": 0},
            text=[f"  CV {c:.1f}% · {n} rows" for c, n in zip(data["cv_pct"], data["rows"], strict=True)],
            textposition="middle right", cliponaxis=False, showlegend=False,
            hovertemplate="%{y}<br>median %{x:,.4g}<extra></extra>",
        )
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(
        **value_axis(pd.concat([data["min"], data["max"]]), wants_log(pd.concat([data["min"], data["max"]])))
    )
    return finish(
        fig, metric_title(metric), "Configuration", "Spread of repeated rows (dot: median, band: min–max)",
        bar_height(len(data)),
    )  # fmt: skip


def accuracy_chart(df: pd.DataFrame, metric: str, target: float | None) -> go.Figure:
    """The metric against elapsed hours, one line per file × device × model, with the target as a line."""
    data = df.dropna(subset=[metric, "elapsed_s"]) if "elapsed_s" in df.columns else df.iloc[0:0]
    if data.empty:
        return empty_figure("No rows with an elapsed time and this metric.")
    by = [c for c in ("file", "device_label", "model") if c in data.columns and data[c].notna().any()]
    fig = go.Figure()
    for i, (name, g) in enumerate(data.sort_values("elapsed_s").groupby(by, sort=True)):
        label = " · ".join(str(n) for n in (name if isinstance(name, tuple) else (name,)))
        fig.add_trace(
            go.Scatter(
                x=g["elapsed_s"] / 3600, y=g[metric], mode="lines+markers", name=label,
                line={"color": PALETTE[i % len(PALETTE)]}, hovertemplate="%{x:.2f} h: %{y:,.4g}<extra>%{fullData.name}</extra>",
            )
        )  # fmt: skip
    if target is not None:
        fig.add_hline(y=target, line_dash="dot", line_color=NEUTRAL, annotation_text=f"target {target:g}")
    return finish(fig, "Elapsed time (hours)", metric_title(metric), f"{metric_title(metric)} over training time")


def samples_chart(df: pd.DataFrame, metric: str) -> go.Figure:
    """A log without timestamps (an nvidia-smi monitor log): the metric over its samples in order, one line per
    file × device."""
    data = df.dropna(subset=[metric, "step"]) if "step" in df.columns else df.iloc[0:0]
    if data.empty:
        return empty_figure("No numbered samples with this metric.")
    by = [c for c in ("file", "device_label") if c in data.columns and data[c].notna().any()] or ["step"]
    fig = go.Figure()
    for i, (name, g) in enumerate(data.sort_values("step").groupby(by, sort=True)):
        label = " · ".join(str(n) for n in (name if isinstance(name, tuple) else (name,)))
        fig.add_trace(
            go.Scattergl(
                x=g["step"], y=g[metric], mode="lines+markers", name=label, line={"color": PALETTE[i % len(PALETTE)]},
                hovertemplate="sample %{x}: %{y:,.4g}<extra>%{fullData.name}</extra>",
            )
        )  # fmt: skip
    return finish(fig, "Sample (the log's order)", metric_title(metric), f"{metric_title(metric)} over the log")
