"""The top of Compare: the answer as a sentence and a number, and the like-for-like grade of each row.

Every chosen run, reference row and datasheet peak becomes a rate of work (engine.compare.facts.likeforlike);
the baseline is the user's own run unless they pick another row. Layout only; the arithmetic and the
sentence come from engine.compare.answer, the same as on the Run page and from `python -m engine compare`.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from engine.catalog import hardware_table
from engine.compare import answer as ans
from engine.compare.evidence.rates import runs_of, store_rates
from engine.compare.facts import likeforlike as lfl
from engine.compare.picks import automatic_rows, other_shapes
from ui.common import plain, show_table

BASIS = {
    "measured": "measured", "scaled": "scaled", "published": "published", "estimate": "ESTIMATE",
    "peak": "datasheet peak",
}  # fmt: skip
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
    return [replace(r, label=f"{r.label} ({r.id[-6:]})") if labels.count(r.label) > 1 else r for r in out]


def estimates(
    runs: list[dict], chosen: list[lfl.Rate], ref: pd.DataFrame | None, store_runs: list[dict] | None = None
) -> list[lfl.Rate]:
    """The automatic rows for the first run, in the order of evidence (engine.compare.picks.automatic_rows): your
    store's runs on devices no chosen row measured, a scaled row for a chosen published device AccelBench did not
    measure, then estimates (labelled, with a range) for the rentable devices still uncovered. `store_runs`:
    the store's finished runs (default: read from the page's store)."""
    base = next((r for r in (lfl.rate_of_run(run) for run in runs[:1]) if r is not None), None)
    on = st.toggle(
        "Estimates for devices nobody measured",
        value=True,
        key="cmp_estimates",
        disabled=base is None or base.task != "training",
        help="Scaled from this model's measured or published rate on another device by the ratio seen on other "
        "models of the same kind; without one, a step-time model of its FLOPs and bytes moved on that device's peak and "
        "bandwidth, fitted on measured and published figures. Always drawn hatched and named 'estimate'.",
    )
    if base is None:
        return []
    if store_runs is None:
        from ui.common import store

        store_runs = runs_of(store())
    rows = automatic_rows(base, ref, chosen, store_rates(base, store_runs))
    return [r for r in rows if r.basis != "estimate" or (on and base.task == "training")]


def merged(chosen: list[lfl.Rate], automatic: list[lfl.Rate]) -> list[lfl.Rate]:
    """The chosen rows, each in the answer's own form where the answer holds it too (a published figure of
    another stack tagged as beside the scale, so it is listed, never the headline: engine.compare.picks), then the
    answer's other rows — one figure per device, as in "Which device?"."""
    by_id = {r.id: r for r in automatic}
    ids = {r.id for r in chosen}
    return [by_id.get(r.id, r) for r in chosen] + [r for r in automatic if r.id not in ids]


def other_shapes_of(runs: list[dict], ref: pd.DataFrame | None) -> list[lfl.Rate]:
    """The first run's model or operation at other input shapes: listed apart as other workloads, never in a ratio."""
    base = next((r for r in (lfl.rate_of_run(run) for run in runs[:1]) if r is not None), None)
    return other_shapes(base, ref) if base is not None else []


def user_prices(rates: list[lfl.Rate]) -> dict[str, float]:
    """The user's own USD per hour for one device, per device kind in the answer (blank: the price table's)."""
    keys = sorted({r.hardware_key for r in rates if r.device_type in ("gpu", "tpu") and r.hardware_key})
    if not keys:
        return {}
    with st.expander("Your prices (USD per hour for one device)"):
        st.caption("Blank uses the price table's on-demand price; the answer says whose price it used.")
        frame = pd.DataFrame({"device": keys, "usd_per_hour": [None] * len(keys)})
        edited = st.data_editor(
            frame,
            key="cmp_user_prices",
            hide_index=True,
            disabled=["device"],
            column_config={
                "device": st.column_config.TextColumn("Device", width="small"),
                "usd_per_hour": st.column_config.NumberColumn("Your price (USD/h)", min_value=0.0, format="$%.2f"),
            },
        )
    return {d: float(p) for d, p in zip(edited["device"], edited["usd_per_hour"], strict=True) if pd.notna(p) and p}


