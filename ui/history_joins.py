"""History page: batch-size companion tables (lambdal's `…-bs-….csv` beside `…-throughput-….csv`) offered as a
join into the table they complete — on by default — with how many rows matched, and a warning when few did."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.imports.facts.raw import Raw
from engine.imports.shape.companion import join_batch, join_note


def companion_joined(name: str, key: str, main: str) -> bool:
    """A batch-size table beside the table it completes: offered as a join (on by default); True when joined."""
    on = st.toggle(
        f"Join **{name}** into **{main}** as each row's batch size",
        value=True,
        key=f"hist_join_{key}",
        help="The two files share their key column and model columns; off: import this file as values of its own.",
    )
    if on:
        st.info(f"**{name}**: its cells are joined into **{main}** as batch sizes, not imported as values.",
                icon=":material/join_inner:")  # fmt: skip
    return bool(on)


def join_companions(rows: pd.DataFrame, name: str, raw: Raw, companions: dict) -> pd.DataFrame:
    """`rows` of `name` (read as `raw`) with the batch sizes of each companion table the user kept joined
    (History's Loaded items by name)."""
    for companion, item in companions.items():
        if st.session_state.get(f"hist_join_{item.key}", True):
            rows, matched = join_batch(rows, name, raw, item.raw)
            text, warn = join_note(companion, matched, len(rows))
            if warn:
                st.warning(text, icon=":material/link_off:")
            else:
                st.caption(text)
    return rows
