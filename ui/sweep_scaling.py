"""Scaling on the Sweep page and on Compare: a `--processes 1,2,4` sweep's throughput against ideal (chart, then
the table, then each point as a sentence), and the published multi-GPU curves of the same model beside it
(efficiency against device count, the curves picked, each as a sentence, one estimate for two nodes, the table).
Layout only: the numbers come from engine.sweep.summary.scaling and engine.compare.evidence.scaling_refs / scaling_text."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.charts.scaling import published_efficiency_figure, sweep_scaling_figure
from engine.compare.evidence import scaling_refs
from engine.compare.words import scaling_text
from ui.common import plain, show_chart, show_table
from ui.compare_select import reference

PERCENT = "percent"
SWEEP_COLUMNS = ["cell", "batch_size", "processes", "examples_per_sec", "ideal", "efficiency", "low", "high", "runs"]
PUBLISHED_COLUMNS = ["device", "who", "precision", "batch", "devices", "examples_per_sec", "speedup", "efficiency",
                     "low", "high", "note", "source", "ref_ids"]  # fmt: skip


def processes_section(table: pd.DataFrame, key: str, file_stem: str) -> None:
    """The measured curve: chart above the table, then one sentence per N > 1."""
    show_chart(sweep_scaling_figure(table), f"{key}_chart", f"{file_stem}_scaling")
    show_table(
        table,
        hide_index=True,
        key=key,
        column_order=SWEEP_COLUMNS,
        column_config={
            "cell": st.column_config.TextColumn("Cell"),
            "batch_size": st.column_config.NumberColumn("Global batch"),
            "processes": st.column_config.NumberColumn("Processes"),
            "examples_per_sec": st.column_config.NumberColumn("examples/s", format="%.1f"),
            "ideal": st.column_config.NumberColumn("Ideal, examples/s", format="%.1f", help="N × the rate at 1"),
            "efficiency": st.column_config.NumberColumn("Efficiency", format=PERCENT),
            "low": st.column_config.NumberColumn("Lowest", format=PERCENT),
            "high": st.column_config.NumberColumn("Highest", format=PERCENT),
            "runs": st.column_config.NumberColumn("Runs"),
        },
    )
    st.caption(
        "Efficiency = rate at N ÷ (N × rate at 1), at the same global batch; lowest/highest over repeated cells. "
        "On a CPU, N processes share the host's cores: expect well under 100 % when N exceeds the cores."
    )
    st.markdown(
        "\n".join(
            f"- {plain(scaling_text.measured_sentence(r))}" for r in table.to_dict("records") if r["processes"] > 1
        )
    )


def published_section(model: str, key: str, measured: pd.DataFrame | None = None) -> None:
    """The published multi-GPU curves of `model` (its own input shape only), or why there are none."""
    name = scaling_text.model_name(model)
    ref = reference()
    series = scaling_refs.published_scaling(ref, model)
    if not series:
        others = scaling_refs.other_shapes(ref, model)
        also = f" Published at another input shape (no ratio across shapes): {', '.join(others)}." if others else ""
        st.info(f"No published multi-device figures for {plain(name)}.{plain(also)}", icon=":material/info:")
        return
    labels = [s.label for s in series.values()]
    picked = st.multiselect(
        "Published curves",
        labels,
        default=scaling_refs.default_pick(series),
        key=f"{key}_pick",
        help="One curve = one source, one device, one precision, one software stack and one batch per device: "
        "efficiency is never taken between two of them.",
    )
    chosen = {k: s for k, s in series.items() if s.label in picked}
    table = scaling_refs.frame(chosen)
    show_chart(published_efficiency_figure(table, measured), f"{key}_chart", f"published_scaling_{model}")
    lines = [
        "; ".join(x for x in (scaling_text.published_sentence(s), scaling_text.nodes_clause(s)) if x)
        for s in chosen.values()
    ]
    st.markdown("\n".join(f"- {plain(line)}" for line in lines))
    show_table(
        table,
        hide_index=True,
        key=f"{key}_table",
        column_order=PUBLISHED_COLUMNS,
        column_config={
            "device": "Device",
            "who": "Published by",
            "precision": "Precision",
            "batch": "Batch",
            "devices": st.column_config.NumberColumn("Devices", format="%g"),
            "examples_per_sec": st.column_config.NumberColumn("examples/s", format="%.0f", help="As published"),
            "speedup": st.column_config.NumberColumn("× one device", format="%.2f×", help="Efficiency × devices"),
            "efficiency": st.column_config.NumberColumn("Efficiency", format=PERCENT),
            "low": st.column_config.NumberColumn("Lowest", format=PERCENT),
            "high": st.column_config.NumberColumn("Highest", format=PERCENT),
            "note": "Note",
            "source": "Source",
            "ref_ids": "Reference rows",
        },
    )
    st.caption(
        f"Published figures for {plain(name)} at its own input shape. Efficiency = rate at N ÷ (N × rate at 1), taken "
        "only within one curve; the spread covers the source's host variants and the host spread its notes state. "
        "Beside this sweep they differ in device (GPUs, not CPU processes), precision, stack and batch, as each "
        "curve's name says — compare the shapes of the curves, not their rates. Each estimate for 2 nodes extends "
        "its curve's loss per doubling (low end) or holds its largest count's efficiency (high end); it is not a "
        "measurement, and the network between nodes is not in these figures."
    )
