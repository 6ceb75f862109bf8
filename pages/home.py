"""Home: what AccelBench is, one-click seed experiments, and the latest runs with their status."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # standalone runs put pages/ on the path, not the repo root
    sys.path.insert(0, str(ROOT))

from ui.frame import ensure_frame

ensure_frame(__file__)  # a deep link to a fresh server is routed through app.py (menu, wide layout)

from engine.catalog import backends, presets
from engine.compare.words.tables import headline, run_label
from engine.results.status import ACTIVE_STATUSES
from engine.runs import hardware, jobs
from ui.common import (
    demo_banner,
    download_csv,
    fmt_num,
    page_link,
    read_only_note,
    show_table,
    store,
)
from ui.launch_preset import launch
from ui.status import list_text


def _launch(key: str, device: str, backend: str = "tensorflow") -> None:
    launch(key, device, backend, error_key="home_error")


st.title("AccelBench")
st.markdown(
    "**How fast is this model on this hardware — and how does that compare with what people publish?** "
    "AccelBench runs Keras 3 training (on TensorFlow, JAX or PyTorch) and matmul/conv microbenchmarks in a "
    "separate process on a CPU, GPUs or a TPU, timed honestly (warm-up apart, devices synchronised, placement checked), and charts each run against "
    "curated reference numbers and your earlier runs."
)
demo_banner()

acc = hardware.detect_accelerators()
device = "gpu" if acc.gpus else "cpu"
st.subheader("Run a seed experiment")
st.caption(
    f"One click starts the run on this machine's **{device.upper()}** and opens the Run page to watch it. "
    "Change any setting on the Run page instead if you want a different size or device."
)
_db = store()
runs_off = _db.read_only
if runs_off:
    st.info(read_only_note(_db), icon=":material/lock:")
error = st.session_state.get("home_error")
for row_start in range(0, len(presets.PRESETS), 3):
    cols = st.columns(3)
    for col, preset in zip(cols, presets.PRESETS[row_start : row_start + 3], strict=False):
        with col.container(border=True, height="stretch"):
            st.markdown(f"**{preset.title}**  \n{preset.source}")
            st.markdown(preset.what)
            st.caption(f"Takes {preset.expect}.")
            # a per-backend preset is a Keras model: one button per Keras backend (native PyTorch has its own zoo)
            keras_backends = [b for b in backends.BACKENDS if backends.installed(b) and b not in backends.NATIVE]
            choices = keras_backends if preset.per_backend else [None]
            for backend in choices:  # one full-width button each: three side by side truncate at 1366 px
                label = f"Run on {backends.INFO[backend].label}" if backend else "Run"
                if st.button(
                    label,
                    key=f"home_run_{preset.key}" + (f"_{backend}" if backend else ""),
                    icon=":material/play_arrow:",
                    type="primary",
                    disabled=runs_off,
                    width="stretch" if backend else "content",
                ):
                    _launch(preset.key, device, backend or backends.DEFAULT_BACKEND)
                    error = st.session_state.get("home_error")
            if error and error[0] == preset.key:
                st.error(f"Not started: {error[1]}", icon=":material/block:")

st.subheader("Latest runs")


jobs.refresh(_db)
_polling = bool(_db.list_runs(statuses=ACTIVE_STATUSES, limit=1))


@st.fragment(run_every="2s" if _polling else None)
def latest_runs() -> None:
    """The last ten runs; refreshes itself every 2 s while one is queued or running."""
    db = store()
    jobs.refresh(db)
    runs = db.list_runs(limit=10)
    if not runs:
        st.info(
            "No runs yet. Click **Run** on *Quick check* above (a few seconds) — or *Quick training check* (about 20 s), "
            "which also answers *Which device?* on Compare — or set one up on the Run page. "
            "Have results from another machine? Load the CSV on the History page.",
            icon=":material/lightbulb:",
        )
        return
    rows = []
    for r in runs:
        name, value, unit = headline(r)
        rows.append(
            {
                "created": pd.to_datetime(r["created_at"], utc=True, errors="coerce"),
                "status": list_text(r["status"]).removesuffix("…"),  # an ellipsis in a cell reads as cut off
                "run": run_label(r),
                "result": f"{name} {fmt_num(value, 1, unit)}" if value is not None else (r.get("error") or "—")[:80],
                "run_id": r["run_id"],
            }
        )
    table = pd.DataFrame(rows)
    picked = show_table(
        table,
        hide_index=True,
        key="home_runs",
        on_select="rerun",
        selection_mode="single-row",
        column_order=["created", "status", "run", "result"],
        column_config={
            "created": st.column_config.DatetimeColumn("Started (UTC)", format="YYYY-MM-DD HH:mm:ss"),
            "status": "Status",
            "run": st.column_config.TextColumn("Run", width="large"),
            "result": st.column_config.TextColumn("Result", width="large"),
        },
    )
    selected = picked.selection.rows if picked is not None else []
    run_id = table["run_id"].iloc[selected[0]] if selected else table["run_id"].iloc[0]
    st.caption(f"Selected run {run_id}." if selected else "Select a row to pick another run (default: the newest).")
    c = st.columns([1, 1, 1, 2])
    with c[2]:
        download_csv(table, "home_runs_csv", "latest_runs", "Download (CSV)")
    with c[0]:
        page_link("pages/run.py", "Open on the Run page", icon=":material/play_arrow:", query_params={"run": run_id})
    with c[1]:
        page_link("pages/compare.py", "Compare", icon=":material/bar_chart:", query_params={"run": run_id})
    active = any(r["status"] in ACTIVE_STATUSES for r in runs)
    if active:
        st.caption("A run is in progress; this list refreshes every 2 seconds.")
    elif _polling:
        st.rerun()  # the last active run ended: a full rerun rebuilds this fragment without the timer


latest_runs()
