"""Compare: runs from this machine and imported runs next to each other and next to published reference
numbers — bars and speedup over a chosen baseline, throughput vs batch size and vs replicas, step-time
distributions, loss/accuracy per epoch, cost — with a warning whenever the rows are not like for like.

A link `?run=<run_id>` (from the Run and Home pages) preselects that run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # standalone runs put pages/ on the path, not the repo root
    sys.path.insert(0, str(ROOT))

from ui.frame import ensure_frame

ensure_frame(__file__)  # a deep link to a fresh server is routed through app.py (menu, wide layout)

from engine.reference import compare as cmp
from engine.reference.comparability import comparability_warnings
from engine.results.status import RunStatus
from engine.runs import jobs
from ui import compare_tabs as tabs
from ui.common import demo_banner, page_link, store
from ui.compare_select import pick_references, pick_runs, reference

st.title("Compare")
st.caption("Your runs side by side and against published numbers. Pick runs and reference rows, then a metric.")
demo_banner()

db = store()
jobs.refresh(db)
runs = db.list_runs(statuses=[RunStatus.OK], limit=500)
ref = reference()

left, right = st.columns(2)
with left:
    chosen_runs = pick_runs(runs)
with right:
    chosen_refs = pick_references(ref, chosen_runs)

long = cmp.long_rows(chosen_runs, chosen_refs)
if long.empty:
    st.info(
        "Pick at least one run or reference row above. No runs yet? Start the *Quick check* on Home (a few seconds) "
        "or set one up on the Run page; results from elsewhere can be imported on the History page.",
        icon=":material/lightbulb:",
    )
    page_link("pages/home.py", "Home — one-click experiments", icon=":material/home:")
    st.stop()

families = cmp.families(long)
if st.session_state.get("cmp_metric") not in families:
    st.session_state["cmp_metric"] = families[0]
family = st.selectbox("Metric", families, key="cmp_metric", format_func=cmp.family_label)
rows = cmp.for_family(long, family)
missing = sorted(set(long["label"]) - set(rows["label"]))
if missing:
    st.caption(f"Not measured as {cmp.family_label(family).lower()}: {', '.join(missing)}.")

# the warnings name rows as the charts do (by label), not by hardware alone
warnings = comparability_warnings(rows.assign(hardware=rows["label"])) if len(rows) > 1 else []
if warnings:
    st.warning(
        "**Not like for like** — these rows differ in settings that change speed:\n\n"
        + "\n".join(f"- {w}" for w in warnings),
        icon=":material/warning:",
    )

# Only the open tab is computed and drawn (tab state is tracked), so reading step and epoch series
# from the store happens only when someone looks at them.
names = ["Bars & speedup", "Batch size", "Scaling", "Step times", "Loss & accuracy", "Cost", "Table"]
views = (
    lambda: tabs.bars_tab(rows, family),
    lambda: tabs.batch_tab(long),
    lambda: tabs.scaling_tab(long),
    lambda: tabs.steps_tab(chosen_runs),
    lambda: tabs.curves_tab(chosen_runs),
    lambda: tabs.cost_tab(long, chosen_runs, ref),
    lambda: tabs.table_tab(long),
)
for tab, view in zip(st.tabs(names, key="cmp_tab", on_change="rerun"), views, strict=True):
    if tab.open:
        with tab:
            view()
