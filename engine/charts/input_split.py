"""The Run card's input bar (issue 38): one training step split into waiting for input and computing, from the
run's `input_wait_pct` and median step time. Its own module because engine.charts.run is at the size limit.
No streamlit here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go

from engine.charts.base import empty_figure, finish
from engine.compare.words.input_cap import finite_number

WAIT_COLOUR, COMPUTE_COLOUR = "#f97316", "#2563eb"  # orange / blue: both read on the light and the dark theme
SPLIT_X_TITLE = "Share of one training step (%)"
NO_SPLIT = (
    "This run did not measure how long its steps waited for input: it ran on synthetic data (no pipeline, "
    "the step alone) or before AccelBench measured pipelines (issue 38)."
)


def _ms(ms: float) -> str:
    """1,281 · 549 · 12.3 · 0.456: whole milliseconds from 100 up, never e-notation."""
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.3g}"


def step_split_ms(row: Mapping[str, Any]) -> tuple[float, float] | None:
    """(waiting for input, computing) of the median training step, in ms; None when the run has no wait share."""
    wait_pct, step_ms = finite_number(row.get("input_wait_pct")), finite_number(row.get("step_time_ms_median"))
    if wait_pct is None or step_ms is None or step_ms <= 0:
        return None
    wait_pct = min(max(wait_pct, 0.0), 100.0)
    return step_ms * wait_pct / 100.0, step_ms * (100.0 - wait_pct) / 100.0


def input_split_figure(row: Mapping[str, Any]) -> go.Figure:
    """One horizontal bar of 100 %: the share of the median step spent waiting for the next batch, then
    computing, each labelled with its milliseconds; an empty figure that says why for runs without it."""
    split = step_split_ms(row)
    if split is None:
        return empty_figure(NO_SPLIT, SPLIT_X_TITLE, "Step")
    wait_ms, compute_ms = split
    total = wait_ms + compute_ms
    fig = go.Figure()
    for name, ms, colour in (("waiting for input", wait_ms, WAIT_COLOUR), ("computing", compute_ms, COMPUTE_COLOUR)):
        pct = 100.0 * ms / total
        fig.add_trace(
            go.Bar(
                y=["median step"],
                x=[pct],
                orientation="h",
                name=f"{name} ({pct:.0f} %, {_ms(ms)} ms)",
                marker={"color": colour},
                text=[f"{name} {pct:.0f} %" if pct >= 12 else ""],  # no label squeezed into a sliver
                textposition="inside",
                insidetextanchor="middle",
                textfont={"color": "#ffffff"},
                hovertemplate=f"{name}: %{{x:.1f}} % of the step ({ms:,.4g} ms)<extra></extra>",
            )
        )
    fig.update_layout(barmode="stack", bargap=0.35, legend={"traceorder": "normal"})  # waiting first, as drawn
    fig.update_xaxes(range=[0, 100], ticksuffix=" %", fixedrange=True)
    fig.update_yaxes(showticklabels=False, fixedrange=True)
    title = f"Where the median step's {_ms(total)} ms went"
    return finish(fig, SPLIT_X_TITLE, "Step", title=title, height=170)
