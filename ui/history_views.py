"""History page tabs for imported results: scaling 1→N devices, the noise band of repeated configurations,
and time (and cost) to a target accuracy. Shown only when the rows carry what each needs."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from engine.charts import imported as charts
from engine.compare.answer import times
from engine.imports.view import imported
from engine.imports.view.default_view import total_of
from engine.results.history import is_derived, metric_title
from ui.common import download_csv, show_chart, show_table


def extra_tabs(df: pd.DataFrame, metric: str) -> list[tuple[str, Callable[[], None]]]:
    """(tab name, view) for the views these rows support."""
    out: list[tuple[str, Callable[[], None]]] = []
    if "device_count" in df.columns and df["device_count"].nunique() > 1:
        out.append(("Scaling", lambda: scaling_tab(df, metric)))
    series = any(c in df.columns and df[c].notna().any() for c in ("elapsed_s", "step"))
    logged = "date" in df.columns and df["date"].nunique() > max(10, len(df) // 8)  # a log over time, not repeats
    if "kind" in df.columns and (df["kind"] == "external").any() and not series and not logged:
        out.append(("Noise", lambda: noise_tab(df, metric)))
    timed = "elapsed_s" in df.columns and df["elapsed_s"].notna().any()
    if timed:
        out.append(("Time to accuracy", lambda: accuracy_tab(df, metric)))
    dated = "date" in df.columns and df["date"].notna().any()
    if "step" in df.columns and df["step"].notna().any() and not timed and not dated:  # a log with no clock
        out.append(("Over samples", lambda: samples_tab(df, metric)))
    if "bound" in df.columns and df["bound"].notna().any():  # runs that measured their pipeline (issue 38)
        out.append(("Input or compute", lambda: input_tab(df)))
    return out


INPUT_COLUMNS = ("date", "device_label", "workload", "bound", "input_examples_per_sec", "step_examples_per_sec",
                 "examples_per_sec", "input_wait_pct", "input_workers", "run_id")  # fmt: skip


def input_tab(df: pd.DataFrame) -> None:
    """Each run's verdict and its three rates: the pipeline alone, the step alone, training; and the wait."""
    from engine.catalog.input_bound import BOUND_RULE_TEXT

    measured = df[df["bound"].notna()]
    table = measured[[c for c in INPUT_COLUMNS if c in measured.columns]].reset_index(drop=True)
    rate = st.column_config.NumberColumn
    show_table(
        table,
        hide_index=True,
        key="hist_input_table",
        column_config={
            "date": st.column_config.DatetimeColumn("Date (UTC)", format="YYYY-MM-DD HH:mm"),
            "bound": st.column_config.TextColumn("Bound", help=BOUND_RULE_TEXT),
            "input_examples_per_sec": rate("Pipeline alone (ex/s)", format="%.4g", help="empty: synthetic data"),
            "step_examples_per_sec": rate("Step alone (ex/s)", format="%.4g"),
            "examples_per_sec": rate("Training (ex/s)", format="%.4g"),
            "input_wait_pct": rate("Waiting for input", format="%.0f%%", help="share of each training step"),
            "input_workers": rate("Input workers", format="%d", help="empty: AUTOTUNE"),
        },
    )
    others = len(df) - len(measured)
    st.caption(
        BOUND_RULE_TEXT
        + (
            f" {others:,} other row{'s' * (others != 1)} measured no pipeline (older or imported runs)."
            if others
            else ""
        )
    )


def samples_tab(df: pd.DataFrame, metric: str) -> None:
    """A telemetry log's samples in order (it has no timestamps), with its distribution."""
    show_chart(charts.samples_chart(df, metric), "hist_chart_samples", f"history_samples_{metric}")
    data = df.dropna(subset=[metric, "step"])
    if data.empty:
        return
    by = [c for c in ("file", "device_label") if c in data.columns]
    col = data.groupby(by, sort=True)[metric]
    table = pd.DataFrame({"samples": col.size(), "median": col.median(), "p10": col.quantile(0.1),
                          "p90": col.quantile(0.9), "max": col.max()}).reset_index()  # fmt: skip
    st.caption("The log has no timestamps: samples in the order it wrote them; their distribution below.")
    show_table(table, hide_index=True, key="hist_samples_table")


