"""Plotly figures for the Compare and History pages, plus HTML/PNG export. No streamlit here.

Every figure gets axis titles with units (`_finish` refuses to build one without), leaves colours
of text and grid to the Streamlit theme (light and dark both readable), and never draws one trace
per data point: History charts are built from aggregated frames, and raw points use WebGL.
"""

from __future__ import annotations

import importlib.util
import math
import shutil

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.history import metric_title

LOG_RATIO = 20.0  # max/min above which a linear axis hides the small values (same rule as the reference charts)
ORIGIN_COLOURS = {"this machine": "#f97316", "imported": "#a855f7", "reference": "#2563eb"}
GOOD, BAD, NEUTRAL = "#16a34a", "#dc2626", "#64748b"
MAX_POINTS = 20_000  # raw points above this are aggregated by the caller; WebGL keeps the rest smooth
_SPEEDUP_TICKS = [1 / 64, 1 / 16, 1 / 4, 1 / 2, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]


class ChartError(ValueError):
    """A figure was asked for without the titles every chart must have."""


def wants_log(values) -> bool:
    vals = [float(v) for v in values if v is not None and not pd.isna(v) and float(v) > 0]
    return bool(vals) and max(vals) / min(vals) > LOG_RATIO


def _finish(fig: go.Figure, x_title: str, y_title: str, title: str = "", height: int = 420) -> go.Figure:
    if not x_title.strip() or not y_title.strip():
        raise ChartError("every chart needs both axis titles")
    fig.update_layout(
        title={"text": title, "x": 0, "xanchor": "left"} if title else None,
        height=height,
        margin={"t": 56 if title else 24, "b": 8, "l": 8, "r": 8},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0, "title": None},
        hoverlabel={"namelength": -1},
    )
    fig.update_xaxes(title_text=x_title, automargin=True)
    fig.update_yaxes(title_text=y_title, automargin=True)
    return fig


def empty_figure(message: str, x_title: str = "—", y_title: str = "—") -> go.Figure:
    """A figure that says why it is empty (never a blank rectangle)."""
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5, font={"size": 14})
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return _finish(fig, x_title, y_title, height=240)


# --- Compare -------------------------------------------------------------------------------------


def compare_bars(rows: pd.DataFrame, y_title: str, higher_is_better: bool, log: bool | None = None) -> go.Figure:
    """One bar per row (label), grouped and coloured by origin; hatched when the figure is doubtful."""
    if rows.empty:
        return empty_figure("Nothing to compare for this metric yet.")
    df = rows.sort_values("value_canonical", ascending=not higher_is_better, kind="stable")
    fig = go.Figure()
    for origin, g in df.groupby("origin", sort=False):
        doubtful = (
            g["doubtful"].fillna(False).astype(bool) if "doubtful" in g.columns else pd.Series(False, index=g.index)
        )
        fig.add_trace(
            go.Bar(
                x=g["label"],
                y=g["value_canonical"],
                name=str(origin),
                marker={
                    "color": ORIGIN_COLOURS.get(str(origin), NEUTRAL),
                    "pattern": {"shape": ["/" if d else "" for d in doubtful]},
                },
                hovertemplate="%{x}<br>%{y:,.4g}<extra>%{fullData.name}</extra>",
            )
        )
    use_log = wants_log(df["value_canonical"]) if log is None else log
    fig.update_layout(barmode="group")
    fig.update_xaxes(categoryorder="array", categoryarray=list(df["label"]))
    fig.update_yaxes(type="log" if use_log else "linear")
    direction = "higher is better" if higher_is_better else "lower is better"
    return _finish(fig, "Run or reference", f"{y_title}{' — log scale' if use_log else ''}", f"{y_title}, {direction}")


def _speedup_ticks(values) -> tuple[list[float], list[str]]:
    lo, hi = min(values), max(values)
    ticks = [t for t in _SPEEDUP_TICKS if lo / 2.5 <= t <= hi * 2.5] or [1.0]
    return ticks, [f"{t:g}×" if t >= 1 else f"1/{round(1 / t):g}×" for t in ticks]


