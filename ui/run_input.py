"""The Run card's "Input or compute?" box (issue 38): the pipeline alone, the step alone and training as three
rates, the share of each step spent waiting for input, the verdict with its rule, and one bar split into
waiting and computing (engine.charts.input_split). A run that measured none of it says so in one line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.catalog.input_bound import BOUND_RULE_TEXT
from engine.charts.input_split import input_split_figure, step_split_ms
from ui.common import MISSING, fmt_num, show_chart

INPUT_FIELDS = ("input_examples_per_sec", "step_examples_per_sec", "input_wait_pct", "bound")
BOUND_WORDS = {"input": "Input", "compute": "Compute", "balanced": "Balanced"}  # short: fits a 1366 px column
NOT_MEASURED = (
    "Input or compute: not measured for this run (it ran before AccelBench measured the pipeline beside the step)."
)


def _settings_text(row: dict[str, Any]) -> str:
    """'2 input workers of 2 cores · prefetch AUTOTUNE · no cache' (the pipeline settings the run used)."""
    workers, cores = row.get("input_workers"), row.get("input_cores")
    who = f"{workers} input worker{'s' if workers != 1 else ''}" if workers else "input workers AUTOTUNE"
    of = f" of {cores} cores" if cores else ""
    prefetch = row.get("prefetch")
    cache = "cache on" if row.get("cache") else "no cache"
    return f"{who}{of} · prefetch {prefetch if prefetch is not None else 'AUTOTUNE'} · {cache}"


def host_lines(answer: Any, most: int = 4) -> list[str]:
    """'H100: alone ≈1,345 ex/s; its host's pipeline ≈480 ex/s (24 vCPUs) → would wait for input' for the
    answer's devices whose host is known (engine.compare.words.input_cap), those that would wait first."""
    from engine.compare.words.input_cap import cap_of

    caps = [cap for c in (answer.rows[1:] if answer is not None else ()) if (cap := cap_of(c)) is not None]
    caps = list({cap.hardware_key: cap for cap in caps}.values())  # one line per device
    caps.sort(key=lambda cap: (not cap.waits_for_input, -cap.device_alone_examples_per_sec))
    return [cap.short_text() for cap in caps[:most]]


def input_section(run_id: str, row: dict[str, Any], answer: Any = None) -> None:
    """The box for a finished training run; nothing for a microbenchmark. `answer`: the card's answer
    (engine.compare.answer), whose rows carry each device's host cap."""
    if row.get("kind") != "train":
        return
    if all(row.get(f) is None for f in INPUT_FIELDS):
        st.caption(NOT_MEASURED)
        return
    synthetic = row.get("input_examples_per_sec") is None
    with st.container(border=True, key="run_input"):
        st.markdown("##### Input or compute?")
        cols = st.columns(4)
        cols[0].metric(
            "Pipeline alone",
            "synthetic data" if synthetic else fmt_num(row.get("input_examples_per_sec"), 1, "ex/s"),
            help="The run's own input pipeline with no model: files read, decoded, batched and prefetched.",
        )
        cols[1].metric(
            "Step alone",
            fmt_num(row.get("step_examples_per_sec"), 1, "ex/s"),
            help="The model alone on one batch already on the device.",
        )
        cols[2].metric("Training", fmt_num(row.get("examples_per_sec"), 1, "ex/s"), help="Both together.")
        wait = row.get("input_wait_pct")
        cols[3].metric(
            "Bound",
            BOUND_WORDS.get(str(row.get("bound")), MISSING),
            delta=f"waited {wait:.0f} % of each step" if isinstance(wait, (int, float)) else None,
            delta_color="off",
            delta_arrow="off",
            help=BOUND_RULE_TEXT,
        )
        if step_split_ms(row) is not None:
            show_chart(input_split_figure(row), "run_input_split", f"{run_id}_input_split")
        elif not synthetic:
            st.caption("The share of a step spent waiting for input was not recorded for this run.")
        if lines := host_lines(answer):
            from engine.compare.words.input_cap import ESTIMATE_WORDS, LIFTS

            st.markdown("**On a rented host** (" + ESTIMATE_WORDS + "):  \n" + "  \n".join(lines))
            if any("would wait for input" in line for line in lines):
                st.caption("What would lift a cap: " + ", ".join(LIFTS) + ".")
        st.caption(
            ("Synthetic data: no pipeline, the step alone. " if synthetic else _settings_text(row) + ". ")
            + BOUND_RULE_TEXT
        )
