"""Compare's Efficiency tab: work per joule and per dollar for the chosen rows, ranked, with where each
row's watts and price came from, and article 000's "30–80× per watt" claim against what the rows support.

Layout only: the figures come from engine.compare.rank.efficiency and the claim from engine.compare.words.tpu_claim.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.charts import compare as ccharts
from engine.compare.answer import times_range
from engine.compare.facts import likeforlike as lfl
from engine.compare.rank import efficiency as eff
from engine.compare.words.tpu_claim import check_claim
from engine.reference.metrics import EFFICIENCY
from ui.common import download_csv, plain, show_chart, show_table

BASIS = {"measured": "measured", "published": "published measurement", "estimate": "ESTIMATE", "none": "—"}


def claim_box(rows: list[eff.Efficiency]) -> None:
    check = check_claim(rows)
    with st.container(border=True, key="cmp_claim"):
        left, right = st.columns([4, 1])
        left.markdown("**Article 000: TPUs 30–80× more efficient per watt — what this data supports**")
        left.markdown(plain(check.text))
        if check.checked and check.low is not None and check.high is not None:
            right.metric("Supported here", times_range(check.low, check.high), help="TPU work per joule ÷ CPU/GPU's")
        else:
            right.metric("Supported here", "cannot check", help="see the sentence for what is missing")


def _bars(table: pd.DataFrame, metric: str) -> None:
    m = EFFICIENCY[metric]
    rows = table.dropna(subset=[metric]).rename(columns={metric: "value_canonical"})
    show_chart(ccharts.compare_bars(rows, m.title, m.higher_is_better), "cmp_chart_eff", f"compare_{metric}")


def efficiency_tab(runs: list[dict], rates: list[lfl.Rate], ref: pd.DataFrame | None) -> None:
    rows = eff.efficiencies(rates, runs, ref)
    if not rows:
        st.info("Efficiency needs rows with a rate of work (examples/s or GFLOP/s); pick a run or a reference above.")
        return
    claim_box(rows)
    table = eff.frame(rows)
    options = [name for name in EFFICIENCY if table[name].notna().any()]  # what at least one row has
    if not options:
        st.info(
            "None of the chosen rows has watts (measured, published or a TDP) or a price, so there is nothing to rank.",
            icon=":material/bolt:",
        )
    else:
        if st.session_state.get("cmp_eff_metric") not in options:
            st.session_state["cmp_eff_metric"] = options[0]
        metric = st.selectbox("Rank by", options, key="cmp_eff_metric", format_func=lambda n: EFFICIENCY[n].title)
        _bars(table, metric)
        table = table.sort_values(metric, ascending=not EFFICIENCY[metric].higher_is_better, na_position="last")
    st.caption(
        "Work per joule = the like-for-like rate ÷ the watts of the whole hardware the row used; cost per million "
        "examples = price per hour ÷ 3,600 × 10⁶ ÷ examples/s. Watts are measured only where a run's energy counter "
        "or power samples covered its steady window; otherwise a published measurement or an ESTIMATE (the source's "
        "nominal board power or a TDP), never passed off as measured. Hatched bars: derived rate or unmeasured watts."
    )
    show_table(
        table.assign(power_basis=table["power_basis"].map(BASIS)),
        hide_index=True,
        key="cmp_eff_table",
        column_order=["label", *options, "power_basis", "power_w", "price_usd_per_hour", "power_how", "price_how"],
        column_config={
            "label": "Run or reference",
            **{n: st.column_config.NumberColumn(m.title, format="%.4g") for n, m in EFFICIENCY.items()},
            "power_basis": "Watts are",
            "power_w": st.column_config.NumberColumn("Power (W)", format="%.4g"),
            "price_usd_per_hour": st.column_config.NumberColumn("Price (USD/h)", format="$%.4g"),
            "power_how": "Where the watts come from",
            "price_how": "Which price applies",
        },
    )
    download_csv(table, "cmp_eff_csv", "compare_efficiency", "Download efficiency (CSV)")
