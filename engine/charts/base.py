"""Plotly figures for the Compare and History pages, plus HTML/PNG export. No streamlit here.

Every figure gets axis titles with units (`_finish` refuses to build one without), leaves colours
of text and grid to the Streamlit theme (light and dark both readable), and never draws one trace
per data point: History charts are built from aggregated frames, and raw points use WebGL.
"""

from __future__ import annotations

import importlib.util
import math
import shutil

import pandas as pd
import plotly.graph_objects as go

from engine.results.history import metric_title

LOG_RATIO = 20.0  # max/min above which a linear axis hides the small values (same rule as the reference charts)
ORIGIN_COLOURS = {"this machine": "#f97316", "imported": "#a855f7", "reference": "#2563eb"}
GOOD, BAD, NEUTRAL = "#16a34a", "#dc2626", "#64748b"
# One colour per device type (and one for the user's own run), on every chart that colours by device.
DEVICE_COLOURS = {"cpu": "#64748b", "gpu": "#16a34a", "tpu": "#2563eb", "local": "#f97316"}
DEVICE_NAMES = {"cpu": "CPU", "gpu": "GPU", "tpu": "TPU", "local": "This run"}
MAX_POINTS = 20_000  # raw points above this are aggregated by the caller; WebGL keeps the rest smooth
_SPEEDUP_TICKS = [1 / 64, 1 / 16, 1 / 4, 1 / 2, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]


class ChartError(ValueError):
    """A figure was asked for without the titles every chart must have."""


def wants_log(values) -> bool:
    vals = [float(v) for v in values if v is not None and not pd.isna(v) and float(v) > 0]
    return bool(vals) and max(vals) / min(vals) > LOG_RATIO


def _log_ticks(values) -> dict:
    """Axis settings for a log axis: one tick per decade when the data spans decades (the 2·5 minor
    labels plotly adds otherwise crowd into an unreadable row), plotly's own ticks within a decade."""
    vals = [float(v) for v in values if v is not None and not pd.isna(v) and float(v) > 0]
    if vals and math.log10(max(vals) / min(vals)) >= 1.0:
        return {"type": "log", "dtick": 1}
    return {"type": "log", "dtick": "D2"}  # within a decade: 2 and 5 only


def _value_axis(values, log: bool) -> dict:
    return _log_ticks(values) if log else {"type": "linear"}


def speedup_ticks(values) -> tuple[list[float], list[str]]:
    """Ticks for a log axis of ratios, labelled in ×: powers of 2 over a short range, of 10 over a long one."""
    vals = [float(v) for v in values if v is not None and not pd.isna(v) and float(v) > 0] or [1.0]
    lo, hi = min(min(vals), 1.0), max(max(vals), 1.0)
    if hi / lo <= 64:
        ticks = [2.0**e for e in range(-10, 11) if lo / 2 <= 2.0**e <= hi * 2]
    else:
        ticks = [10.0**e for e in range(-6, 7) if lo / 10 <= 10.0**e <= hi * 10]
    return ticks, [f"{t:g}×" if t >= 1 else f"1/{round(1 / t):g}×" for t in ticks]


def _legend_rows(fig: go.Figure, width_px: int = 900) -> int:
    """How many rows a horizontal legend needs (roughly), so it gets its own band under the title."""
    names = [t.name for t in fig.data if t.name and t.showlegend is not False]
    if len(names) < 2 and not any(t.showlegend for t in fig.data):
        return 0
    text_px = sum(len(n) * 6.5 + 44 for n in names)
    return max(1, math.ceil(text_px / width_px))


TITLE_PX, LEGEND_ROW_PX = 40, 22


def _finish(fig: go.Figure, x_title: str, y_title: str, title: str = "", height: int = 420) -> go.Figure:
    if not x_title.strip() or not y_title.strip():
        raise ChartError("every chart needs both axis titles")
    rows = _legend_rows(fig)
    title_px = TITLE_PX if title else 8
    total = height + LEGEND_ROW_PX * rows
    fig.update_layout(
        # Title and legend are placed against the whole figure (container), not the plot area: long category
        # labels on the left then cannot squeeze the legend into a narrow column that runs into the title.
        title={
            "text": title,
            "x": 0,
            "xref": "container",
            "y": 1,
            "yref": "container",
            "yanchor": "top",
            "pad": {"t": 10, "l": 8},
        }
        if title
        else None,
        height=total,
        margin={"t": title_px + LEGEND_ROW_PX * rows + 8, "b": 8, "l": 8, "r": 8},
        legend={
            "orientation": "h",
            "xref": "container",
            "x": 0,
            "yref": "container",
            "y": 1 - title_px / total,
            "yanchor": "top",
            "title": None,
        },
        hoverlabel={"namelength": -1},
    )
    fig.update_xaxes(title_text=x_title, automargin=True)
    fig.update_yaxes(title_text=y_title, automargin=True)
    return fig


