"""The Run page's "Find the largest batch" button: starts `engine sweep --max-batch` for the checked
training spec in the background and links to the Sweep page, where its attempts appear as they end."""

from __future__ import annotations

import streamlit as st

from engine.catalog.specs import Spec, TrainSpec
from engine.runs.store import Store
from engine.sweep.background import start_max_batch
from ui.common import page_link


def max_batch_button(spec: Spec | None, db: Store, disabled: bool) -> None:
    """Shown for a training spec; a search doubles then bisects the batch size, one fresh worker per try."""
    if not isinstance(spec, TrainSpec):
        return
    if st.button(
        "Find the largest batch",
        key="run_max_batch",
        icon=":material/straighten:",
        disabled=disabled,
        width="stretch",
        help=f"Runs this model from batch {spec.batch_size} upwards (doubling, then bisecting) until a run runs out "
        "of memory; each try is its own run. Results on the Sweep page.",
    ):
        sweep_id, _ = start_max_batch(spec, db)
        st.session_state["run_max_batch_sweep"] = sweep_id
    started = st.session_state.get("run_max_batch_sweep")
    if started:
        st.caption(f"Largest-batch search {started} started.")
        page_link(
            "pages/sweep.py",
            "Follow it on the Sweep page",
            icon=":material/grid_view:",
            query_params={"sweep": started},
        )
