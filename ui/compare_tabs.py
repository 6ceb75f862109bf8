"""Compare page helpers: one function per tab (bars and speedup, batch size, scaling — with the published
multi-GPU curves of the first run's model — step times, loss/accuracy, cost, the table). Layout and widgets
only; the tables come from engine.compare.words.tables."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.charts import compare as ccharts
from engine.compare.evidence.scaling_refs import model_of
from engine.compare.facts.grade import differing
from engine.compare.rank.cost import starting_prices
from engine.compare.words import tables as cmp
from engine.compare.words.scaling_text import model_name
from ui.common import download_csv, edit_table, plain, show_chart, show_table, store
from ui.sweep_scaling import published_section

TABLE_COLUMNS = [
    "label", "origin", "metric", "value", "unit", "hardware", "hardware_count", "count_unit", "model", "dataset",
    "data_kind", "batch_size", "precision", "xla", "framework_version", "source_id", "ref_id", "run_id", "notes",
]  # fmt: skip


def bars_tab(rows: pd.DataFrame, family: str) -> None:
    label, higher = cmp.family_label(family), cmp.family_higher_is_better(family)
    if family == "rate":
        label = f"Rate of work, like for like ({rows['unit'].iloc[0]})"
    show_chart(ccharts.compare_bars(rows, label, higher), "cmp_chart_bars", f"compare_{family}")
    labels = list(rows["label"])
    if len(labels) < 2:
        st.caption("Add a second run or reference row to see speedups.")
        return
    if family == "rate":  # the answer's rows already carry their speedup over the baseline chosen above
        baseline = str(rows["label"].iloc[0])
        table = rows[["label", "origin", "value_canonical", "speedup", "basis"]]
    else:
        default = next(
            (lab for lab, o in zip(rows["label"], rows["origin"], strict=True) if o != "reference"), labels[0]
        )
        if st.session_state.get("cmp_metric_baseline") not in labels:
            st.session_state["cmp_metric_baseline"] = default
        baseline = st.selectbox("Baseline for this metric (1×)", labels, key="cmp_metric_baseline")
        table = cmp.speedups(rows, baseline)
        if len(table) < len(rows):
            st.caption(
                "Rates are divided only by rates of the same workload (model and input shape), times only by times "
                "of the identical workload; the other rows get no ratio."
            )
    show_chart(ccharts.speedup_chart(table, baseline), "cmp_chart_speedup", f"compare_speedup_{family}")
    show_table(
        table,
        hide_index=True,
        key="cmp_speedup_table",
        column_config={
            "label": "Run or reference",
            "origin": "Origin",
            "value_canonical": st.column_config.NumberColumn(label, format="%.4g"),
            "speedup": st.column_config.NumberColumn("Times faster (×)", format="%.3g×"),
            "basis": "Compared as",
        },
    )
    download_csv(table, "cmp_speedup_csv", f"compare_speedup_{family}", "Download speedups (CSV)")


def batch_tab(long: pd.DataFrame) -> None:
    sweep = cmp.batch_sweep(long)
    groups = sweep.groupby("group")["batch_size"].nunique() if len(sweep) else pd.Series(dtype=int)
    if not (groups > 1).any():
        st.info(
            "To see how throughput grows with the batch, choose runs (or references) of one model at several batch "
            "sizes — e.g. run the same model at batch 32, 64 and 128 on the Run page.",
            icon=":material/lightbulb:",
        )
    show_chart(ccharts.batch_chart(sweep), "cmp_chart_batch", "compare_throughput_vs_batch")
    download_csv(sweep, "cmp_batch_csv", "compare_throughput_vs_batch", "Download (CSV)")


def scaling_tab(long: pd.DataFrame) -> None:
    table = cmp.scaling(long)
    if table.empty:
        st.info(
            "Scaling needs one model at several device counts — e.g. a sweep with `--processes 1,2,4`, the same run "
            "with 1 and 2 logical devices (Devices page → logical devices), or references for 1 and 8 GPUs.",
            icon=":material/lightbulb:",
        )
    else:
        st.caption(
            "Ideal = the smallest count's throughput per replica × replicas. Efficiency = measured ÷ ideal. Logical "
            "CPU devices and processes share the same cores, so they show the strategy's overhead rather than more "
            "hardware."
        )
        show_chart(ccharts.scaling_chart(table), "cmp_chart_scaling", "compare_scaling")
        show_table(
            table,
            hide_index=True,
            key="cmp_scaling_table",
            column_config={
                "value_canonical": st.column_config.NumberColumn("Throughput (examples/s)", format="%.4g"),
                "ideal": st.column_config.NumberColumn("Ideal (examples/s)", format="%.4g"),
                "efficiency_pct": st.column_config.NumberColumn("Efficiency (%)", format="%.0f%%"),
            },
        )
        download_csv(table, "cmp_scaling_csv", "compare_scaling", "Download (CSV)")
    model = model_of(long.to_dict("records"))
    if model:
        with st.expander(f"Published multi-GPU scaling of {plain(model_name(model))}", expanded=table.empty):
            published_section(model, "cmp_published")


def steps_tab(runs: list[dict]) -> None:
    db = store()
    series = {}
    for r in runs:
        kind = "step" if r["kind"] == "train" else "repeat"
        series[cmp.run_label(r)] = (kind, db.get_series(r["run_id"], kind))
    samples = cmp.step_samples(series)
    st.caption(
        "Box = middle half of the steps, line = median, whiskers = the rest, dots = outliers. Training runs drop their "
        "first epoch (tracing and compile); microbenchmarks show their timed repeats."
    )
    show_chart(ccharts.step_box(samples), "cmp_chart_steps", "compare_step_times")
    download_csv(samples, "cmp_steps_csv", "compare_step_times", "Download the samples (CSV)")


def curves_tab(runs: list[dict]) -> None:
    db = store()
    train = [r for r in runs if r["kind"] == "train"]
    if not train:
        st.info("Loss and accuracy curves come from training runs; the chosen runs are microbenchmarks.")
        return
    epochs = cmp.epoch_frame({cmp.run_label(r): db.get_series(r["run_id"], "epoch") for r in train})
    c = st.columns(2)
    with c[0]:
        show_chart(
            ccharts.epoch_chart(epochs, "loss", "Training loss (cross-entropy)"), "cmp_chart_loss", "compare_loss"
        )
    with c[1]:
        show_chart(
            ccharts.epoch_chart(epochs, "accuracy", "Training accuracy (0–1)"), "cmp_chart_acc", "compare_accuracy"
        )
    if "val_accuracy" in epochs.columns and epochs["val_accuracy"].notna().any():
        show_chart(
            ccharts.epoch_chart(epochs, "val_accuracy", "Validation accuracy (0–1)"),
            "cmp_chart_val",
            "compare_val_accuracy",
        )
    st.caption("Synthetic data has random labels: its loss and accuracy show that training runs, not that it learns.")
    download_csv(epochs, "cmp_epochs_csv", "compare_epochs", "Download epoch records (CSV)")


def cost_tab(long: pd.DataFrame, runs: list[dict], ref: pd.DataFrame | None) -> None:
    st.caption(
        "Cost = time × price per hour. Each price starts from the run's own price (Run page) or the price table's "
        "on-demand price per device × the row's devices — the same price the Efficiency tab uses; edit them freely "
        "(e.g. Cloud TPU v2 at $4.50/h, as article 001 used)."
    )
    labels = list(dict.fromkeys(long["label"]))
    starts = starting_prices(long, {cmp.run_label(r): r.get("price_per_hour_usd") for r in runs})
    prices = pd.DataFrame(
        {
            "label": labels,
            "price_per_hour_usd": [round(starts[lab].usd_per_hour, 4) if lab in starts else None for lab in labels],
            "price_from": [starts[lab].text if lab in starts else "no price on record: type one" for lab in labels],
        }
    )
    edited = edit_table(
        prices,
        hide_index=True,
        key="cmp_prices",
        disabled=["label", "price_from"],
        column_config={
            "label": "Run or reference",
            "price_per_hour_usd": st.column_config.NumberColumn("Price (USD per hour)", min_value=0.0, format="$%.4g"),
            "price_from": "Starting price from",
        },
    )
    given = {
        r["label"]: float(r["price_per_hour_usd"])
        for r in edited.to_dict("records")
        if pd.notna(r["price_per_hour_usd"])
    }
    costs = cmp.cost_rows(long, given)
    if costs.empty:
        st.info(
            "Type a price per hour (USD) next to a run or reference above to see what it costs.",
            icon=":material/payments:",
        )
        return
    c = st.columns(2)
    with c[0]:
        show_chart(
            ccharts.cost_chart(costs, "usd_per_run", "Cost per run (USD)"), "cmp_chart_cost_run", "compare_cost_per_run"
        )
    with c[1]:
        show_chart(
            ccharts.cost_chart(costs, "usd_per_million_examples", "Cost per million examples (USD)"),
            "cmp_chart_cost_million",
            "compare_cost_per_million",
        )
    download_csv(costs, "cmp_cost_csv", "compare_cost", "Download costs (CSV)")


def table_tab(long: pd.DataFrame) -> None:
    table = long.reindex(columns=TABLE_COLUMNS)
    show_table(
        table,
        hide_index=True,
        key="cmp_table",
        column_config={"value": st.column_config.NumberColumn("Value", format="%.6g"), "label": "Run or reference"},
    )
    download_csv(table, "cmp_table_csv", "compare_rows", "Download all rows (CSV)")
    per_row = long.drop_duplicates("label").to_dict("records")
    lines = differing(per_row, lambda r: str(r["label"]))
    if lines:
        st.markdown("**Settings that differ between the chosen rows**")
        for line in lines:
            st.markdown(f"- {plain(line)}")
