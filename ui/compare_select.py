"""Compare page helpers: the reference data (cached), and the pickers for runs and reference rows.

A run can arrive preselected from a link (`?run=<run_id>`, as the Run and Home pages make) or
from st.session_state["run_id"]; it is added to the selection once, so the user can still remove it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.compare.facts.likeforlike import rate_of_run
from engine.compare.picks import default_rows
from engine.compare.words.tables import reference_label, run_label
from engine.reference.data import REFERENCE_CSV, ReferenceSchemaError, load_reference
from ui.common import plain


@st.cache_data(max_entries=4, show_spinner=False)
def _load(path: str, mtime: float) -> pd.DataFrame:
    return load_reference(path)


def reference() -> pd.DataFrame | None:
    """The curated reference rows, or None with the reason shown (the page still works without them)."""
    try:
        return _load(str(REFERENCE_CSV), REFERENCE_CSV.stat().st_mtime)
    except FileNotFoundError:
        st.warning(f"The reference numbers are missing (`{REFERENCE_CSV.name}`); comparing runs only.")
    except ReferenceSchemaError as exc:
        st.warning(f"The reference numbers could not be read ({exc}); comparing runs only.")
    return None


def _run_option(run: dict, full: bool = False) -> str:
    """A run's picker label, short enough for a half-width picker at 1366 px (month-day time, "imported"); `full`
    adds the year and the file it was imported from (the caption under the picker)."""
    source = str(run.get("source") or "local")
    origin = source.removeprefix("import:")
    where = (f" · imported ({origin})" if full else " · imported") if source.startswith("import") else ""
    when = str(run.get("created_at", ""))[:16].replace("T", " ")
    return f"{run_label(run)}{where} · {when if full else when[5:]}"


def chosen_caption(labels: list[str]) -> None:
    """The chosen rows' full labels under a picker: its chips and options are cut at a narrow width, this wraps."""
    if labels:
        st.caption("  \n".join(f"• {plain(x)}" for x in labels))


def reference_option(row: dict, full: bool = False) -> str:
    """'V100 · resnet50 · bs 128 · 1,234 examples/s' in the picker (the unit says what the number is); `full` adds
    the metric's own name and the source (the caption under the picker)."""
    value = f"{row['value']:,.4g}" if abs(row["value"]) < 1e4 else f"{row['value']:,.0f}"
    label = reference_label(row)
    if not full:
        return f"{label.rsplit(' · ', 1)[0] if ' · ' in label else label} · {value} {row['unit']}"
    return f"{label} · {row['metric']} {value} {row['unit']}"


def pick_runs(runs: list[dict]) -> list[dict]:
    """The runs to compare (finished ok ones), with a linked run preselected."""
    by_id = {r["run_id"]: r for r in runs}
    linked = st.query_params.get("run") or st.session_state.get("run_id")
    if "cmp_runs" not in st.session_state:
        # Opened from the menu: the newest run alone, against its own references — never two different models
        st.session_state["cmp_runs"] = [linked] if linked in by_id else list(by_id)[:1]
    if linked in by_id and st.session_state.get("cmp_linked") != linked:
        st.session_state["cmp_linked"] = linked  # a new link: add its run once
        if linked not in st.session_state["cmp_runs"]:
            st.session_state["cmp_runs"] = [linked, *st.session_state["cmp_runs"]]
    st.session_state["cmp_runs"] = [r for r in st.session_state["cmp_runs"] if r in by_id]
    _pick_sweep(runs)
    if linked and linked not in by_id:
        st.caption(
            f"Run {linked} has no finished result yet (still running, or it failed); it will appear here once it is ok."
        )
    chosen = st.multiselect(
        "Runs (this machine and imported)",
        list(by_id),
        key="cmp_runs",
        format_func=lambda rid: _run_option(by_id[rid]),
        placeholder="choose runs" if by_id else "no finished runs yet",
        help="Finished runs from the results store; runs imported on the History page show where they came from.",
    )
    chosen_caption([_run_option(by_id[r], full=True) for r in chosen])
    return [by_id[r] for r in chosen]


def _pick_sweep(runs: list[dict]) -> None:
    """'Whole sweep': put every finished cell of one sweep (engine sweep) in the run picker at once."""
    sweeps: dict[str, list[str]] = {}
    for r in runs:
        if r.get("sweep_id"):
            sweeps.setdefault(str(r["sweep_id"]), []).append(r["run_id"])
    if not sweeps:
        return

    def take() -> None:
        chosen = st.session_state.get("cmp_sweep")
        if chosen:
            st.session_state["cmp_runs"] = list(sweeps[chosen])

    st.selectbox(
        "Whole sweep",
        list(sweeps),
        index=None,
        key="cmp_sweep",
        on_change=take,
        format_func=lambda sid: f"{sid} ({len(sweeps[sid])} finished runs)",
        placeholder="pick a sweep to compare all its runs",
        help="A sweep's cells (python -m engine sweep, or the Sweep page) replace the runs chosen below.",
    )


def pick_references(ref: pd.DataFrame | None, runs: list[dict]) -> pd.DataFrame:
    """Reference rows to show; preselects one row per device kind for the first chosen run's workload (measured
    by AccelBench, else published; nearest precision first — engine.compare.picks)."""
    if ref is None:
        return pd.DataFrame()
    usable = ref[~ref["metric"].isin(["speedup_vs", "perf_per_watt_ratio", "power_ratio"]) & (ref["task"] != "spec")]
    ops = {("matmul" if r["kind"] == "matmul" else "conv2d" if r["kind"] == "conv2d" else r.get("model")) for r in runs}
    same = st.toggle(
        "Only references for the chosen runs' model or operation",
        value=bool(runs),
        key="cmp_ref_same",
        disabled=not runs,
        help="Off: every reference row (throughput, times) can be picked.",
    )
    candidates = usable[usable["model"].isin(ops)] if same and runs else usable
    ids = list(candidates["ref_id"])
    if "cmp_refs" not in st.session_state or st.session_state.get("cmp_refs_for") != tuple(sorted(o for o in ops if o)):
        st.session_state["cmp_refs_for"] = tuple(sorted(o for o in ops if o))
        base = rate_of_run(runs[0]) if runs else None
        best = [r.id for r in default_rows(base, ref, estimates=False)] if base else []
        st.session_state["cmp_refs"] = [i for i in best if i in ids]
    st.session_state["cmp_refs"] = [i for i in st.session_state["cmp_refs"] if i in ids]
    records = {r["ref_id"]: r for r in candidates.to_dict("records")}
    labels = {i: reference_option(r) for i, r in records.items()}
    chosen = st.multiselect(
        "Reference rows (published, or measured by AccelBench)",
        ids,
        key="cmp_refs",
        format_func=lambda i: labels.get(i, i),
        placeholder="choose reference rows" if ids else "no reference rows for this model or operation",
        help="Preselected: one row per device kind for the first chosen run's model (measured by AccelBench where it "
        "exists, else published), nearest precision first. Rows of another model or input shape are listed apart.",
    )
    chosen_caption([reference_option(records[i], full=True) for i in chosen if i in records])
    return ref[ref["ref_id"].isin(chosen)]
