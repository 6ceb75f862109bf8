"""The Sweep page's results: throughput heatmap, the best cell per machine (by examples/s and by USD per
million examples), the batch-size curve and — for a `--processes 1,2,4` sweep — the scaling against ideal with the
published multi-GPU curves of the same model (ui.sweep_scaling), from engine.sweep.summary and engine.charts."""

from __future__ import annotations

import streamlit as st

from engine.charts.sweep import batch_curve_figure, heatmap_figure, workers_figure
from engine.compare.words import scaling_text
from engine.results.schema import ResultRow
from engine.sweep import summary
from engine.sweep.workers import workers_frame
from ui.common import plain, show_chart, show_table
from ui.sweep_scaling import processes_section, published_section


def results(sweep_id: str, rows: list[ResultRow]) -> None:
    st.subheader("Throughput per cell")
    show_chart(heatmap_figure(summary.heatmap(rows)), "sweep_heatmap", f"{sweep_id}_heatmap")
    st.subheader("Best cell per machine")
    best = summary.best_per_machine(rows)
    if best.empty:
        st.info("No cell has finished ok yet.", icon=":material/info:")
    else:
        show_table(
            best,
            hide_index=True,
            key="sweep_best",
            column_config={
                "machine": "Machine",
                "fastest_cell": st.column_config.TextColumn("Fastest cell", width="large"),
                "examples_per_sec": st.column_config.NumberColumn("examples/s", format="%.1f"),
                "cheapest_cell": st.column_config.TextColumn("Cheapest cell", width="large"),
                "usd_per_million_examples": st.column_config.NumberColumn("USD / M examples", format="%.3f"),
            },
        )
        st.caption(
            "USD per million examples needs a price per hour (`--price-per-hour`, or the device's price-table row)."
        )
    st.subheader("Batch-size curve")
    show_chart(batch_curve_figure(summary.batch_curve(rows)), "sweep_curve", f"{sweep_id}_batch_curve")
    if not (workers := workers_frame(rows)).empty:  # a sweep over --input-workers (issue 38); older ones: nothing
        with st.container(key="sweep_workers_box"):
            st.subheader("Training against input workers")
            show_chart(workers_figure(workers), "sweep_workers", f"{sweep_id}_input_workers")
            st.caption(
                "Solid: training examples/s at each input-worker count. Dashed: the step alone (the model on a "
                "batch already on the device), what training would reach with input free; where the solid line "
                "meets it, more workers no longer help. Measured in separate runs: on a busy host the two differ "
                "by its load."
            )
    scaling = summary.scaling(rows)
    if scaling.empty:
        return
    with st.container(key="sweep_scaling_box"):  # a sweep with --processes 1,2,…: each N against N × the rate at 1
        st.subheader("Scaling over processes")
        processes_section(scaling, "sweep_scaling", sweep_id)
        for model, part in scaling.groupby("model", sort=True):
            st.subheader(f"Published multi-GPU scaling of {plain(scaling_text.model_name(str(model)))}")
            published_section(str(model), f"sweep_published_{model}", part)
