"""One click from any page to a seed experiment: validate it like any request, start it, open the Run page.

Home's buttons and the empty states that offer a preset (Compare's "Which device?" with no training run) share
this, so a preset started from either place is the same request with the same demo caps.
"""

from __future__ import annotations

import streamlit as st

from engine.catalog import presets
from engine.catalog.specs import SpecError
from engine.runs import jobs
from ui.common import demo_mode, store, switch_page


def launch(key: str, device: str, backend: str = "tensorflow", error_key: str = "home_error") -> None:
    """Start preset `key` and go to the Run page; a refused request is kept under `error_key` as (key, words)."""
    demo = demo_mode()
    try:
        spec = jobs.prepare(presets.request_for(key, device, demo=demo, backend=backend), demo=demo)
    except SpecError as exc:
        st.session_state[error_key] = (key, presets.explain(exc))
        return
    run_id = jobs.launch(spec, store())
    st.session_state.pop(error_key, None)
    st.session_state["run_id"] = run_id
    st.query_params["run"] = run_id
    switch_page("pages/run.py", query_params={"run": run_id})
