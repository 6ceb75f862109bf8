"""Compare: runs from this machine and imported runs next to each other and next to published reference
numbers. At the top, the answer: every row as a rate of work (examples/s or GFLOP/s), how many times faster
each is than the baseline (your run by default), in one sentence, with a like-for-like grade per row. Below,
bars and speedup, throughput vs batch size and vs replicas, step-time distributions, loss/accuracy, cost.

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

from engine.compare.words import tables as cmp
from engine.runs import jobs
from ui import compare_answer as answer
from ui import compare_efficiency as efficiency
from ui import compare_imported as imported
from ui import compare_tabs as tabs
from ui import compare_which as which
from ui.common import demo_banner, page_link, plain, store
from ui.compare_select import pick_references, pick_runs, reference

st.title("Compare")
st.caption("Your runs side by side and against published numbers. Pick runs and reference rows, then a metric.")
demo_banner()

NEWEST = 500  # finished runs offered in the picker (a team store may hold 100,000)

db = store()
jobs.refresh(db)
runs = db.list_runs(statuses=["ok"], limit=NEWEST)
linked = st.query_params.get("run") or st.session_state.get("run_id")
if linked and linked not in {r["run_id"] for r in runs} and (old := db.get_run(linked)) and old["status"] == "ok":
    runs.append(old)  # a link to an older run still opens it here
ref = reference()

left, right = st.columns(2)
with left:
    chosen_runs = pick_runs(runs)
    chosen_imported = imported.pick_imported()
    if len(runs) >= NEWEST:
        st.caption(
            f"Only the newest {NEWEST} finished runs are listed. An older run opens here from its link (its Run "
            "page's *Compare this run with others*); the History page explores every run, with filters."
        )
with right:
    chosen_refs = pick_references(ref, chosen_runs)
    peaks = answer.pick_peaks(chosen_runs)

long = cmp.long_rows(chosen_runs, chosen_refs)
if long.empty and not peaks and not chosen_imported:
    st.info(
        "Pick at least one run or reference row above. No runs yet? Start the *Quick check* on Home (a few seconds) "
        "or set one up on the Run page; results from elsewhere can be imported on the History page.",
        icon=":material/lightbulb:",
    )
    page_link("pages/home.py", "Home — one-click experiments", icon=":material/home:")
    st.stop()

all_rates = answer.rates(chosen_runs, chosen_refs, peaks) + [r for r, _ in chosen_imported]
all_rates = answer.merged(all_rates, answer.estimates(chosen_runs, all_rates, ref))  # the one answer's rows
all_rates += answer.other_shapes_of(chosen_runs, ref)
result = answer.answer_box(all_rates, answer.user_prices(all_rates), chosen_runs[0] if chosen_runs else None)
imported.noise_notes(result, {r.id: b for r, b in chosen_imported})
which.which_section(chosen_runs, ref, runs)  # "Which device?": every GPU and TPU for the first training run

families = (["rate"] if result is not None and len(result.rows) > 1 else []) + cmp.families(long)
if not families:  # one imported row alone: the answer above is all there is
    st.stop()
if st.session_state.get("cmp_metric") not in families:
    st.session_state["cmp_metric"] = families[0]
family = st.selectbox("Metric", families, key="cmp_metric", format_func=cmp.family_label)
rows = answer.rate_rows(result) if family == "rate" and result is not None else cmp.for_family(long, family)
missing = sorted(set(long["label"]) - set(rows["label"])) if family != "rate" else []
if missing:
    st.caption(f"Not measured as {cmp.family_label(family).lower()}: {plain(', '.join(missing))}.")

if long.empty:  # imported rows only: their rates are all the tabs below would have
    tabs.bars_tab(rows, family)
    st.stop()

# Only the open tab is computed and drawn (tab state is tracked), so reading step and epoch series
# from the store happens only when someone looks at them.
names = ["Bars & speedup", "Batch size", "Scaling", "Step times", "Loss & accuracy", "Efficiency", "Cost", "Table"]
views = (
    lambda: tabs.bars_tab(rows, family),
    lambda: tabs.batch_tab(long),
    lambda: tabs.scaling_tab(long),
    lambda: tabs.steps_tab(chosen_runs),
    lambda: tabs.curves_tab(chosen_runs),
    lambda: efficiency.efficiency_tab(chosen_runs, all_rates, ref),
    lambda: tabs.cost_tab(long, chosen_runs, ref),
    lambda: tabs.table_tab(long),
)
for tab, view in zip(st.tabs(names, key="cmp_tab", on_change="rerun"), views, strict=True):
    if tab.open:
        with tab:
            view()
