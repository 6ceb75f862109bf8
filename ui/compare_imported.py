"""Compare: rows imported on the History page (another tool's results, kept in this browser session), as
rates next to local runs and reference rows, and "within noise" where repeated rows of a configuration
give a band (median, min–max, coefficient of variation) wider than the difference.

The History page puts a mapped file's rows in st.session_state[SESSION_KEY] (file name → rows) when the
user presses "Use on Compare"; nothing is written to the results store.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.compare.answer import Answer, times
from engine.compare.facts.likeforlike import Rate
from engine.imports.view.imported_rates import Band, rates_of_rows, within_noise
from ui.common import plain
from ui.compare_select import chosen_caption

SESSION_KEY = "hist_for_compare"


def offer(name: str, rows: pd.DataFrame) -> None:
    """Keep a mapped file's rows for Compare (History calls this from its "Use on Compare" button)."""
    st.session_state.setdefault(SESSION_KEY, {})[name] = rows


def pick_imported() -> list[tuple[Rate, Band]]:
    """The imported configurations to compare (none preselected), each with its noise band."""
    files: dict[str, pd.DataFrame] = st.session_state.get(SESSION_KEY) or {}
    if not files:
        st.caption("Another tool's results: map a file on the History page and press **Use on Compare**.")
        return []
    options = {r.id: (r, b) for name, rows in files.items() for r, b in rates_of_rows(rows, name)}
    st.session_state["cmp_imported"] = [i for i in st.session_state.get("cmp_imported", []) if i in options]

    one = len(files) == 1

    def label(i: str, full: bool = False) -> str:
        """Short in the picker (cut at 1366 px otherwise): no file name when one file is loaded (the picker's
        title names it), no spread; `full` (the caption under it) has both."""
        r, b = options[i]
        spread = f" · {b.rows} rows, CV {b.cv_pct:.1f}%" if b.rows > 1 and full else ""
        value = f"{r.value:,.0f}" if abs(r.value) >= 100 else f"{r.value:.3g}"
        name = r.source_id.removeprefix("file:")
        shown = r.label.removesuffix(f" ({name})") if one and not full else r.label
        return f"{shown} · {value} {r.unit}{spread}"

    chosen = st.multiselect(
        f"Imported on History ({next(iter(files)) if one else 'this session'})",
        list(options),
        key="cmp_imported",
        format_func=label,
        placeholder="choose imported rows",
        help="One entry per configuration and metric: the median of its rows. Lower-is-better metrics (minutes to "
        "train, latency) are compared as 1 ÷ value, so a speedup is always how many times faster.",
    )
    chosen_caption([label(i, full=True) for i in chosen])
    return [options[i] for i in chosen]


def noise_notes(answer: Answer | None, bands: dict[str, Band]) -> None:
    """One line per compared row that has a noise band: within noise, or outside it."""
    if answer is None or not bands:
        return
    base = answer.baseline
    lines = []
    for c in answer.rows[1:]:
        own = [b for b in (bands.get(c.rate.id), bands.get(base.id)) if b is not None and b.rows > 1]
        if not own:
            continue
        widest = max(own, key=lambda b: b.high - b.low)
        band = f"band {widest.low:,.4g}–{widest.high:,.4g} {base.unit}, CV {widest.cv_pct:.1f}% over {widest.rows} rows"
        if within_noise(c.rate.value, base.value, own):
            lines.append(f"**{plain(c.rate.label)}** vs {plain(base.label)}: **within noise** ({band}).")
        else:
            lines.append(f"**{plain(c.rate.label)}**: {times(c.speedup)} the baseline, outside the noise ({band}).")
    for line in lines:
        st.caption(line)
