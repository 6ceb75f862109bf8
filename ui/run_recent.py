"""The Run page's table of this session's runs; picking one shows it on the page."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.common import show_table, store


def recent_runs(run_ids: list[str]) -> None:
    """This session's runs, newest first; pick one to show it above."""
    db = store()
    rows = [r for r in (db.get_run(rid) for rid in reversed(run_ids)) if r]
    st.subheader("Runs in this session")
    if not rows:
        st.caption("Runs you launch here are listed for this browser session; all runs are under History.")
        return
    df = pd.DataFrame(rows)
    df["created_at"] = pd.to_datetime(df["created_at"], utc=True, errors="coerce")
    for col in ("step_time_ms_median", "gflops", "examples_per_sec"):
        df[col] = pd.to_numeric(df[col], errors="coerce")  # a running run's None must show empty, not "None"
    df["what"] = [r["model"] if r["kind"] == "train" else f"{r['kind']} {r.get('shape') or ''}" for r in rows]
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
            "created_at": st.column_config.DatetimeColumn("Started (UTC)", format="YYYY-MM-DD HH:mm:ss"),
            "run_id": st.column_config.TextColumn("Run"),
            "status": st.column_config.TextColumn("Status"),
            "what": st.column_config.TextColumn("Workload"),
            "device": st.column_config.TextColumn("Device"),
            "dtype": st.column_config.TextColumn("Data type"),
            "xla": st.column_config.CheckboxColumn("XLA"),
            "step_time_ms_median": st.column_config.NumberColumn("Median time (ms)", format="%.2f"),
            "gflops": st.column_config.NumberColumn("GFLOP/s", format="%.1f"),
            "examples_per_sec": st.column_config.NumberColumn("Examples/s", format="%.1f"),
        },
    )
    if len(rows) > 1:
        st.selectbox(
            "Show a run from this session",
            [r["run_id"] for r in rows],
            index=None,
            placeholder="pick a run to show its result above",
            key="run_show_pick",
            on_change=_show_picked,
        )


def _show_picked() -> None:
    picked = st.session_state.get("run_show_pick")
    if picked:
        st.session_state["run_id"] = picked
        st.query_params["run"] = picked
        st.session_state["run_show_pick"] = None
