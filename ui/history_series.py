"""History page: the "Run series" tab — an exported run's own curves (step times, epochs, repeat times,
telemetry), for exports that carried them (`results export --series`), drawn with the Run page's figures."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from engine.charts import run as charts_run
from engine.charts.telemetry import telemetry_figure
from engine.runs.progress import STEADY_WINDOW, TELEMETRY
from ui.common import show_chart

RunSeries = dict[str, list[dict[str, Any]]]


def _label(row: pd.Series) -> str:
    what = row.get("workload") if pd.notna(row.get("workload")) else row.get("kind")
    return f"{row['run_id']} · {what} · {row.get('device_label', '')}"


def series_tab(df: pd.DataFrame, run_series: dict[str, RunSeries]) -> None:
    """Pick one loaded run that carries series; its curves follow."""
    rows = df[df["run_id"].astype(str).isin(run_series)] if "run_id" in df.columns else df.iloc[0:0]
    if rows.empty:
        st.info("None of the filtered runs carries series (steps, epochs, telemetry).", icon=":material/info:")
        return
    labels = {_label(r): str(r["run_id"]) for _, r in rows.iterrows()}
    picked = st.selectbox("Run", list(labels), key="hist_series_run", help="Runs exported with --series")
    run_id = labels[picked]
    series = run_series[run_id]
    steps, epochs, repeats = series.get("step", []), series.get("epoch", []), series.get("repeat", [])
    if steps:
        x_title, title = charts_run.step_chart_titles(any(s.get("window_steps") for s in steps))
        xs = [int(s.get("global_step") or s.get("step") or i + 1) for i, s in enumerate(steps)]
        fig = charts_run.time_series_figure(xs, [float(s["step_time_ms"]) for s in steps], x_title, title)
        show_chart(fig, "hist_series_steps", f"{run_id}_step_time")
    if epochs:
        show_chart(charts_run.epoch_figure(epochs), "hist_series_epochs", f"{run_id}_epochs")
    if repeats:
        xs = [int(r.get("repeat", i + 1)) for i, r in enumerate(repeats)]
        ys = [float(r["time_ms"]) for r in repeats]
        fig = charts_run.time_series_figure(xs, ys, "Timed repeat", "Time per repeat (warm-up excluded)")
        show_chart(fig, "hist_series_repeats", f"{run_id}_repeat_time")
    samples = series.get(TELEMETRY, [])
    if len(samples) >= 2:
        window = series.get(STEADY_WINDOW) or []
        steady = (float(window[0]["start"]), float(window[0]["end"])) if window else None
        show_chart(telemetry_figure(samples, steady), "hist_series_telemetry", f"{run_id}_telemetry")
    st.caption(", ".join(f"{kind}: {len(records):,} records" for kind, records in sorted(series.items())))
