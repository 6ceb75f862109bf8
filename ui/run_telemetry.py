"""The Run page's telemetry: the chart under the step-time chart (live while the run goes, from its
`telemetry` progress events; from the stored series once it has finished), the energy and cost
figures, and a CSV download of the samples. Energy that could not be measured is said so plainly."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from engine.charts import base as charts
from engine.charts.telemetry import telemetry_figure
from engine.runs import jobs
from engine.runs.progress import STEADY_WINDOW, TELEMETRY
from engine.runs.telemetry import NOT_MEASURABLE
from ui.common import fmt_num, plain, show_chart, store


def samples_csv(samples: Sequence[Mapping[str, Any]]) -> str:
    """The samples as CSV, one column per key seen (t first)."""
    keys = sorted({k for s in samples for k in s} - {"t", "event"})
    out = io.StringIO()
    writer = csv.DictWriter(out, ["t", *keys], extrasaction="ignore")
    writer.writeheader()
    writer.writerows(samples)
    return out.getvalue()


def _steady(db, run_id: str) -> tuple[float, float] | None:
    rows = db.get_series(run_id, STEADY_WINDOW)
    return (float(rows[0]["start"]), float(rows[0]["end"])) if rows else None


def live_telemetry(run_id: str) -> None:
    """The chart while the run goes (called inside the live panel's fragment)."""
    db = store()
    samples = [dict(e) for e in jobs.progress_of(run_id, db) if e.get("event") == TELEMETRY]
    if len(samples) >= 2:
        st.plotly_chart(telemetry_figure(samples), key="run_live_telemetry", theme="streamlit")


def result_telemetry(run_id: str, row: Mapping[str, Any]) -> None:
    """Energy and cost figures and the stored telemetry chart of a finished run."""
    db = store()
    source = row.get("energy_source")
    if source == NOT_MEASURABLE:  # a sentence, not a metric: the words do not fit a metric tile
        st.caption(f"**Energy:** {NOT_MEASURABLE} — this machine exposes no energy counter or power reading.")
    elif source:
        cols = st.columns(4)
        cols[0].metric("Energy source", source)
        cols[1].metric("Average power (W)", fmt_num(row.get("avg_power_w"), 1))
        cols[2].metric("Examples per joule", fmt_num(row.get("examples_per_joule"), 2))
        cols[3].metric("USD per million examples", fmt_num(row.get("cost_usd_per_million_examples"), 4))
        if row.get("price_source"):
            st.caption(f"Price applied: {plain(str(row['price_source']))}")
        if row.get("energy_tdp_estimate_j"):
            st.caption(f"TDP-based ESTIMATE (not measured): {fmt_num(row.get('energy_tdp_estimate_j'), 1)} J")
    samples = db.get_series(run_id, TELEMETRY)
    if len(samples) < 2:
        return
    fig = telemetry_figure(samples, _steady(db, run_id))
    if not charts.is_empty(fig):
        show_chart(fig, "run_telemetry_chart", f"{run_id}_telemetry")
        st.download_button(
            "Telemetry samples (CSV)",
            samples_csv(samples),
            f"{run_id}_telemetry.csv",
            "text/csv",
            key="run_telemetry_csv",
            icon=":material/download:",
        )
