"""A sweep's figures: throughput per cell as a heatmap (cell group × batch size) and the batch-size curve
(examples/s at each tried batch, a cross where a batch did not fit). Frames come from engine.sweep.summary."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import BAD, PALETTE, empty_figure, finish

THROUGHPUT = "Throughput (examples/s)"


def heatmap_figure(table: pd.DataFrame) -> go.Figure:
    """`table`: index cell groups, columns batch sizes, values examples/s (NaN: not run or not ok)."""
    if table.empty:
        return empty_figure("No cell of this sweep has finished ok yet.", "Batch size", "Cell")
    z = table.to_numpy(dtype=float)
    text = [[f"{v:,.0f}" if v == v else "" for v in row] for row in z]  # v == v: not NaN
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[str(c) for c in table.columns],
            y=list(table.index),
            text=text,
            texttemplate="%{text}",
            colorscale="Viridis",
            colorbar={"title": {"text": "examples/s"}},
            hovertemplate="%{y}<br>batch %{x}: %{z:,.1f} examples/s<extra></extra>",
        )
    )
    fig.update_xaxes(type="category")
    return finish(fig, "Batch size (global)", "Cell", height=200 + 40 * len(table))


def batch_curve_figure(curve: pd.DataFrame) -> go.Figure:
    """`curve`: cell, batch_size, examples_per_sec, fits (engine.sweep.summary.batch_curve)."""
    if curve.empty:
        return empty_figure("No cell of this sweep has ended yet.", "Batch size", THROUGHPUT)
    fig = go.Figure()
    for i, (cell, part) in enumerate(curve.groupby("cell", sort=True)):
        ok = part[part["fits"]]
        colour = PALETTE[i % len(PALETTE)]
        fig.add_trace(
            go.Scatter(
                x=ok["batch_size"],
                y=ok["examples_per_sec"],
                mode="lines+markers",
                name=str(cell),
                line={"color": colour},
            )
        )
        failed = part[~part["fits"]]
        if not failed.empty:
            top = ok["examples_per_sec"].max() if not ok.empty else 0.0
            fig.add_trace(
                go.Scatter(
                    x=failed["batch_size"],
                    y=[top] * len(failed),
                    mode="markers",
                    marker={"symbol": "x", "size": 12, "color": BAD},
                    name=f"{cell}: did not fit",
                )
            )
    fig.update_xaxes(type="log")
    return finish(fig, "Batch size (global, log scale)", THROUGHPUT)
