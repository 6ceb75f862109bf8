"""Plotly figures for the Compare page: bars and speedup against a baseline, throughput vs batch size and
vs replicas (with the ideal line), step-time distributions, epoch curves and cost. No streamlit here.

Shared rules (axis titles with units, legends that never cover the title, log ticks, empty figures
that say why) come from engine.charts.base.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import (
    BAD,
    DEVICE_COLOURS,
    DEVICE_NAMES,
    GOOD,
    NEUTRAL,
    ORIGIN_COLOURS,
    PALETTE,
    ChartError,
    bar_height,
    empty_figure,
    finish,
    hatch_legend,
    hatched,
    short_number,
    speedup_ticks,
    value_axis,
    wants_log,
)


def _colour_key(origin: str, device_type) -> str:
    """This machine's runs in their own colour; everything else by device type (cpu/gpu/tpu)."""
    if origin == "this machine":
        return "local"
    dev = str(device_type).lower() if isinstance(device_type, str) else ""
    return dev if dev in DEVICE_COLOURS else origin


def _bar_name(key: str, origin: str) -> str:
    if key == "local":
        return "This machine"
    return f"{DEVICE_NAMES.get(key, key)} ({origin})" if key in DEVICE_NAMES else origin


def compare_bars(rows: pd.DataFrame, x_title: str, higher_is_better: bool) -> go.Figure:
    """One horizontal bar per row (label), coloured by device type (this machine's runs in their own colour),
    best at the top, on a linear axis (bars compare lengths); doubtful or derived figures hatched, which the
    legend says. Hover shows the row's id (run or reference) next to its label."""
    if rows.empty:
        return empty_figure("Nothing to compare for this metric yet.")
    df = rows.sort_values("value_canonical", ascending=higher_is_better, kind="stable")  # plotly draws bottom-up
    devices = df["device_type"] if "device_type" in df.columns else pd.Series("", index=df.index)
    df = df.assign(
        _key=[_colour_key(str(o), d) for o, d in zip(df["origin"], devices, strict=True)],
        _id=_row_ids(df),
    )
    fig = go.Figure()
    for (key, origin), g in df.groupby(["_key", "origin"], sort=False):
        fig.add_trace(
            go.Bar(
                y=g["label"],
                x=g["value_canonical"],
                orientation="h",
                name=_bar_name(str(key), str(origin)),
                marker={
                    "color": DEVICE_COLOURS.get(str(key), ORIGIN_COLOURS.get(str(origin), NEUTRAL)),
                    "pattern": {"shape": ["/" if d else "" for d in hatched(g)]},
                },
                text=[short_number(v) for v in g["value_canonical"]],
                textposition="outside",
                cliponaxis=False,
                error_x=_range_bars(g),
                customdata=g["_id"],
                hovertemplate="%{y}<br>%{x:,.4g}<br>id: %{customdata}<extra>%{fullData.name}</extra>",
            )
        )
    if hatched(df).any():
        fig.add_trace(hatch_legend())
    fig.update_layout(barmode="overlay")
    fig.update_yaxes(categoryorder="array", categoryarray=list(df["label"]))
    fig.update_xaxes(type="linear", rangemode="tozero")
    direction = "higher is better" if higher_is_better else "lower is better"
    return finish(fig, x_title, "Run or reference", f"{x_title}, {direction} (best at the top)", bar_height(len(df)))


def _range_bars(g: pd.DataFrame) -> dict | None:
    """An estimate's stated range as an error bar (other rows have none)."""
    if "low" not in g.columns or "high" not in g.columns or g["low"].isna().all():
        return None
    v = g["value_canonical"].astype(float)
    return {
        "type": "data", "symmetric": False, "array": (g["high"].astype(float) - v).fillna(0).tolist(),
        "arrayminus": (v - g["low"].astype(float)).fillna(0).tolist(), "color": "#555", "thickness": 1.2,
    }  # fmt: skip


def _row_ids(df: pd.DataFrame) -> list[str]:
    """The internal id of each row for the hover: its run_id, ref_id or rate id ('—' when none)."""
    out = []
    for rec in df.to_dict("records"):
        found = next((rec[c] for c in ("id", "run_id", "ref_id") if isinstance(rec.get(c), str) and rec[c]), "—")
        out.append(str(found))
    return out


def speedup_text(s: float) -> str:
    """'711×', '21.9×', '3.64×': whole numbers from 100× up (a tenth of 711× says nothing)."""
    return f"{s:,.0f}×" if s >= 100 else f"{short_number(s)}×"


