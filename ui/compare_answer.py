"""The top of Compare: the answer as a sentence and a number, and the like-for-like grade of each row.

Every chosen run, reference row and datasheet peak becomes a rate of work (engine.compare.likeforlike);
the baseline is the user's own run unless they pick another row. Layout only; the arithmetic and the
sentence come from engine.compare.answer, the same as on the Run page and from `python -m engine compare`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.compare import answer as ans
from engine.compare import likeforlike as lfl
from engine.spec import hardware_table
from ui.common import plain, show_table

GRADE_ICON = {"baseline": "◎ baseline", "same": "● same", "close": "◐ close", "different": "○ different"}


def pick_peaks(runs: list[dict]) -> list[str]:
    """Datasheet peaks to add as rows (GFLOP/s, "peak, not measured") — for microbenchmarks."""
    keys = [d.key for d in hardware_table.DEVICES if d.peak_tflops]
    return st.multiselect(
        "Datasheet peaks (not measured)",
        keys,
        key="cmp_peaks",
        format_func=lambda k: f"{hardware_table.BY_KEY[k].short} peak",
        placeholder="e.g. A100, to ask how far a matmul is from it",
        help="A peak is a ceiling from the datasheet, in GFLOP/s; it compares with microbenchmarks only.",
    )


def rates(runs: list[dict], refs: pd.DataFrame, peaks: list[str]) -> list[lfl.Rate]:
    """The chosen rows as rates of work: runs first (measured), then references (measured or derived), then peaks."""
    out = [r for r in (lfl.rate_of_run(run) for run in runs) if r is not None]
    if refs is not None and len(refs):
        out += [r for r in (lfl.rate_of_reference(x) for x in refs.to_dict("records")) if r is not None]
    precision = str(next((r.get("dtype") for r in runs if r.get("kind") != "train"), "float32"))
    out += [r for r in (lfl.peak_rate(k, precision) for k in peaks) if r is not None]
    labels = [r.label for r in out]  # two runs on this machine: tell them apart by their id
    return [
        lfl.Rate(**{**r.__dict__, "label": f"{r.label} ({r.id[-6:]})"}) if labels.count(r.label) > 1 else r for r in out
    ]


def answer_box(all_rates: list[lfl.Rate]) -> ans.Answer | None:
    """Baseline picker, the sentence, the number and the grade table; None when nothing can be compared."""
    if not all_rates:
        st.caption("None of the chosen rows publishes a rate or a time that can be turned into one.")
        return None
    by_label = {r.label: r for r in all_rates}
    if st.session_state.get("cmp_baseline") not in by_label:
        st.session_state["cmp_baseline"] = all_rates[0].label  # the user's own run first
    base = by_label[st.selectbox("Baseline (1×)", list(by_label), key="cmp_baseline")]
    answer = ans.compare(base, all_rates)
    with st.container(border=True, key="cmp_answer"):
        if answer.headline:
            left, right = st.columns([4, 1])
            left.markdown(f"**{plain(answer.headline)}**")
            if answer.number and answer.low is not None and answer.high is not None:
                right.metric("Times faster", ans.times_range(answer.low, answer.high), help="rate ÷ baseline rate")
        elif len(answer.rows) < 2:
            st.caption("Add a reference row (or another run) in the same unit to see how many times faster it is.")
        grade_table(answer)
    if answer.left_out:
        st.caption("Left out (another unit): " + "; ".join(answer.left_out) + ".")
    return answer


def grade_table(answer: ans.Answer) -> None:
    rows = [
        {
            "Row": c.rate.label,
            "Rate": c.rate.value,
            "Unit": c.rate.unit,
            "× faster": c.speedup,
            "Like for like": GRADE_ICON[c.grade.grade if c.grade else "baseline"],
            "What differs most": ", ".join(c.grade.top) if c.grade else "—",
            "How the rate was found": c.rate.how,
        }
        for c in answer.rows
    ]
    show_table(
        pd.DataFrame(rows),
        hide_index=True,
        key="cmp_grade_table",
        column_config={
            "Rate": st.column_config.NumberColumn(format="%.4g"),
            "× faster": st.column_config.NumberColumn(format="%.3g×", help="rate ÷ the baseline's rate"),
        },
    )
    details = [(c.rate.label, c.grade.details) for c in answer.rows if c.grade and c.grade.details]
    if details:
        with st.expander("Every difference, row by row"):
            for label, lines in details:
                st.markdown(f"**{plain(label)}**\n" + "\n".join(f"- {plain(line)}" for line in lines))


def rate_rows(answer: ans.Answer) -> pd.DataFrame:
    """The answer's rows in the shape the bar and speedup charts take."""
    return pd.DataFrame(
        {
            "label": [c.rate.label for c in answer.rows],
            "origin": [c.rate.origin for c in answer.rows],
            "value_canonical": [c.rate.value for c in answer.rows],
            "doubtful": [c.rate.doubtful for c in answer.rows],
            "derived": [c.rate.derivation != "measured" for c in answer.rows],
            "device_type": [c.rate.device_type for c in answer.rows],
            "id": [c.rate.id for c in answer.rows],
            "speedup": [c.speedup for c in answer.rows],
            "basis": "rate",
            "unit": answer.baseline.unit,
        }
    )