def speedup_chart(table: pd.DataFrame, baseline_label: str) -> go.Figure:
    """Speedup over the baseline on a log axis (½× and 2× equally far from 1×), with the 1× line."""
    if table.empty:
        return empty_figure("Choose a baseline that has a value for this metric.")
    colours = [
        NEUTRAL if lab == baseline_label else GOOD if s >= 1 else BAD
        for lab, s in zip(table["label"], table["speedup"], strict=True)
    ]
    fig = go.Figure(
        go.Bar(
            x=table["label"],
            y=table["speedup"],
            marker_color=colours,
            text=[f"{s:.3g}×" for s in table["speedup"]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}<br>%{y:.3g}× the baseline<extra></extra>",
            showlegend=False,
        )
    )
    fig.add_hline(
        y=1, line_dash="dot", line_color=NEUTRAL, annotation_text="1× = baseline", annotation_position="top left"
    )
    tickvals, ticktext = _speedup_ticks(list(table["speedup"]))
    fig.update_yaxes(type="log", tickvals=tickvals, ticktext=ticktext)
    return _finish(
        fig, "Run or reference", "Speedup over the baseline (×, log scale)", f"Speedup over {baseline_label}"
    )


def batch_chart(sweep: pd.DataFrame) -> go.Figure:
    """Throughput vs global batch size, one line per model · hardware · precision (log2 batch axis)."""
    if sweep.empty:
        return empty_figure("No throughput rows with a batch size among the chosen rows.")
    fig = go.Figure()
    for group, g in sweep.groupby("group", sort=True):
        fig.add_trace(
            go.Scatter(
                x=g["batch_size"],
                y=g["value_canonical"],
                mode="lines+markers",
                name=str(group),
                text=g["label"],
                hovertemplate="%{text}<br>batch %{x:,}<br>%{y:,.4g} examples/s<extra></extra>",
            )
        )
    batches = sorted(set(sweep["batch_size"].astype(int)))
    fig.update_xaxes(type="log", tickvals=batches, ticktext=[f"{b:,}" for b in batches])
    fig.update_yaxes(type="log" if wants_log(sweep["value_canonical"]) else "linear")
    return _finish(
        fig, "Global batch size (examples per step, log scale)", "Throughput (examples/s)", "Throughput vs batch size"
    )


def scaling_chart(table: pd.DataFrame) -> go.Figure:
    """Measured throughput vs replicas (solid) against ideal linear scaling (dashed), efficiency in labels."""
    if table.empty:
        return empty_figure("No throughput rows with a device count among the chosen rows.")
    fig = go.Figure()
    for i, (group, g) in enumerate(table.groupby("group", sort=True)):
        colour = f"hsl({(i * 67) % 360}, 65%, 50%)"
        fig.add_trace(
            go.Scatter(
                x=g["replicas"],
                y=g["value_canonical"],
                mode="lines+markers+text",
                name=str(group),
                line={"color": colour},
                text=[f"{e:.0f}%" for e in g["efficiency_pct"]],
                textposition="top center",
                customdata=np.stack([g["ideal"], g["efficiency_pct"]], axis=1),
                hovertemplate="%{x:g} replicas<br>%{y:,.4g} examples/s<br>ideal %{customdata[0]:,.4g}"
                " · efficiency %{customdata[1]:.0f}%<extra>%{fullData.name}</extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=g["replicas"],
                y=g["ideal"],
                mode="lines",
                name=f"ideal — {group}",
                line={"color": colour, "dash": "dash", "width": 1},
                hoverinfo="skip",
            )
        )
    counts = sorted(set(table["replicas"].astype(float)))
    fig.update_xaxes(tickvals=counts, ticktext=[f"{c:g}" for c in counts])
    return _finish(
        fig,
        "Replicas (devices in sync)",
        "Throughput (examples/s)",
        "Scaling with replicas — labels: efficiency vs ideal",
    )


def step_box(samples: pd.DataFrame) -> go.Figure:
    """Step-time (or repeat-time) distribution per run as box plots."""
    if samples.empty:
        return empty_figure("None of the chosen runs has per-step records.")
    fig = go.Figure()
    for label, g in samples.groupby("label", sort=False):
        fig.add_trace(go.Box(y=g["step_time_ms"], name=str(label), boxpoints="outliers", showlegend=False))
    fig.update_yaxes(type="log" if wants_log(samples["step_time_ms"]) else "linear")
    return _finish(fig, "Run", "Step time (ms)", "Step-time distribution (steady state)")


def epoch_chart(epochs: pd.DataFrame, column: str, y_title: str) -> go.Figure:
    """One line per run of a per-epoch quantity (loss, accuracy …)."""
    data = epochs.dropna(subset=[column]) if column in epochs.columns else epochs.iloc[0:0]
    if data.empty:
        return empty_figure(f"No run among the chosen ones logged {column.replace('_', ' ')}.")
    fig = go.Figure()
    for label, g in data.groupby("label", sort=False):
        fig.add_trace(go.Scatter(x=g["epoch"], y=g[column], mode="lines+markers", name=str(label)))
    fig.update_xaxes(dtick=1)
    return _finish(fig, "Epoch", y_title, y_title + " per epoch")


