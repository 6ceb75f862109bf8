"""A sweep's figures: throughput per cell as a heatmap (cell group × batch size), the batch-size curve
(examples/s at each tried batch, a cross where a batch did not fit) and, for a sweep over --input-workers,
training against input workers with the step alone as a line (issue 38). Frames come from engine.sweep.summary."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import BAD, PALETTE, count_axis, empty_figure, finish

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
    """`curve`: cell, batch_size, examples_per_sec, fits, out_of_memory (engine.sweep.summary.batch_curve): a cross
    where a batch ran out of memory, an open circle where a cell failed for another reason (not a size limit)."""
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
        top = ok["examples_per_sec"].max() if not ok.empty else 0.0
        ended = part[~part["fits"]]
        oom = ended["out_of_memory"].astype(bool)
        for why, symbol, failed in (("did not fit", "x", ended[oom]), ("failed", "circle-open", ended[~oom])):
            if failed.empty:
                continue
            fig.add_trace(
                go.Scatter(
                    x=failed["batch_size"],
                    y=[top] * len(failed),
                    mode="markers",
                    marker={"symbol": symbol, "size": 12, "color": BAD},
                    name=f"{cell}: {why}",
                )
            )
    fig.update_xaxes(type="log")
    return finish(fig, "Batch size (global, log scale)", THROUGHPUT)


WORKERS_X = "Input workers (the pipeline's parallel calls)"


def workers_figure(frame: pd.DataFrame) -> go.Figure:
    """`frame`: engine.sweep.workers.workers_frame. Training examples/s against input workers, one line per cell, with the step alone (the model on a batch
    already on the device: what training would reach with input free) as a dashed line of the same colour."""
    if frame["input_workers"].nunique() < 2:
        return empty_figure(
            "This sweep did not vary its input workers: sweep --input-workers 1,2,4 to see how far the pipeline goes.",
            WORKERS_X,
            THROUGHPUT,
        )
    fig = go.Figure()
    for i, (cell, part) in enumerate(frame.groupby("cell", sort=True)):
        colour = PALETTE[i % len(PALETTE)]
        fig.add_trace(
            go.Scatter(
                x=part["input_workers"], y=part["examples_per_sec"], mode="lines+markers", name=f"{cell}: training",
                line={"color": colour},
                hovertemplate="%{x} input workers: %{y:,.1f} examples/s (training)<extra></extra>",
            )
        )  # fmt: skip
        step = part["step_examples_per_sec"].dropna()
        if not step.empty:  # the step alone does not depend on the workers: one level, their median
            level = float(step.median())
            xs = [int(part["input_workers"].min()), int(part["input_workers"].max())]
            fig.add_trace(
                go.Scatter(
                    x=xs, y=[level, level], mode="lines", name=f"{cell}: step alone ({level:,.0f}/s)",
                    line={"color": colour, "dash": "dash"},
                    hovertemplate=f"step alone: {level:,.1f} examples/s<extra></extra>",
                )
            )  # fmt: skip
    fig.update_xaxes(**count_axis(frame["input_workers"]))
    fig.update_yaxes(rangemode="tozero")
    return finish(fig, WORKERS_X, THROUGHPUT)
