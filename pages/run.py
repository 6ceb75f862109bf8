"""Run page: pick a microbenchmark or a training run, see it validated, launch it, watch it, read the result.

The run lives in its own worker process (engine.runs.jobs); this page keeps only its run_id, in session
state and in the URL (?run=…), so a reload or a visit from the Home page reattaches to it.
"""

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # standalone runs put pages/ on the path, not the repo root
    sys.path.insert(0, str(ROOT))

from ui.frame import ensure_frame

ensure_frame(__file__)  # a bare deep link (/run?run=… on a fresh server) is routed through app.py first

from engine.runs import jobs
from ui.common import demo_banner, demo_mode, read_only_note, store
from ui.run_form import cli_command, run_form
from ui.run_launch import check, launch, ready_box
from ui.run_max_batch import max_batch_button
from ui.run_next import load_settings, next_run_note, shown_spec
from ui.run_progress import live_panel
from ui.run_recent import recent_runs
from ui.run_result import result_card, result_charts

st.title("Run a benchmark")
demo_banner()
demo = demo_mode()
st.session_state.setdefault("run_session_runs", [])

# The URL wins when it names a run (a reload, or a link from History/Home); session state covers a plain
# menu visit, where Streamlit drops the query string.
run_id = st.query_params.get("run") or st.session_state.get("run_id")
if run_id:
    # Mirror the run into both places: session state survives page switches, the URL survives a reload.
    st.session_state["run_id"] = run_id
    if st.query_params.get("run") != run_id:
        st.query_params["run"] = run_id
    if run_id not in st.session_state["run_session_runs"]:
        st.session_state["run_session_runs"].append(run_id)
db = store()
active = bool(run_id) and jobs.is_active(run_id, db)
shown = shown_spec(run_id, db)
if shown and "run_workload" not in st.session_state:
    load_settings(shown)  # a link to a run opens the form on that run's settings

# The run first — live progress, then its result — so after Launch it is on screen without scrolling;
# the form follows, collapsed and labelled as the next run while a run is shown.
row = None
if not run_id and db.read_only:
    st.info(
        "No run open. Runs cannot be launched on this dashboard (see the note beside **Launch run**); open a stored "
        "run from Home, History or Compare to see its result card here.",
        icon=":material/play_circle:",
    )
elif not run_id:
    st.info(
        "No run yet. Choose a workload below and press **Launch run** — the *Quick matmul 512³* preset finishes in "
        "seconds. Progress shows here while it runs, then the result card and a chart against the seed articles' numbers.",
        icon=":material/play_circle:",
    )
elif active:
    live_panel(run_id)
else:
    row = db.get_run(run_id)
    if row is None:
        st.warning(
            f"No run `{run_id}` in this results database (it may belong to another database).", icon=":material/help:"
        )
        if st.button("Forget it", key="run_forget"):
            st.session_state.pop("run_id", None)
            st.query_params.pop("run", None)
            st.rerun()
    else:
        result_card(run_id, row)

form_box = st.expander("Next run", expanded=False, icon=":material/tune:") if run_id else st.container()
with form_box:
    form_col, launch_col = st.columns([3, 2], gap="large")
    with form_col, st.container(border=True, key="run_form_box"):
        raw = run_form(demo)
    with launch_col:
        st.markdown("#### Check and launch")
        spec, problem = check(raw, demo)
        if spec is None:
            st.error(f"{problem}\n\nNothing has been launched; change the setting.", icon=":material/block:")
        else:
            ready_box(spec, db)
        if run_id:
            next_run_note(spec, shown)
        if active:
            st.caption(
                "A run from this page is still going; launch another once it ends (or cancel it) so they do not "
                "share the CPU."
            )
        if db.read_only:
            st.info(read_only_note(db), icon=":material/lock:")
        launched = st.button(
            "Launch run",
            key="run_launch",
            type="primary",
            icon=":material/play_arrow:",
            disabled=spec is None or active or db.read_only,
            width="stretch",
        )
        max_batch_button(spec, db, disabled=spec is None or active or db.read_only or demo)
        with st.expander("Same run from the command line"):
            st.code(cli_command(raw), language="bash")
if launched and spec is not None and not active:
    new_id, failure = launch(spec, db)
    if failure:
        st.error(failure, icon=":material/error:")
    else:
        st.session_state["run_id"] = new_id
        st.session_state["run_session_runs"].append(new_id)
        st.query_params["run"] = new_id
        st.rerun()

if row is not None and run_id:
    result_charts(run_id, row)
recent_runs(st.session_state["run_session_runs"])
