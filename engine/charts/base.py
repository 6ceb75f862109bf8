"""The shared chart base (axis titles, the log rule and × ticks, colours per device type, hatching, number
formats, empty figures) plus HTML/PNG export. No streamlit here.

Every figure gets axis titles with units (`finish` refuses to build one without), leaves colours
of text and grid to the Streamlit theme (light and dark both readable), and never draws one trace
per data point: History charts are built from aggregated frames, and raw points use WebGL.
"""

from __future__ import annotations

import html
import importlib.util
import math
import shutil
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

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


def value_axis(values, log: bool) -> dict:
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


def time_unit(values_ms) -> tuple[float, str]:
    """(divisor, unit) for times held in milliseconds: seconds once the typical value reaches a second.

    The one rule for "seconds or milliseconds by magnitude" on every chart (values ÷ divisor are in unit).
    """
    vals = sorted(float(v) for v in values_ms if v is not None and not pd.isna(v) and float(v) > 0)
    typical = vals[len(vals) // 2] if vals else 0.0
    return (1000.0, "s") if typical >= 1000 else (1.0, "ms")


def count_axis(values) -> dict:
    """Axis settings for counts (repeats, steps, epochs, replicas): whole-number ticks only, 1-2-5 spaced."""
    vals = [float(v) for v in values if v is not None and not pd.isna(v)]
    span = (max(vals) - min(vals)) if vals else 1.0
    raw = max(1.0, span / 8)  # at most about 8 ticks
    mag = 10 ** math.floor(math.log10(raw))
    step = int(next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw))
    return {"tick0": 0, "dtick": step, "tickformat": ",d"}


def _legend_rows(fig: go.Figure, width_px: int = 900) -> int:
    """How many rows a horizontal legend needs (roughly), so it gets its own band under the title."""
    names = [t.name for t in fig.data if t.name and t.showlegend is not False]
    if len(names) < 2 and not any(t.showlegend for t in fig.data):
        return 0
    text_px = sum(len(n) * 6.5 + 44 for n in names)
    return max(1, math.ceil(text_px / width_px))


TITLE_PX, LEGEND_ROW_PX = 40, 22


_TRACE_TEXT = ("name", "text", "hovertext", "x", "y", "customdata", "labels")


def _escape_value(value: Any) -> Any:
    """Text as plotly shows it literally: its label renderer reads <b>, <a href>, <br> and entities."""
    if isinstance(value, str):
        return html.escape(value, quote=False)
    if isinstance(value, np.ndarray):
        if value.dtype.kind in ("O", "U"):
            return np.vectorize(_escape_value, otypes=[object])(value) if value.size else value
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_escape_value(v) for v in value)
    return value


def escape_text(fig: go.Figure) -> go.Figure:
    """Make every data-derived text of `fig` plain text: trace names, category labels, bar texts,
    hover texts and custom data (model names, notes and labels come from imported files).
    Our own templates and titles keep their markup. Idempotent: a figure is escaped once."""
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    if meta.get("text_escaped"):
        return fig
    for trace in fig.data:
        for key in _TRACE_TEXT:
            if key in trace and trace[key] is not None:
                trace[key] = _escape_value(trace[key])
    for axis in ("xaxis", "yaxis"):
        ax = fig.layout[axis]
        for key in ("ticktext", "categoryarray"):  # the category order must name the escaped categories
            if ax is not None and ax[key] is not None:
                ax[key] = _escape_value(list(ax[key]))
    fig.layout.meta = {**meta, "text_escaped": True}
    return fig


def finish(fig: go.Figure, x_title: str, y_title: str, title: str = "", height: int = 420) -> go.Figure:
    if not x_title.strip() or not y_title.strip():
        raise ChartError("every chart needs both axis titles")
    escape_text(fig)
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
    return finish(fig, x_title, y_title, height=240)


def is_empty(fig: go.Figure) -> str:
    """The reason an empty figure gives, or "" for a figure with data."""
    meta = fig.layout.meta
    return meta.get("empty", "") if isinstance(meta, dict) else ""


# Mid-lightness colours that read on both the light and the dark theme, for lines that must be told apart.
PALETTE = ("#2563eb", "#f97316", "#16a34a", "#dc2626", "#9333ea", "#0891b2", "#ca8a04", "#db2777", "#64748b")


def hatched(rows: pd.DataFrame) -> pd.Series:
    """The one meaning of hatching: a doubtful figure, a rate derived from a published time, or an estimate
    (none of them measured)."""
    out = pd.Series(False, index=rows.index)
    for col in ("doubtful", "derived", "estimate"):
        if col in rows.columns:
            out |= rows[col].fillna(False).astype(bool)
    return out


def hatch_legend() -> go.Bar:
    """An empty bar whose legend entry explains the hatching."""
    return go.Bar(
        x=[None], y=[None], name="hatched = estimate, derived or doubtful", marker={"color": NEUTRAL, "pattern": {"shape": "/"}}
    )


def bar_height(n: int) -> int:
    """Horizontal bars: enough room per category that long labels stay on one line."""
    return int(min(1400, 150 + 36 * max(n, 2)))


def short_number(v: float) -> str:
    """Compact numbers for bar labels: 2,580 · 45.2 · 1.33 · 0.00233."""
    if v is None or pd.isna(v):
        return ""
    a = abs(v)
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:,.1f}"
    return f"{v:.3g}"


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
