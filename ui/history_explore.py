"""History page helpers: filters, and the chart / over-time / pivot / baseline / rows views.

Layout and widgets only: every computation is an engine.results.history function on the whole frame
(vectorised), and every chart is drawn from an aggregate, never one trace per row.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from engine.charts import history as charts
from engine.compare.evidence.saturation import pipeline_bound_rows
from engine.imports.facts import units
from engine.imports.roles.settings import setting_columns
from engine.imports.view import default_view
from engine.results import history
from ui.common import download_csv, plain, show_chart, show_table

HOW = ("median", "mean", "min", "max")
PREVIEW_ROWS = 1_000  # rows sent to the browser table; the CSV download has them all
FILTERS = {
    "device_label": "Device",
    "workload": "Workload / model",
    "kind": "Kind",
    "status": "Status",
}


def _keep_valid(key: str, options: Sequence) -> None:
    """Drop remembered selections that the current data no longer offers (a file was removed)."""
    if key in st.session_state and isinstance(st.session_state[key], list):
        st.session_state[key] = [v for v in st.session_state[key] if v in options]


def filters(df: pd.DataFrame) -> pd.DataFrame:
    """Date range plus one multiselect per dimension (empty = everything); returns the filtered rows."""
    cols = st.columns([2, 2, 2, 1, 1])
    bounds = history.date_bounds(df)
    date_range = None
    if bounds:
        if st.session_state.get("hist_dates_bounds") != bounds:  # new data: start from its full span
            st.session_state["hist_dates_bounds"] = bounds
            st.session_state["hist_dates"] = bounds
        picked = cols[0].date_input(
            "Dates (UTC)", min_value=bounds[0], max_value=bounds[1], key="hist_dates", format="YYYY-MM-DD"
        )
        if isinstance(picked, tuple) and len(picked) == 2:
            date_range = picked
    else:
        cols[0].caption("No dates in these files.")
    wanted: dict[str, list[str]] = {}
    for col, (column, label) in zip(cols[1:], FILTERS.items(), strict=True):
        options = history.choices(df, column)
        _keep_valid(f"hist_f_{column}", options)
        wanted[column] = col.multiselect(label, options, key=f"hist_f_{column}", placeholder="all")
    sweeps = [s for s in history.choices(df, "sweep_id") if s]
    if sweeps:  # runs of `engine sweep` carry their sweep id: pick a whole sweep
        _keep_valid("hist_f_sweep_id", sweeps)
        wanted["sweep_id"] = st.multiselect(
            "Sweep", sweeps, key="hist_f_sweep_id", placeholder="all runs, in a sweep or not",
            help="The cells of one `python -m engine sweep` (or a Sweep page search).",
        )  # fmt: skip
    return history.filter_frame(df, wanted, date_range=date_range)


def _backends(df: pd.DataFrame) -> pd.Series:
    """Each row's backend; rows from before one was recorded ran on TensorFlow, the only backend then."""
    return df["backend"].fillna("tensorflow") if "backend" in df.columns else pd.Series("tensorflow", df.index)


def _groupable(df: pd.DataFrame) -> list[str]:
    """Columns worth grouping by: the configuration label first, where the rows have one."""
    cols = (default_view.CONFIGURATION, *history.GROUPABLE, *setting_columns(df))  # settings: sequence length …
    return [c for c in cols if c in df.columns and df[c].notna().any()]


