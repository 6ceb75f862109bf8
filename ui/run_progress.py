"""The Run page's live panel: a fragment that polls engine.runs.jobs while a run is active.

The fragment reruns on its own timer only while the run is queued/running (run_every is None
otherwise), and asks for one full rerun when the run ends so the page swaps in the result card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from engine.catalog import backends
from engine.charts.run import step_chart_titles, summarize_progress, time_series_figure
from engine.results.status import RunStatus
from engine.runs import jobs
from ui.common import fmt_num, fmt_seconds, owns_run, plain, store
from ui.run_telemetry import live_telemetry

POLL_S = 1.0


def run_title(row: Mapping[str, Any]) -> str:
    """'matmul (512x512)@(512x512) · float32 · CPU · TF' or 'fashion_cnn on synthetic · global batch 256 ·
    float32 · CPU · JAX': the backend too, as in every run label (engine.compare.words.tables.run_label)."""
    device = (row.get("device") or "?").upper()
    if row.get("kind") == "train":
        what = f"{row.get('model')} on {row.get('dataset')} · global batch {row.get('global_batch_size')}"
        numeric = row.get("precision") or ""
    else:
        what = f"{row.get('kind')} {row.get('shape') or ''}".strip()
        numeric = row.get("dtype") or ""
    xla = " · XLA" if row.get("xla") else ""
    return f"{what} · {numeric}{xla} · {device} · {backends.short_label(row.get('backend'))}"


def live_panel(run_id: str) -> None:
    """Progress of an active run, refreshed every POLL_S seconds while it is active."""
    active = jobs.is_active(run_id, store())

    @st.fragment(run_every=POLL_S if active else None)
    def _panel() -> None:
        db = store()
        if not jobs.is_active(run_id, db):
            st.rerun()  # the whole page, so the result card replaces this panel and the timer stops
        row = db.get_run(run_id) or {}
        view = summarize_progress(jobs.progress_of(run_id, db))
        with st.container(border=True, key="run_live"):
            head, cancel = st.columns([5, 1], vertical_alignment="center")
            with head:
                st.markdown(f"#### :material/pending: Running `{run_id}`")
                st.caption(plain(run_title(row)))
            with cancel:
                if owns_run(run_id) and st.button(
                    "Cancel run", key="run_cancel", icon=":material/stop_circle:", width="stretch"
                ):
                    jobs.cancel(run_id, db)
                    st.rerun()
            unit = "repeats" if view.x_title == "Repeat" else "steps"
            status = row.get("status", RunStatus.QUEUED)
            synced = " (finished on the device at its last sync)" if view.synced_windows else ""
            text = (
                f"{view.phase} — {view.done:,}/{view.total:,} {unit}{synced}"
                if view.total
                else f"{view.phase} ({status})"
            )
            st.progress(view.fraction, text=text)
            cols = st.columns(4)
            cols[0].metric(
                f"Current {view.rate_unit or 'rate'}",
                fmt_num(view.rate, 1),
                help="Median of the last few repeats/steps.",
            )
            cols[1].metric(
                "ETA",
                fmt_seconds(view.eta_s) if view.eta_s is not None else "—",
                help="Remaining steps × the synced time per step of the last few windows (steps are dispatched "
                "asynchronously, so only a device sync says how far the run really is)."
                if view.synced_windows
                else "Remaining repeats/steps × the recent median time.",
            )
            cols[2].metric("Elapsed", fmt_seconds(view.elapsed_s))
            if view.epoch:
                cols[3].metric(f"Loss after epoch {view.epoch.get('epoch')}", fmt_num(view.epoch.get("loss"), 4))
            else:
                cols[3].metric("Latest time", f"{view.time_ms[-1]:,.2f} ms" if view.time_ms else "—")
            if view.time_ms:
                x_title, title = (
                    step_chart_titles(True) if view.synced_windows else (view.x_title, f"{view.x_title} time so far")
                )
                fig = time_series_figure(view.x, view.time_ms, x_title, title)
                st.plotly_chart(fig, key="run_live_chart", width="stretch")
            else:
                st.caption("Times appear here once the warm-up is over; tracing and compiling are not timed.")
            live_telemetry(run_id)  # issue 12: power, utilisation, memory under the step-time chart

    _panel()