def empty_figure(message: str, x_title: str = "—", y_title: str = "—") -> go.Figure:
    """A figure that says why it is empty; pages show the message instead of a blank chart
    (`is_empty`), and a downloaded file still says it."""
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5, font={"size": 14})
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    fig.update_layout(meta={"empty": message})
    return _finish(fig, x_title, y_title, height=240)


def is_empty(fig: go.Figure) -> str:
    """The reason an empty figure gives, or "" for a figure with data."""
    meta = fig.layout.meta
    return meta.get("empty", "") if isinstance(meta, dict) else ""


# Mid-lightness colours that read on both the light and the dark theme, for lines that must be told apart.
PALETTE = ("#2563eb", "#f97316", "#16a34a", "#dc2626", "#9333ea", "#0891b2", "#ca8a04", "#db2777", "#64748b")


def hatched(rows: pd.DataFrame) -> pd.Series:
    """The one meaning of hatching: a doubtful figure, or a rate derived from a published time (not measured)."""
    out = pd.Series(False, index=rows.index)
    for col in ("doubtful", "derived"):
        if col in rows.columns:
            out |= rows[col].fillna(False).astype(bool)
    return out


def hatch_legend() -> go.Bar:
    """An empty bar whose legend entry explains the hatching."""
    return go.Bar(
        x=[None], y=[None], name="hatched = derived or doubtful", marker={"color": NEUTRAL, "pattern": {"shape": "/"}}
    )


def _bar_height(n: int) -> int:
    """Horizontal bars: enough room per category that long labels stay on one line."""
    return int(min(1400, 150 + 36 * max(n, 2)))


def _num(v: float) -> str:
    """Compact numbers for bar labels: 2,580 · 45.2 · 1.33 · 0.00233."""
    if v is None or pd.isna(v):
        return ""
    a = abs(v)
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:,.1f}"
    return f"{v:.3g}"


# --- History -------------------------------------------------------------------------------------


def history_bars(agg: pd.DataFrame, metric: str, x: str, colour: str | None, how: str) -> go.Figure:
    """Aggregated metric per group as horizontal bars with a p10–p90 whisker, one bar per group (the
    group's values joined), coloured by the `colour` column — no empty slots for absent combinations."""
    if agg.empty:
        return empty_figure("No rows with a value for this metric after filtering.")
    value_title = metric_title(metric)
    data = agg.sort_values([x, colour] if colour else [x], kind="stable")
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
                customdata=g["rows"],
                hovertemplate="%{y}<br>%{x:,.4g}<br>%{customdata:,} rows<extra>%{fullData.name}</extra>",
                showlegend=bool(colour),
            )
        )
    fig.update_layout(barmode="overlay")  # one bar per category: overlay never leaves gaps for missing colours
    fig.update_yaxes(categoryorder="array", categoryarray=list(data["group"]), autorange="reversed")
    fig.update_xaxes(**_value_axis(agg[metric], wants_log(agg[metric])))
    category = " · ".join(c.replace("_", " ") for c in ([x, colour] if colour else [x]))
    return _finish(
        fig,
        f"{value_title}, {how}",
        category,
        f"{how.capitalize()} {value_title} by {category} (whiskers: p10–p90)",
        _bar_height(len(data)),
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
            text=[f"{_num(t)}×" for t in data["times"]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}<br>%{x:.3g}× the baseline<extra></extra>",
        )
    )
    fig.add_vline(x=1, line_dash="dot", line_color=NEUTRAL)
    tickvals, ticktext = speedup_ticks(data["times"])
    fig.update_xaxes(type="log", tickvals=tickvals, ticktext=ticktext)
    fig.update_yaxes(autorange="reversed")
    return _finish(
        fig,
        f"Times better than the baseline (×, log scale) in {metric_title(metric)}",
        "Group",
        f"× vs {baseline_group} (green = better, red = worse)",
        _bar_height(len(data)),
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
        step = {"minute": "1min", "hour": "1h", "day": "1D", "week": "7D"}[bucket]
        fig.update_xaxes(range=[only - pd.Timedelta(step) * 3, only + pd.Timedelta(step) * 3])
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