def controls(df: pd.DataFrame) -> tuple[str, str, list[str]] | None:
    """Metric, aggregation and grouping pickers; None when nothing numeric is left to chart."""
    metrics = history.metric_columns(df)
    if not metrics:
        st.info("These rows have no numeric results to chart (failed runs only?). Widen the filters.")
        return None
    groupable = _groupable(df)
    _keep_valid("hist_group", groupable)
    if "hist_group" not in st.session_state:
        # never one bar for what differs: a configuration (count, memory, form factor, precision, batch) or a
        # backend (a JAX run and a TensorFlow run of one model on one device are different runs)
        several_backends = "backend" in groupable and _backends(df).nunique() > 1
        first = default_view.default_group(df, groupable) + (["backend"] if several_backends else [])
        st.session_state["hist_group"] = first
    if st.session_state.get("hist_metric") not in metrics:
        st.session_state["hist_metric"] = default_view.default_metric(df, metrics)
        st.session_state["hist_how"] = default_view.default_how(df, st.session_state["hist_metric"])
    c = st.columns([3, 1, 4])
    metric = c[0].selectbox("Metric", metrics, key="hist_metric", format_func=history.metric_title)
    how = c[1].selectbox("Aggregate", HOW, key="hist_how")
    by = c[2].multiselect(
        "Group by (first = x axis, second = colour)",
        groupable,
        key="hist_group",
        format_func=lambda s: s.replace("_", " "),
        max_selections=3,
    )
    return metric, how, by


def chart_tab(df: pd.DataFrame, metric: str, how: str, by: list[str]) -> None:
    agg = history.aggregate(df, by, metric, how)
    x = by[0] if by else "group"
    colour = by[1] if len(by) > 1 else None
    pools = default_view.pooled(df, by, metric)
    marked = agg.assign(
        unit=agg["group"].map(units.group_units(df, by, metric)).fillna(""),
        group=agg["group"].map(lambda g: g + " ⚠" if g in set(pools["group"]) else g),
    )
    title = units.titled(metric, units.units_in(df, metric))  # 'Throughput per device (images/s)'
    show_chart(charts.history_bars(marked, metric, x, colour, how, title), "hist_chart_bars", f"history_{metric}_{how}")
    if not pools.empty:
        kinds = pools.groupby("differs", sort=False)["group"].agg(["size", "first"])
        st.warning(
            f"{len(pools)} bar{'s' * (len(pools) > 1)} (marked ⚠) join rows of several configurations — add what "
            "differs to Group by, or filter it: "
            + "; ".join(f"{plain(d)} ({n} bar{'s' * (n > 1)}, e.g. {plain(first)})" for d, (n, first) in
                        kinds.head(4).iterrows())
            + ".",
            icon=":material/warning:",
        )  # fmt: skip
    for line in pipeline_bound_rows(df.to_dict("records")):  # issue 36: a source that measured its input pipeline
        st.warning(f"Flagged {plain(line)} (AccelBench scales no device by them).", icon=":material/speed:")
    show_table(
        agg,
        hide_index=True,
        key="hist_agg_table",
        column_order=["group", metric, "p10", "p90", "rows"],  # the group's columns are in its name already
        column_config={
            "group": "Group",
            metric: st.column_config.NumberColumn(f"{title}, {how}", format="%.4g"),
            "p10": st.column_config.NumberColumn("p10", format="%.4g", help="10th percentile of the group's rows"),
            "p90": st.column_config.NumberColumn("p90", format="%.4g", help="90th percentile of the group's rows"),
            "rows": st.column_config.NumberColumn("Rows", format="%d"),
        },
    )
    download_csv(agg, "hist_agg_csv", f"history_{metric}_{how}_by_{'_'.join(by) or 'all'}", "Download this table (CSV)")


def time_tab(df: pd.DataFrame, metric: str, how: str, by: list[str]) -> None:
    colour = by[0] if by else None
    series, bucket = history.time_series(df, metric, colour, how)
    show_chart(
        charts.history_time_chart(series, metric, colour, bucket, how), "hist_chart_time", f"history_{metric}_time"
    )


