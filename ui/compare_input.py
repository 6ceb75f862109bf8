"""Compare's input view (issue 38), under "Which device?": each device alone beside what the run's input pipeline
would deliver on that offer's host (engine.compare.words.input_cap, an estimate), and the chosen runs' verdicts with
their three rates and input wait. Runs that measured no pipeline (synthetic data, older rows) show one line."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from engine.compare import which as wd
from engine.compare.words.input_cap import ESTIMATE_WORDS, LIFTS
from ui.common import plain, show_table

RUN_COLUMNS = {
    "run_id": "Run", "bound": "Bound", "input_examples_per_sec": "Pipeline alone (ex/s)",
    "step_examples_per_sec": "Step alone (ex/s)", "examples_per_sec": "Training (ex/s)",
    "input_wait_pct": "Waiting for input (%)",
}  # fmt: skip


# thousands apart, no decimals (12,141, not 12141.2764): rates that vary ±30 % between runs; shares as one decimal
RATE_COLUMNS = ("Alone (ex/s)", "Host's pipeline (ex/s, estimate)", "Pipeline alone (ex/s)", "Step alone (ex/s)",
                "Training (ex/s)")  # fmt: skip


def _number_columns(frame: pd.DataFrame) -> dict[str, Any]:
    formats = {c: "localized" for c in RATE_COLUMNS} | {"Host vCPUs / device": "%g", "Waiting for input (%)": "%.1f %%"}
    return {c: st.column_config.NumberColumn(c, format=f) for c, f in formats.items() if c in frame.columns}


def host_frame(w: wd.WhichDevice) -> pd.DataFrame:
    """One line per device whose offer's host is known: alone, the host's pipeline, and which is lower."""
    recs = [
        {
            "Device": r.device, "Alone (ex/s)": cap.device_alone_examples_per_sec,
            "Host's pipeline (ex/s, estimate)": cap.input_cap_examples_per_sec, "Host vCPUs / device": cap.host_vcpus,
            "Host": cap.host, "There": "waits for input" if cap.waits_for_input else "input keeps up",
        }
        for r in w.rows
        if (cap := r.input_cap) is not None
    ]  # fmt: skip
    return pd.DataFrame(recs)


def runs_frame(runs: list[dict[str, Any]]) -> pd.DataFrame:
    """The chosen runs that measured their pipeline, with their verdict, three rates and wait."""
    rows = [{k: r.get(k) for k in RUN_COLUMNS} for r in runs if r.get("bound")]
    return pd.DataFrame(rows, columns=list(RUN_COLUMNS)).rename(columns=RUN_COLUMNS)


def input_section(runs: list[dict[str, Any]], w: wd.WhichDevice) -> None:
    """The hosts' caps for the table's run, then the chosen runs' input verdicts."""
    from engine.catalog.input_bound import BOUND_RULE_TEXT

    st.markdown("**Input or compute?**")
    hosts = host_frame(w)
    if hosts.empty:
        st.caption(
            f"Run `{plain(w.run_id)}` measured no input pipeline (synthetic data, or a run from before AccelBench "
            "measured it), so no host's pipeline is estimated: each device is ranked by itself."
        )
    else:
        show_table(hosts.round({c: 0 for c in RATE_COLUMNS}), hide_index=True, key="cmp_input_hosts", height="content",
                   column_config=_number_columns(hosts))  # fmt: skip
        st.caption(
            f"Ranked above by the lower of the two. The host's pipeline is {ESTIMATE_WORDS}. What would lift a "
            f"cap: {', '.join(LIFTS)}."
        )
    measured = runs_frame(runs)
    if not measured.empty:
        show_table(measured.round({c: 0 for c in RATE_COLUMNS}), hide_index=True, key="cmp_input_runs",
                   column_config=_number_columns(measured))  # fmt: skip
        st.caption(BOUND_RULE_TEXT)