def scaling_tab(df: pd.DataFrame, metric: str) -> None:
    metric = total_of(df, metric)  # scaling is about the whole system's rate, not the rate per device
    sc = imported.scaling(df, metric)
    show_chart(charts.scaling_chart(sc, metric), "hist_chart_scaling", f"history_scaling_{metric}")
    if sc.empty:
        return
    best = sc.loc[sc["device_count"].idxmax()]
    fewest = int(sc[sc["group"] == best["group"]]["device_count"].min())
    if is_derived(metric):  # a per-USD/per-W figure is not a speed: say what the ratio is
        st.caption(
            f"{best['group']}: {int(best['device_count'])} devices give {best['speedup']:.2f}× the "
            f"{metric_title(metric)} of {fewest} — not a speed; pick a throughput metric to see scaling."
        )
    else:
        st.caption(
            f"{best['group']}: {int(best['device_count'])} devices are **{times(best['speedup'])} faster** than "
            f"{fewest}, {best['efficiency'] * 100:.0f}% of ideal."
        )
    table = sc[["group", "device_count", metric, "ideal", "speedup", "efficiency"]]
    show_table(
        table,
        hide_index=True,
        key="hist_scaling_table",
        column_config={
            metric: st.column_config.NumberColumn(metric_title(metric), format="%.4g"),
            "ideal": st.column_config.NumberColumn("Ideal", format="%.4g"),
            "speedup": st.column_config.NumberColumn("× faster", format="%.2f×", help="than the fewest devices"),
            "efficiency": st.column_config.NumberColumn("Efficiency", format="percent"),
        },
    )
    download_csv(table, "hist_scaling_csv", f"history_scaling_{metric}", "Download (CSV)")


def noise_tab(df: pd.DataFrame, metric: str) -> None:
    nz = imported.noise(df, metric)
    show_chart(charts.noise_chart(nz, metric), "hist_chart_noise", f"history_noise_{metric}")
    if nz.empty:
        return
    st.caption(
        "Rows with the same device, count, model, precision and batch are repeats: their spread is noise. "
        "Two configurations whose difference is inside that band are within noise."
    )
    table = nz[["group", "median", "min", "max", "cv_pct", "rows"]]
    show_table(
        table,
        hide_index=True,
        key="hist_noise_table",
        column_config={"cv_pct": st.column_config.NumberColumn("CV", format="%.1f%%", help="std ÷ mean")},
    )
    download_csv(table, "hist_noise_csv", f"history_noise_{metric}", "Download (CSV)")


def accuracy_tab(df: pd.DataFrame, metric: str) -> None:
    default, why = imported.default_target(df, metric)
    target = st.number_input(
        f"Target {metric_title(metric)}", value=default, key=f"hist_tta_target_{metric}", help="Time to first reach it"
    )
    st.caption(f"Starts at {default:g}: {why}.")
    show_chart(charts.accuracy_chart(df, metric, target), "hist_chart_tta", f"history_tta_{metric}")
    tt = imported.time_to_target(df, metric, target)
    if tt.empty:
        return
    show_table(
        tt[["group", "hours", "cost_usd", "best", "devices"]],
        hide_index=True,
        key="hist_tta_table",
        column_config={
            "hours": st.column_config.NumberColumn("Hours to target", format="%.2f"),
            "cost_usd": st.column_config.NumberColumn("Cost (USD)", format="$%.2f", help="hours × price per hour"),
            "best": st.column_config.NumberColumn("Best reached", format="%.4g"),
        },
    )
