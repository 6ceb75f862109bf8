"""Scaling figures: a sweep's throughput at 1, 2, 4 … processes against ideal (N × the rate at 1, dashed), each
point labelled with its efficiency and its spread; and the published multi-device curves of the same model as
efficiency against device count (100 % = ideal), a sweep's own efficiency beside them. Frames come from
engine.sweep.summary.scaling and engine.compare.evidence.scaling_refs.frame; no streamlit here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import ORIGIN_COLOURS, PALETTE, empty_figure, finish

THROUGHPUT = "Throughput (examples/s)"
EFFICIENCY = "Scaling efficiency (% of ideal)"


def _pct_text(eff: float, low: float, high: float) -> str:
    spread = "" if round(low * 100) == round(high * 100) else f" ({low * 100:.0f}–{high * 100:.0f})"
    return f"{eff * 100:.0f} %{spread}"


def sweep_scaling_figure(table: pd.DataFrame) -> go.Figure:
    """`table`: cell, batch_size, processes, examples_per_sec, ideal, efficiency, low, high, runs
    (engine.sweep.summary.scaling). One line per cell group and global batch, its ideal dashed in the same colour;
    error bars span the lowest to highest rate over repeated cells at N."""
    if table.empty:
        return empty_figure("No cell group has finished ok at 1 process and at N > 1 yet.", "Processes", THROUGHPUT)
    fig = go.Figure()
    for i, ((cell, batch), part) in enumerate(table.groupby(["cell", "batch_size"], sort=True)):
        part = part.sort_values("processes")
        colour = PALETTE[i % len(PALETTE)]
        name = f"{cell} · global batch {batch}"
        rate_lo, rate_hi = part["low"] * part["ideal"], part["high"] * part["ideal"]
        fig.add_trace(
            go.Scatter(
                x=part["processes"].tolist(),
                y=part["examples_per_sec"],
                mode="lines+markers+text",
                name=name,
                line={"color": colour},
                text=[
                    _pct_text(e, lo, hi)
                    for e, lo, hi in zip(part["efficiency"], part["low"], part["high"], strict=True)
                ],
                textposition="bottom right",
                error_y={
                    "type": "data",
                    "array": (rate_hi - part["examples_per_sec"]).clip(lower=0),
                    "arrayminus": (part["examples_per_sec"] - rate_lo).clip(lower=0),
                    "color": colour,
                    "thickness": 1,
                },
                customdata=np.stack(
                    [part["ideal"], part["efficiency"] * 100, part["low"] * 100, part["high"] * 100, part["runs"]],
                    axis=1,
                ),
                hovertemplate="%{x} processes: %{y:,.1f} examples/s<br>ideal %{customdata[0]:,.1f} examples/s"
                "<br>efficiency %{customdata[1]:.0f} % (spread %{customdata[2]:.0f}–%{customdata[3]:.0f} %, "
                "%{customdata[4]} runs)<extra>%{fullData.name}</extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=part["processes"].tolist(),
                y=part["ideal"],
                mode="lines",
                name="ideal: N × rate at 1 process",
                legendgroup="ideal",
                showlegend=i == 0,  # one legend entry explains every dashed line
                line={"color": colour, "dash": "dash", "width": 1},
                hovertemplate="ideal at %{x} processes: %{y:,.1f} examples/s<extra></extra>",
            )
        )
    counts = sorted({int(n) for n in table["processes"]})
    fig.update_xaxes(tickvals=counts, ticktext=[str(c) for c in counts], range=[0.7, max(counts) + 0.5])
    fig.update_yaxes(rangemode="tozero")
    return finish(
        fig,
        "Processes (same global batch, split over them)",
        THROUGHPUT,
        "Throughput against ideal (labels: efficiency, spread over repeated cells)",
    )


def _count_ticks(values) -> dict:
    counts = sorted({float(v) for v in values if v and v > 0})
    return {"type": "log", "tickvals": counts, "ticktext": [f"{c:g}" for c in counts]}


def published_efficiency_figure(published: pd.DataFrame, measured: pd.DataFrame | None = None) -> go.Figure:
    """`published`: engine.compare.evidence.scaling_refs.frame (series, devices, efficiency, low, high, speedup, unit …);
    `measured`: a sweep's scaling table (efficiency against processes), drawn beside them in the run colour.
    Efficiency against device count on a log₂ axis, 100 % dashed; error bars span each point's spread."""
    measured = measured if measured is not None and not measured.empty else pd.DataFrame(columns=["cell", "batch_size"])
    if published.empty and measured.empty:
        return empty_figure("No published multi-device figures for this model.", "Devices", EFFICIENCY)
    fig = go.Figure()
    for i, (series, part) in enumerate(published.groupby("series", sort=False)):
        part = part.sort_values("devices")
        colour = PALETTE[i % len(PALETTE)]
        fig.add_trace(
            go.Scatter(
                x=part["devices"].tolist(),
                y=part["efficiency"] * 100,
                mode="lines+markers",
                name=str(series),
                line={"color": colour},
                error_y={
                    "type": "data",
                    "array": ((part["high"] - part["efficiency"]) * 100).clip(lower=0),
                    "arrayminus": ((part["efficiency"] - part["low"]) * 100).clip(lower=0),
                    "color": colour,
                    "thickness": 1,
                },
                customdata=np.stack(
                    [part["speedup"], part["examples_per_sec"], part["low"] * 100, part["high"] * 100, part["source"]],
                    axis=1,
                ),
                hovertemplate="%{x:g} devices: %{customdata[0]:.2f}× one device, %{y:.0f} % of ideal"
                " (spread %{customdata[2]:.0f}–%{customdata[3]:.0f} %)<br>%{customdata[1]:,.0f} examples/s"
                " · %{customdata[4]}<extra>%{fullData.name}</extra>",
            )
        )
    for j, ((cell, batch), part) in enumerate(measured.groupby(["cell", "batch_size"], sort=True)):
        part = part.sort_values("processes")
        fig.add_trace(
            go.Scatter(
                x=part["processes"].tolist(),
                y=part["efficiency"] * 100,
                mode="lines+markers",
                name=f"this sweep: {cell} · global batch {batch} (processes, measured)",
                line={
                    "color": ORIGIN_COLOURS["this machine"],
                    "dash": ("dot", "dashdot", "longdash")[j % 3],
                    "width": 3,
                },
                marker={"symbol": "diamond", "size": 9},
                error_y={
                    "type": "data",
                    "array": ((part["high"] - part["efficiency"]) * 100).clip(lower=0),
                    "arrayminus": ((part["efficiency"] - part["low"]) * 100).clip(lower=0),
                    "thickness": 1,
                },
                hovertemplate="%{x} processes: %{y:.0f} % of ideal<extra>%{fullData.name}</extra>",
            )
        )
    xs = [*published.get("devices", []), *measured.get("processes", [])]
    span = [min(xs), max(xs)] if xs else [1, 1]
    ideal = {"color": "#64748b", "dash": "dash", "width": 1}
    fig.add_trace(go.Scatter(x=span, y=[100, 100], mode="lines", name="ideal: 100 %", line=ideal, hoverinfo="skip"))
    fig.update_xaxes(**_count_ticks(xs))
    units = sorted(set(published["unit"])) if "unit" in published.columns else ["gpu"]
    what = " or ".join(("GPUs" if u == "gpu" else f"{u}s") for u in units) or "devices"
    x_title = f"Devices ({what}{'; this sweep: processes' if not measured.empty else ''}), log scale"
    fig.update_yaxes(rangemode="tozero", ticksuffix=" %")
    title = "Published scaling efficiency against device count (rate at N ÷ (N × rate at 1); 100 % = ideal)"
    return finish(fig, x_title, EFFICIENCY, title)