def pivot_tab(df: pd.DataFrame, metric: str, how: str, by: list[str]) -> None:
    groupable = _groupable(df)
    c = st.columns(2)
    index = c[0].selectbox(
        "Rows", groupable, index=groupable.index("workload") if "workload" in groupable else 0, key="hist_pivot_index"
    )
    columns = c[1].selectbox(
        "Columns",
        groupable,
        index=groupable.index("device_label") if "device_label" in groupable else 0,
        key="hist_pivot_cols",
    )
    if index == columns:
        st.info("Pick two different columns for rows and columns.")
        return
    table = history.pivot(df, index, columns, metric, how)
    show_chart(charts.pivot_heatmap(table, metric, index, columns, how), "hist_chart_pivot", f"history_pivot_{metric}")
    show_table(table, key="hist_pivot_table")
    download_csv(
        table.reset_index(), "hist_pivot_csv", f"history_pivot_{metric}_{index}_x_{columns}", "Download the pivot (CSV)"
    )


def baseline_tab(df: pd.DataFrame, metric: str, how: str, by: list[str]) -> None:
    agg = history.aggregate(df, by, metric, how)
    if agg.empty:
        st.info("No groups with a value to compare.")
        return
    groups = agg["group"].tolist()
    if st.session_state.get("hist_baseline") not in groups:
        st.session_state["hist_baseline"] = groups[0]
    baseline = st.selectbox("Baseline group (pinned)", groups, key="hist_baseline")
    delta = history.baseline_delta(agg, metric, baseline)
    direction = history.higher_is_better(metric)
    st.caption(
        "Green = better than the baseline, red = worse"
        + (
            f" ({'higher' if direction else 'lower'} is better for this metric)."
            if direction is not None
            else "; this metric's direction is unknown, so bars stay grey."
        )
    )
    show_chart(charts.delta_chart(delta, metric, baseline), "hist_chart_delta", f"history_delta_{metric}")
    table = delta[["group", metric, "times", "rows"]]
    show_table(
        table,
        hide_index=True,
        key="hist_delta_table",
        column_config={
            metric: st.column_config.NumberColumn(history.metric_title(metric), format="%.4g"),
            "times": st.column_config.NumberColumn("× vs baseline", format="%.3g×", help="how many times better"),
        },
    )
    download_csv(table, "hist_delta_csv", f"history_delta_{metric}", "Download the deltas (CSV)")


def rows_tab(df: pd.DataFrame, metric: str) -> None:
    st.caption(
        f"{len(df):,} rows after filtering"
        + (f"; the first {PREVIEW_ROWS:,} are shown — the download has them all." if len(df) > PREVIEW_ROWS else ".")
        + " Select two or more rows to see only the settings that differ."
    )
    order = (
        "date",
        "device_label",
        "backend",
        "workload",
        metric,
        "kind",
        "status",
        "global_batch_size",
        "precision",
        "file",
        "run_id",
    )
    shown_cols = [c for c in dict.fromkeys(order) if c in df.columns]
    preview = df[shown_cols].head(PREVIEW_ROWS).reset_index(drop=True)
    if "backend" in preview.columns:
        preview["backend"] = _backends(preview)
    picked = show_table(
        preview,
        hide_index=True,
        key="hist_rows",
        on_select="rerun",
        selection_mode="multi-row",
        column_config={
            "date": st.column_config.DatetimeColumn("Date (UTC)", format="YYYY-MM-DD HH:mm"),
            "backend": st.column_config.TextColumn("Backend"),
            metric: st.column_config.NumberColumn(history.metric_title(metric), format="%.4g"),
        },
    )
    download_csv(df, "hist_rows_csv", "history_filtered_rows", f"Download all {len(df):,} filtered rows (CSV)")
    selected = list(picked.selection.rows) if picked is not None else []
    if len(selected) >= 2:
        chosen = df.iloc[selected]
        for line in history.speed_warnings(chosen):
            st.warning(f"Not like for like: {plain(line)}.", icon=":material/warning:")
        diff = history.differing_settings(chosen)
        if diff.shape[1] <= 1:
            st.success("These rows share every recorded setting.")
        else:
            show_table(diff, hide_index=True, key="hist_diff")
            download_csv(diff, "hist_diff_csv", "history_settings_that_differ", "Download (CSV)")
