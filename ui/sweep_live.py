"""The Sweep page's live part: the cell grid with each cell's status, refreshing itself every 2 s while a
cell is queued or running, and the button that cancels the whole sweep."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.results.status import ACTIVE_STATUSES
from engine.runs import jobs
from engine.sweep import status, summary
from ui.common import show_table, store
from ui.status import list_text

POLL_S = 2.0


def cancel_button(sweep_id: str, active: int, read_only: bool) -> None:
    """Cancel every queued or running cell (their workers stop where they run: here or on a Ray node)."""
    if st.button(
        f"Cancel the sweep ({active} cells left)" if active else "Cancel the sweep",
        key="sweep_cancel",
        icon=":material/cancel:",
        disabled=not active or read_only,
        help="Marks every queued or running cell cancelled; each worker is stopped on the machine that runs it.",
    ):
        changed = status.cancel_sweep(store(), sweep_id)
        st.session_state["sweep_note"] = f"Cancelled {len(changed)} cells."
        st.rerun()


def live_grid(sweep_id: str) -> None:
    active_now = _active(sweep_id)

    @st.fragment(run_every=POLL_S if active_now else None)
    def grid() -> None:
        db = store()
        jobs.refresh(db)  # a local worker that died is marked here
        rows = status.sweep_rows(db, sweep_id)
        table = summary.grid(rows)
        table["status"] = [list_text(s).removesuffix("…") for s in table["status"]]
        done = sum(r.get("status") not in ACTIVE_STATUSES for r in rows)
        st.progress(done / max(1, len(rows)), text=f"{done} of {len(rows)} cells ended")
        show_table(summary.status_grid(rows), key="sweep_status_grid")
        st.caption("✓ ok (examples/s) · ▶ running · … queued · ✗ failed · ■ cancelled · ⚠ interrupted · ◔ timeout")
        with st.expander("Every cell, with its machine, cost and reason"):
            _cell_table(table)
        left = sum(r.get("status") in ACTIVE_STATUSES for r in rows)
        cancel_button(sweep_id, left, db.read_only)
        if active_now and not left:
            st.rerun()  # the last cell ended: a full rerun redraws the charts and stops the timer

    grid()


def _cell_table(table: pd.DataFrame) -> None:
    show_table(
        table,
        hide_index=True,
        key="sweep_grid",
        column_config={
            "cell": st.column_config.TextColumn("Cell (model dataset precision backend device)", width="large"),
            "batch_size": st.column_config.NumberColumn("Batch"),
            "status": "Status",
            "machine": "Machine",
            "examples_per_sec": st.column_config.NumberColumn("examples/s", format="%.1f"),
            "usd_per_million_examples": st.column_config.NumberColumn("USD / M examples", format="%.3f"),
            "error": st.column_config.TextColumn("Why it did not finish", width="medium"),
            "run_id": "Run",
        },
    )


def _active(sweep_id: str) -> bool:
    return not status.is_finished(store(), sweep_id)