def cost_chart(costs: pd.DataFrame, column: str, y_title: str) -> go.Figure:
    if column not in costs.columns or costs[column].dropna().empty:
        return empty_figure("Enter a price per hour for at least one row to see its cost.")
    data = costs.dropna(subset=[column]).sort_values(column)
    fig = go.Figure(
        go.Bar(
            x=data["label"],
            y=data[column],
            marker_color=ORIGIN_COLOURS["reference"],
            text=[f"${v:,.4g}" for v in data[column]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}<br>$%{y:,.4g}<extra></extra>",
        )
    )
    fig.update_yaxes(type="log" if wants_log(data[column]) else "linear")
    return _finish(fig, "Run or reference", y_title, y_title + " (lower is better)")


# --- History -------------------------------------------------------------------------------------


def history_bars(agg: pd.DataFrame, metric: str, x: str, colour: str | None, how: str) -> go.Figure:
    """Aggregated metric per group (bars with a p10–p90 whisker); `x` and `colour` are group columns."""
    if agg.empty:
        return empty_figure("No rows with a value for this metric after filtering.")
    y_title = metric_title(metric)
    fig = go.Figure()
    groups = agg.groupby(colour, sort=True, dropna=False) if colour else [("", agg)]
    for name, g in groups:
        fig.add_trace(
            go.Bar(
                x=g[x].astype(str),
                y=g[metric],
                name=str(name) if colour else how,
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": (g["p90"] - g[metric]).clip(lower=0),
                    "arrayminus": (g[metric] - g["p10"]).clip(lower=0),
                    "thickness": 1,
                },
                customdata=g["rows"],
                hovertemplate="%{x}<br>%{y:,.4g}<br>%{customdata:,} rows<extra>%{fullData.name}</extra>",
                showlegend=bool(colour),
            )
        )
    fig.update_layout(barmode="group")
    fig.update_yaxes(type="log" if wants_log(agg[metric]) else "linear")
    x_title = x.replace("_", " ")
    return _finish(fig, x_title, f"{y_title}, {how}", f"{how.capitalize()} {y_title} by {x_title} (whiskers: p10–p90)")


def delta_chart(agg: pd.DataFrame, metric: str, baseline_group: str) -> go.Figure:
    """% difference of each group from the pinned baseline (green = better, red = worse, grey = unknown)."""
    data = agg.dropna(subset=["delta_pct"])
    if data.empty:
        return empty_figure("Pin a baseline group with a value to see % differences.")
    colours = [NEUTRAL if pd.isna(b) else GOOD if b else BAD for b in data["better"]]
    fig = go.Figure(
        go.Bar(
            x=data["group"],
            y=data["delta_pct"],
            marker_color=colours,
            text=[f"{d:+.1f}%" for d in data["delta_pct"]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}<br>%{y:+.2f}% vs baseline<extra></extra>",
        )
    )
    fig.add_hline(y=0, line_color=NEUTRAL)
    return _finish(fig, "Group", f"Difference from baseline (%) — {metric_title(metric)}", f"% vs {baseline_group}")


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
    return _finish(
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
    return _finish(
        fig, columns.replace("_", " "), index.replace("_", " "), f"{how.capitalize()} {metric_title(metric)}"
    )


# --- export --------------------------------------------------------------------------------------


def figure_html(fig: go.Figure) -> bytes:
    """A self-contained HTML file (plotly.js inlined, so it opens offline)."""
    return fig.to_html(include_plotlyjs=True, full_html=True).encode("utf-8")


def png_export_available() -> bool:
    """Kaleido (≥1) plus a Chromium it can drive; without them the page offers HTML only."""
    return importlib.util.find_spec("kaleido") is not None and any(
        shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome", "chrome")
    )


def figure_png(fig: go.Figure, width: int = 1200, height: int = 600) -> bytes:
    """A PNG through kaleido and the system Chromium (a few seconds: call it only when asked).

    Raises:
      RuntimeError: PNG export is not available here (say so; HTML still works).
    """
    if not png_export_available():
        raise RuntimeError(
            "PNG export needs the kaleido package and Chromium on this server; download the HTML instead"
        )
    light = go.Figure(fig).update_layout(template="plotly_white")  # a file has no Streamlit theme to inherit
    return light.to_image(format="png", width=width, height=height, scale=2)
