"""Sweep: one sweep's cells as a live grid, throughput per cell, the best cell per machine, the
batch-size curve, and cancelling the whole sweep. Sweeps are started by `python -m engine sweep`."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # standalone runs put pages/ on the path, not the repo root
    sys.path.insert(0, str(ROOT))

from ui.frame import ensure_frame

ensure_frame(__file__)

from engine.sweep import status
from ui.common import store
from ui.sweep_live import live_grid
from ui.sweep_results import results

st.title("Sweep")
st.caption(
    "A matrix of runs — models × datasets × batch sizes × precisions × backends × devices (× `--processes 1,2,4` "
    "for a scaling curve) — started with `python -m engine sweep … --on local` or `--on ray://HOST:PORT`; every "
    "cell is an ordinary run."
)
db = store()
sweeps = status.sweep_ids(db)
if not sweeps:
    st.info(
        "No sweeps yet. Start one from a shell, e.g. `python -m engine sweep --models tiny_cnn,fashion_cnn "
        "--batch-sizes 16,32 --epochs 1 --steps-per-epoch 5 --on local`.",
        icon=":material/lightbulb:",
    )
    st.stop()
asked = st.query_params.get("sweep")
sweep_id = st.selectbox(
    "Sweep", sweeps, index=sweeps.index(asked) if asked in sweeps else 0, key="sweep_pick", help="Newest first"
)
st.query_params["sweep"] = sweep_id
if note := st.session_state.pop("sweep_note", None):
    st.success(note, icon=":material/check:")
live_grid(sweep_id)
results(sweep_id, status.sweep_rows(db, sweep_id))
