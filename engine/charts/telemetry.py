"""The Run page's telemetry chart: power, utilisation and memory over time, one shared time axis
(seconds since the run's first sample), the warm-up (everything before the steady window) shaded.

Samples are the flat dicts of engine.runs.telemetry (stored as a run's "telemetry" series and sent
live as `telemetry` progress events). Power comes from NVML's reading per GPU, and for RAPL from
the counter's increase between samples (wraparound skipped). No streamlit here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from engine.charts.base import PALETTE, empty_figure, escape_text

Sample = Mapping[str, Any]

_PANELS = (
    ("Power (W)", ("_power_w",)),
    ("Utilisation (%)", ("cpu_pct", "_util_pct")),
    ("Memory (MB)", ("rss_mb", "_mem_used_mb")),
    ("Temperature (°C)", ("_temp_c",)),
)
_NAMES = {"cpu_pct": "host CPU", "rss_mb": "worker RSS"}


def _matches(key: str, pattern: str) -> bool:
    return key == pattern if not pattern.startswith("_") else key.startswith("gpu") and key.endswith(pattern)


def rapl_power(samples: Sequence[Sample]) -> dict[str, tuple[list[float], list[float]]]:
    """Per RAPL domain: (times, watts) from the counter's increase between consecutive samples."""
    out: dict[str, tuple[list[float], list[float]]] = {}
    keys = sorted({k for s in samples for k in s if k.startswith("rapl_") and k.endswith("_uj")})
    for key in keys:
        pts = [(float(s["t"]), float(s[key])) for s in samples if s.get(key) is not None]
        ts, ws = [], []
        for (ta, a), (tb, b) in zip(pts[:-1], pts[1:], strict=True):
            if tb > ta and b >= a:
                ts.append((ta + tb) / 2)
                ws.append((b - a) / 1e6 / (tb - ta))
        out[key.removesuffix("_uj").replace("rapl_", "RAPL ")] = (ts, ws)
    return out


def _traces(samples: Sequence[Sample], patterns: tuple[str, ...], t0: float) -> list[tuple[str, list, list]]:
    keys = sorted({k for s in samples for k in s if any(_matches(k, p) for p in patterns)})
    out = []
    for key in keys:
        pts = [(float(s["t"]) - t0, float(s[key])) for s in samples if s.get(key) is not None]
        out.append((_NAMES.get(key, key.replace("_", " ")), [p[0] for p in pts], [p[1] for p in pts]))
    return out


def telemetry_figure(samples: Sequence[Sample], steady: tuple[float, float] | None = None) -> go.Figure:
    """Stacked panels (those with data) on one time axis; the warm-up before `steady` shaded."""
    if len(samples) < 2:
        return empty_figure("No telemetry samples for this run yet.", "Time since start (s)", "Value")
    t0 = min(float(s["t"]) for s in samples)
    panels = []
    for title, patterns in _PANELS:
        traces = _traces(samples, patterns, t0)
        if title.startswith("Power"):
            traces += [(n, [t - t0 for t in ts], ws) for n, (ts, ws) in rapl_power(samples).items() if ts]
        if traces:
            panels.append((title, traces))
    fig = make_subplots(rows=len(panels), cols=1, shared_xaxes=True, vertical_spacing=0.06)
    colour = 0
    for row, (title, traces) in enumerate(panels, start=1):
        for name, xs, ys in traces:
            fig.add_trace(
                go.Scatter(x=xs, y=ys, mode="lines", name=name, line={"color": PALETTE[colour % len(PALETTE)]}),
                row=row,
                col=1,
            )
            colour += 1
        fig.update_yaxes(title_text=title, row=row, col=1)
    if steady is not None and steady[0] > t0:
        fig.add_vrect(
            x0=0,
            x1=steady[0] - t0,
            fillcolor="#8c8c8c",
            opacity=0.15,
            line_width=0,
            annotation_text="warm-up",
            annotation_position="top left",
        )
    fig.update_xaxes(title_text="Time since start (s)", row=len(panels), col=1)
    escape_text(fig)
    fig.update_layout(
        height=180 * len(panels) + 100,
        margin={"t": 48, "b": 8, "l": 8, "r": 8},
        legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},
        hoverlabel={"namelength": -1},
    )
    return fig
