"""References: the curated, sourced reference numbers — the table with provenance and doubts, the seed
articles' figures as published, and a chart builder (a metric by hardware for one model).

Runs under app.py's st.navigation and on its own (`streamlit run pages/references.py`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # standalone runs put pages/ on the path, not the repo root
    sys.path.insert(0, str(ROOT))

from ui.frame import ensure_frame

ensure_frame(__file__)

from engine.charts.reference import bar_by_hardware, wants_log
from engine.compare.facts.grade import differing
from engine.reference.data import REFERENCE_CSV, ReferenceSchemaError, load_reference, seed_001_table, seed_rows
from engine.reference.normalize import add_per_unit
from engine.reference.speedup import metric_family, stated_vs_computed, time_ratios
from engine.reference.units import HARDWARE, METRICS, axis_title, geometric_mean
from engine.results.csvio import frame_to_csv
from ui.common import show_table

TABLE_COLUMNS = [
    "ref_id", "hardware", "model_label", "dataset_label", "metric", "value", "unit", "value_kind", "batch_label",
    "precision", "xla", "framework_label", "doubtful", "doubt_reason", "source_id", "year", "source_url",
    "source_title", "notes",
]  # fmt: skip
PER_UNIT_CHOICES = {"as published": None, "per chip": "chip", "per TPU core": "core", "per GPU": "gpu"}


@st.cache_data(max_entries=4, show_spinner=False)
def _load(path: str, mtime: float) -> pd.DataFrame:
    """The curated CSV, parsed once per file version (mtime is part of the cache key)."""
    return load_reference(path)


def _reference() -> pd.DataFrame | None:
    try:
        return _load(str(REFERENCE_CSV), REFERENCE_CSV.stat().st_mtime)
    except FileNotFoundError:
        st.error(
            f"The reference file is missing: `{REFERENCE_CSV}`. Rebuild it with `python data/reference/build_reference.py`."
        )
    except ReferenceSchemaError as exc:
        st.error(f"The reference file is invalid — fix this row and reload: {exc}")
    return None


def _provenance_table(df: pd.DataFrame, key: str) -> None:
    show_table(
        df.reindex(columns=TABLE_COLUMNS),
        hide_index=True,
        width="stretch",
        key=key,
        column_config={
            "source_url": st.column_config.LinkColumn("Link", display_text="open", help="Where the figure was read"),
            "value": st.column_config.NumberColumn("Value", format="%.6g"),
            "doubtful": st.column_config.CheckboxColumn(
                "Doubtful", help="Second-hand, approximate, or flagged in the notes"
            ),
            "doubt_reason": st.column_config.TextColumn("Why doubtful", width="medium"),
            "model_label": "Model (as published)",
            "dataset_label": "Dataset / conditions",
            "batch_label": "Batch (as published)",
            "framework_label": "Framework",
            "source_id": "Source",
            "year": st.column_config.NumberColumn("Year", format="%d"),
        },
    )


def _table_tab(ref: pd.DataFrame) -> None:
    c1, c2, c3, c4 = st.columns(4)
    hw = c1.multiselect(
        "Hardware", sorted(ref["hardware_key"].unique()), key="ref_f_hardware", format_func=lambda k: HARDWARE[k].short
    )
    models = c2.multiselect("Model", sorted(m for m in ref["model"].unique() if m), key="ref_f_model")
    metrics = c3.multiselect("Metric", sorted(ref["metric"].unique()), key="ref_f_metric")
    sources = c4.multiselect("Source", list(dict.fromkeys(ref["source_id"])), key="ref_f_source")
    c5, c6 = st.columns([3, 1])
    text = c5.text_input(
        "Search notes, titles and labels", key="ref_f_search", placeholder="e.g. DAWNBench, bfloat16, Colab"
    )
    hide_doubtful = c6.toggle("Hide doubtful rows", key="ref_f_hide_doubtful")
    df = ref
    if hw:
        df = df[df["hardware_key"].isin(hw)]
    if models:
        df = df[df["model"].isin(models)]
    if metrics:
        df = df[df["metric"].isin(metrics)]
    if sources:
        df = df[df["source_id"].isin(sources)]
    if hide_doubtful:
        df = df[~df["doubtful"]]
    if text:
        hay = (
            df[["hardware_label", "model_label", "notes", "source_title", "dataset_label"]]
            .astype(str)
            .agg(" ".join, axis=1)
        )
        df = df[hay.str.contains(text, case=False, regex=False)]
    st.caption(f"{len(df)} of {len(ref)} rows · {df['doubtful'].sum()} doubtful · {df['source_id'].nunique()} sources")
    if df.empty:
        st.info(
            "No reference rows match these filters. Remove a filter or clear the search box to see more.",
            icon=":material/filter_alt_off:",
        )
        return
    _provenance_table(df, "ref_table")
    st.download_button(
        "Download these rows (CSV)",
        frame_to_csv(df).encode(),  # text cells made safe for a spreadsheet
        "reference_numbers_filtered.csv",
        "text/csv",
        key="ref_download",
    )


def _seeds_tab(ref: pd.DataFrame) -> None:
    st.subheader("Article 001 — flowers, 25 epochs, training time (s)")
    st.caption(
        "TPUv2 = a Colab/Kaggle TPU v2-8 board (4 chips, 8 cores); K80 = one GK210 die. Whether the TPU's 128 is global or per core is not stated."
    )
    for n, caption in ((1, "Table 1: every device at batch 32"), (2, "Table 2: TPU at batch 128, GPUs at batch 32")):
        table = seed_001_table(ref, n)
        left, right = st.columns([3, 2])
        left.markdown(f"**{caption}**")
        # No number format: the article's own digits (1866.703, 1053.5027) show as printed.
        show_table(table, where=left, width="stretch", key=f"ref_seed001_t{n}")
        ratios = time_ratios(table.rename_axis("model"), "TPUv2", ("K80", "P100"), name="TPU")
        right.markdown("**Speedup of the TPU** (from the table)")
        show_table(ratios, where=right, width="stretch", key=f"ref_seed001_r{n}")
        gm = geometric_mean(ratios["TPU vs K80 (×)"].tolist())
        right.caption(
            f"Geometric mean vs K80: {gm:.2f}× · vs P100: {geometric_mean(ratios['TPU vs P100 (×)'].tolist()):.2f}×"
        )
    extra = seed_rows(ref, "SEED-VN-FLOWERS")
    show_table(extra[~extra["metric"].eq("train_time_s")], hide_index=True, width="stretch", key="ref_seed001_extra")

    st.subheader("Article 000 — Colab conv microbenchmark and Fashion-MNIST")
    st.warning(
        'The 2.47 s "TPU" figure ran on the TPU VM\'s host CPU — the code never targeted the TPU. It is charted as a CPU.',
        icon=":material/warning:",
    )
    show_table(
        pd.concat([seed_rows(ref, "SEED-COLAB-CONV"), seed_rows(ref, "SEED-COLAB-FMNIST")]),
        hide_index=True,
        width="stretch",
        key="ref_seed000",
    )

    st.subheader("Article 002 — CPU vs GPU matmul (10000×100) @ (100×100000)")
    st.caption("Timed by printed clock stamps at one-second resolution: about 6 s on the CPU, under 1 s on the GPU.")
    show_table(seed_rows(ref, "SEED-TF-GPU-SETTINGS"), hide_index=True, width="stretch", key="ref_seed002")

    st.subheader("Article 003 — RiseML: Cloud TPU vs P100/V100")
    show_table(seed_rows(ref, "SEED-RISEML"), hide_index=True, width="stretch", key="ref_seed003")
    checks = stated_vs_computed(ref)
    checks = checks[checks["ref_id"].str.startswith(("SEED", "SEC-GSLIN"))]
    st.markdown("**Published ratios checked against the published absolute numbers**")
    show_table(
        checks,
        hide_index=True,
        width="stretch",
        key="ref_seed003_checks",
        column_config={"computed": st.column_config.NumberColumn(format="%.2f")},
    )


def _chart_tab(ref: pd.DataFrame) -> None:
    chartable = [
        m for m in METRICS if m in set(ref["metric"]) and m not in ("speedup_vs", "perf_per_watt_ratio", "power_ratio")
    ]
    c1, c2, c3, c4 = st.columns(4)
    metric = c1.selectbox(
        "Metric",
        chartable,
        key="ref_chart_metric",
        index=chartable.index("train_time_s"),
        format_func=axis_title,
    )
    in_metric = ref[[metric_family(m) == metric_family(metric) for m in ref["metric"]]]
    models = sorted(m for m in in_metric["model"].unique() if m)
    model_opts = ["(all rows)", *models] if models else ["(all rows)"]
    default = model_opts.index("vgg19") if "vgg19" in model_opts else 0
    model = c2.selectbox("Model", model_opts, key="ref_chart_model", index=default)
    per_label = c3.selectbox("Count as", list(PER_UNIT_CHOICES), key="ref_chart_per")
    scale = c4.radio("Scale", ["auto", "linear", "log"], key="ref_chart_scale", horizontal=True)
    c5, c6 = st.columns(2)
    hide_doubtful = c5.toggle("Hide doubtful rows", key="ref_chart_hide_doubtful")
    sources = c6.multiselect("Sources", list(dict.fromkeys(in_metric["source_id"])), key="ref_chart_sources")
    rows = in_metric if model == "(all rows)" else in_metric[in_metric["model"] == model]
    if hide_doubtful:
        rows = rows[~rows["doubtful"]]
    if sources:
        rows = rows[rows["source_id"].isin(sources)]
    unit_note = ""
    if PER_UNIT_CHOICES[per_label]:
        conv = add_per_unit(rows, PER_UNIT_CHOICES[per_label])
        dropped = conv["value_per_unit"].isna().sum()
        rows = conv[conv["value_per_unit"].notna()].assign(value=lambda d: d["value_per_unit"])
        unit_note = f" — {per_label} ({'device-time' if METRICS[metric].kind == 'time' else 'linear share'})"
        if dropped:
            st.caption(f"{dropped} rows left out: their devices cannot be counted {per_label} (e.g. CPU nodes).")
    if rows.empty:
        st.info(
            'Nothing to chart for this metric and model. Pick another model, or choose "(all rows)" and clear the source filter.',
            icon=":material/bar_chart:",
        )
        return
    log = {"auto": None, "linear": False, "log": True}[scale]
    fig = bar_by_hardware(rows, metric, model=None if model == "(all rows)" else model, log=log)
    if unit_note:
        fig.update_layout(title=(fig.layout.title.text or "") + unit_note)
    st.plotly_chart(fig, width="stretch", key="ref_chart", theme=None)
    if log is None and wants_log(rows["value"]):
        st.caption("The axis is logarithmic: the largest value is more than 20× the smallest.")
    warnings = differing(rows.to_dict("records"), lambda r: str(r["hardware"]))
    if warnings:
        with st.expander(f"What differs between these rows ({len(warnings)})", icon=":material/warning:"):
            for w in warnings:
                st.markdown(f"- {w}")


st.title("Reference numbers")
st.caption(
    "Published training and microbenchmark figures, each with its source, year, conditions and doubts — "
    "the seed articles' tables included. Compare your own runs with them on the Compare and Run pages."
)
REF = _reference()
if REF is not None:
    tab_table, tab_seeds, tab_chart = st.tabs(["Table", "Seed articles", "Chart builder"])
    with tab_table:
        _table_tab(REF)
    with tab_seeds:
        _seeds_tab(REF)
    with tab_chart:
        _chart_tab(REF)