def speedup_chart(table: pd.DataFrame, baseline_label: str) -> go.Figure:
    """Speedup over the baseline on a log axis (½× and 2× equally far from 1×), with the 1× line.

    `table` must say what it divided (`basis`: "rate", or "time, identical workload"): a ratio of raw times
    between different workloads is never drawn.
    """
    if "basis" not in table.columns or (table["basis"] == "time, different workload").any():
        raise ChartError("a speedup chart needs rates, or times of the identical workload (column 'basis')")
    if table.empty:
        return empty_figure("Choose a baseline that has a value for this metric.")
    data = table.sort_values("speedup", ascending=True, kind="stable")
    colours = [
        NEUTRAL if lab == baseline_label else GOOD if s >= 1 else BAD
        for lab, s in zip(data["label"], data["speedup"], strict=True)
    ]
    # an estimate is never drawn like a measurement: hatched, as on the rate chart
    is_estimate = list(data["origin"] == "estimate") if "origin" in data.columns else [False] * len(data)
    fig = go.Figure(
        go.Bar(
            y=data["label"],
            x=data["speedup"],
            orientation="h",
            marker={"color": colours, "pattern": {"shape": ["/" if e else "" for e in is_estimate]}},
            text=[speedup_text(s) for s in data["speedup"]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}<br>%{x:.3g}× the baseline<extra></extra>",
            showlegend=False,
        )
    )
    if any(is_estimate):
        fig.add_trace(hatch_legend())
    fig.add_vline(x=1, line_dash="dot", line_color=NEUTRAL)
    tickvals, ticktext = speedup_ticks(list(data["speedup"]))
    fig.update_xaxes(type="log", tickvals=tickvals, ticktext=ticktext)
    fig.update_yaxes(categoryorder="array", categoryarray=list(data["label"]))
    return finish(
        fig,
        "Times faster than the baseline (×, log scale; dotted line = 1×)",
        "Run or reference",
        f"Times faster than {baseline_label} (green = faster, red = slower)",
        bar_height(len(data)),
    )


def batch_chart(sweep: pd.DataFrame) -> go.Figure:
    """Throughput vs global batch size, one line per model · hardware · precision (log2 batch axis)."""
    if sweep.empty:
        return empty_figure("No throughput rows with a batch size among the chosen rows.")
    fig = go.Figure()
    for i, (group, g) in enumerate(sweep.groupby("group", sort=True)):
        fig.add_trace(
            go.Scatter(
                x=g["batch_size"],
                y=g["value_canonical"],
                mode="lines+markers",
                name=str(group),
                line={"color": PALETTE[i % len(PALETTE)]},
                text=g["label"],
                hovertemplate="%{text}<br>batch %{x:,}<br>%{y:,.4g} examples/s<extra></extra>",
            )
        )
    batches = sorted(set(sweep["batch_size"].astype(int)))
    fig.update_xaxes(type="log", tickvals=batches, ticktext=[f"{b:,}" for b in batches])
    fig.update_yaxes(**value_axis(sweep["value_canonical"], wants_log(sweep["value_canonical"])))
    return finish(
        fig, "Global batch size (examples per step, log scale)", "Throughput (examples/s)", "Throughput vs batch size"
    )


def scaling_chart(table: pd.DataFrame) -> go.Figure:
    """Measured throughput vs replicas (solid) against ideal linear scaling (dashed), efficiency in labels."""
    if table.empty:
        return empty_figure("No throughput rows with a device count among the chosen rows.")
    fig = go.Figure()
    for i, (group, g) in enumerate(table.groupby("group", sort=True)):
        colour = PALETTE[i % len(PALETTE)]
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
                name="ideal (linear)",
                legendgroup="ideal",
                showlegend=i == 0,  # one legend entry explains every dashed line
                line={"color": colour, "dash": "dash", "width": 1},
                hoverinfo="skip",
            )
        )
    counts = sorted(set(table["replicas"].astype(float)))
    fig.update_xaxes(tickvals=counts, ticktext=[f"{c:g}" for c in counts])
    return finish(
        fig,
        "Replicas (devices in sync)",
        "Throughput (examples/s)",
        "Throughput vs replicas (labels: scaling efficiency)",
    )


def step_box(samples: pd.DataFrame) -> go.Figure:
    """Step-time (or repeat-time) distribution per run as horizontal box plots."""
    if samples.empty:
        return empty_figure("None of the chosen runs has per-step records.")
    fig = go.Figure()
    labels = list(dict.fromkeys(samples["label"]))
    for label, g in samples.groupby("label", sort=False):
        fig.add_trace(
            go.Box(x=g["step_time_ms"], name=str(label), orientation="h", boxpoints="outliers", showlegend=False)
        )
    fig.update_xaxes(**value_axis(samples["step_time_ms"], wants_log(samples["step_time_ms"])))
    return finish(fig, "Step time (ms)", "Run", "Step-time distribution (steady state)", bar_height(len(labels) * 2))


def epoch_chart(epochs: pd.DataFrame, column: str, y_title: str) -> go.Figure:
    """One line per run of a per-epoch quantity (loss, accuracy …)."""
    data = epochs.dropna(subset=[column]) if column in epochs.columns else epochs.iloc[0:0]
    if data.empty:
        return empty_figure(f"No run among the chosen ones logged {column.replace('_', ' ')}.")
    fig = go.Figure()
    for label, g in data.groupby("label", sort=False):
        fig.add_trace(go.Scatter(x=g["epoch"], y=g[column], mode="lines+markers", name=str(label)))
    fig.update_xaxes(dtick=1)
    return finish(fig, "Epoch", y_title, y_title + " per epoch")


def cost_chart(costs: pd.DataFrame, column: str, x_title: str) -> go.Figure:
    if column not in costs.columns or costs[column].dropna().empty:
        return empty_figure("Enter a price per hour for at least one row to see its cost.")
    data = costs.dropna(subset=[column]).sort_values(column, ascending=False)
    fig = go.Figure(
        go.Bar(
            y=data["label"],
            x=data[column],
            orientation="h",
            marker_color=ORIGIN_COLOURS["reference"],
            text=[f"${short_number(v)}" for v in data[column]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}<br>$%{x:,.4g}<extra></extra>",
        )
    )
    fig.update_xaxes(**value_axis(data[column], wants_log(data[column])))
    return finish(fig, x_title, "Run or reference", x_title + " (lower is better)", bar_height(len(data)))