def answer_box(
    all_rates: list[lfl.Rate], prices: dict[str, float] | None = None, run: dict | None = None
) -> ans.Answer | None:
    """Baseline picker, the sentence, the number and the grade table; None when nothing can be compared. `run`:
    the first chosen run — while it is the baseline, each device is held to what the run's input pipeline would
    deliver on that offer's host, the one cap rule of every answer (engine.compare.words.input_cap)."""
    if not all_rates:
        st.caption("None of the chosen rows publishes a rate or a time that can be turned into one.")
        return None
    by_label = {r.label: r for r in all_rates}
    if st.session_state.get("cmp_baseline") not in by_label:
        st.session_state["cmp_baseline"] = all_rates[0].label  # the user's own run first
    base = by_label[st.selectbox("Baseline (1×)", list(by_label), key="cmp_baseline")]
    answer = ans.compare(base, all_rates, prices)
    if run is not None and (own := lfl.rate_of_run(run)) is not None and own.id == base.id:
        from engine.compare.words.input_cap import with_input_caps

        answer = with_input_caps(answer, run)
    with st.container(border=True, key="cmp_answer"):
        if answer.headline:
            left, right = st.columns([4, 1])
            left.markdown(f"**{plain(answer.headline)}**")
            if answer.number and answer.low is not None and answer.high is not None:
                word = {
                    "estimate": "Times faster (estimate)", "scaled": "Times faster (scaled)", "peak": "Times the rate"
                }.get(answer.basis or "", "")  # fmt: skip
                ceiling = "≤ " if answer.bound == "at most" else ""  # held at the fastest measured step
                right.metric(
                    word or "Times faster, one device",
                    ceiling + ans.times_range(answer.low, answer.high),
                    help="one device's rate ÷ the baseline's rate, same workload",
                )
                if answer.usd_per_million_examples is not None:
                    right.caption(f"${answer.usd_per_million_examples:,.2f} per million examples")
        elif len(answer.rows) < 2:
            st.caption("Add a reference row (or another run) of the same workload to see how many times faster it is.")
        grade_table(answer)
        if methods := [str(c.rate.settings.get("method") or "") for c in answer.rows if c.rate.basis == "estimate"]:
            st.caption(estimate_note(methods))
    if answer.other_workloads:
        with st.expander(f"Other workloads — not comparable ({len(answer.other_workloads)})"):
            st.caption("A ratio is only taken between rows of the same model (or operation and shape) and input shape.")
            for label, why in answer.other_workloads:
                st.markdown(f"- {plain(label)}: {plain(why)}")
    if answer.left_out:
        st.caption("Left out (another unit): " + "; ".join(answer.left_out) + ".")
    return answer


def estimate_note(methods: list[str]) -> str:
    """How good the shown estimates' methods are, as measured leave-one-out and with the device left out
    (bench/bench_estimates.py), each method once."""
    from engine.compare.estimate.estimate_check import check_note

    notes = [f"{m.capitalize()}: {check_note(m)}" for m in dict.fromkeys(m for m in methods if m)]
    return "Estimates are not measurements: hatched bars, with their range. " + " ".join(notes)


def _sig(v: float, digits: int = 4) -> float:
    """`v` to `digits` significant digits, shown with thousands apart (325,100, not 325100; 0.003312 stays)."""
    return float(f"{v:.{digits}g}")


def grade_table(answer: ans.Answer) -> None:
    rows = [
        {
            "Row": c.rate.label,
            "Basis": BASIS.get(c.rate.basis, c.rate.basis) if c.grade else "baseline",
            "Rate": _sig(c.rate.value),
            "Unit": c.rate.unit,
            "One device": _sig(c.one.value) if c.one else None,
            "× faster": c.per_device_speedup if c.per_device_speedup is not None else c.speedup,
            "Range": ans.times_range(c.low, c.high) if c.low and c.high and c.low != c.high else "",
            "$/M examples": c.usd_per_million_examples,
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
            "Row": st.column_config.TextColumn(width="medium"),
            "Rate": st.column_config.NumberColumn(format="localized"),
            "One device": st.column_config.NumberColumn(
                format="localized",
                help="the rate of one device: a system's rate ÷ its stated device count; blank: "
                "a system whose source does not say how many devices",
            ),
            "× faster": st.column_config.NumberColumn(format="%.3g×", help="one device's rate ÷ the baseline's rate"),
            "$/M examples": st.column_config.NumberColumn(
                format="$%.3g", help="one device's price per hour ÷ examples per hour × 1,000,000"
            ),
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
            "estimate": [c.rate.basis == "estimate" for c in answer.rows],
            "low": [c.rate.low for c in answer.rows],
            "high": [c.rate.high for c in answer.rows],
            "device_type": [c.rate.device_type for c in answer.rows],
            "id": [c.rate.id for c in answer.rows],
            "speedup": [c.speedup for c in answer.rows],
            "basis": "rate",
            "unit": answer.baseline.unit,
        }
    )
