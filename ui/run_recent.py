"""The Run page's table of this session's runs; picking one shows it on the page."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.catalog import backends
from engine.results.schema import ResultRow
from engine.results.status import ACTIVE_STATUSES
from ui.common import show_table, store
from ui.status import list_text

POLL_S = 2.0


def recent_runs(run_ids: list[str]) -> None:
    """This session's runs, newest first; pick one to show it above."""
    st.subheader("Runs in this session")
    db = store()
    rows = [r for r in (db.get_run(rid) for rid in reversed(run_ids)) if r]
    if not rows:
        st.caption("Runs you launch here are listed for this browser session; all runs are under History.")
        return
    active = any(r["status"] in ACTIVE_STATUSES for r in rows)

    # Its own timer while a run is active: the live panel reruns only itself, so a table drawn once at
    # launch would say `queued` for the whole run. The run's end reruns the page, which drops the timer.
    @st.fragment(run_every=POLL_S if active else None)
    def _table() -> None:
        _session_table([r for r in (store().get_run(rid) for rid in reversed(run_ids)) if r])

    _table()
    if len(rows) > 1:  # outside the fragment: picking a run must rerun the whole page to show it above
        st.selectbox(
            "Show a run from this session",
            [r["run_id"] for r in rows],
            index=None,
            placeholder="pick a run to show its result above",
            key="run_show_pick",
            on_change=_show_picked,
        )


def _session_table(rows: list[ResultRow]) -> None:
    df = pd.DataFrame(rows)
    df["created_at"] = pd.to_datetime(df["created_at"], utc=True, errors="coerce")
    for col in ("step_time_ms_median", "gflops", "examples_per_sec"):
        df[col] = pd.to_numeric(df[col], errors="coerce")  # a running run's None must show empty, not "None"
    df["what"] = [r["model"] if r["kind"] == "train" else f"{r['kind']} {r.get('shape') or ''}" for r in rows]
    # "running…" in a narrow cell reads as a word cut off: the table says just "running"
    df["status"] = [list_text(r.get("status") or "").removesuffix("…") for r in rows]
    # device and backend in one cell, so the table fits a 1366 px screen without a horizontal scroll
    df["device"] = [f"{(r.get('device') or '?').upper()} · {backends.short_label(r.get('backend'))}" for r in rows]
    cols = [
        "created_at",
        "run_id",
        "status",
        "what",
        "device",
        "dtype",
        "xla",
        "step_time_ms_median",
        "gflops",
        "examples_per_sec",
    ]
    show_table(
        df[cols],
        hide_index=True,
        key="run_recent_table",
        column_config={
            "created_at": st.column_config.DatetimeColumn("Started (UTC)", format="MM-DD HH:mm:ss"),
            "run_id": st.column_config.TextColumn("Run"),
            "status": st.column_config.TextColumn("Status"),
            "what": st.column_config.TextColumn("Workload"),
            "device": st.column_config.TextColumn("Device · backend"),
            "dtype": st.column_config.TextColumn("Data type"),
            "xla": st.column_config.CheckboxColumn("XLA"),
            "step_time_ms_median": st.column_config.NumberColumn(
                "Median (ms)", format="%.2f", help="Median time per step or repeat"
            ),
            "gflops": st.column_config.NumberColumn("GFLOP/s", format="%.1f"),
            "examples_per_sec": st.column_config.NumberColumn("Examples/s", format="%.1f"),
        },
    )


def _show_picked() -> None:
    picked = st.session_state.get("run_show_pick")
    if picked:
        st.session_state["run_id"] = picked
        st.query_params["run"] = picked
        st.session_state["run_show_pick"] = None
