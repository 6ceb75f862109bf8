"""Small helpers shared by the pages: the store handle, number formats, the demo banner.

No TensorFlow here; pages call the engine only through these and `engine.runs.jobs`.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import streamlit as st

from engine import settings
from engine.runs.store import Store

# emphasis, code, links, HTML, directives, LaTeX, autolinks; `_` only where it can open or close emphasis
# (CommonMark never reads an underscore inside a word, as in fashion_cnn, as emphasis)
# and `:` only before a letter or `/` (`:red[`, `:material/…:`, `http://`), not in "column 'x': …"
_INLINE = re.compile(r"([\\`*{}\[\]<>~$&|]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|:(?=[A-Za-z/]))")


def plain(value: Any) -> str:
    """User data (model names, notes, labels, file names, errors) as literal text inside st.markdown,
    captions, warnings and errors: line breaks become spaces (no headings, lists or tables), and every
    character that would start a link, emphasis, code, HTML, a `:red[…]`/`:material/…:` directive,
    LaTeX (`$`) or an autolink (`http:`, `www.`) is backslash-escaped, as is a leading block marker."""
    text = _INLINE.sub(r"\\\1", " ".join(str(value).splitlines()))
    text = re.sub(r"(?i)\bwww\.", lambda m: m.group(0)[:-1] + "\\.", text)
    text = re.sub(r"^(\s*)([#+\-=>!])", r"\1\\\2", text)
    return re.sub(r"^(\s*\d+)([.)])", r"\1\\\2", text)


def apply_secrets() -> None:
    """`ACCELBENCH_DB` and `ACCELBENCH_DEMO` from Streamlit secrets (a hosted app has no shell to export
    them) into the environment, where the engine, the store and launched workers all read them; an
    environment variable already set wins."""
    for name in ("ACCELBENCH_DB", "ACCELBENCH_DEMO"):
        if os.environ.get(name):
            continue
        try:
            value = st.secrets.get(name)
        except Exception:  # no secrets.toml at all is the normal case
            return
        if value not in (None, ""):
            os.environ[name] = str(value)


def demo_mode() -> bool:
    """Demo mode from the environment or from Streamlit secrets (`ACCELBENCH_DEMO = true`)."""
    if settings.demo_mode():
        return True
    try:
        return str(st.secrets.get("ACCELBENCH_DEMO", "")).strip().lower() in ("1", "true", "yes", "on")
    except Exception:  # no secrets.toml at all is the normal case
        return False


_OWNED = "owned_run_ids"


def own_run(run_id: str) -> None:
    """Record that this browser session launched `run_id` (it may then cancel it and read its log)."""
    owned = st.session_state.setdefault(_OWNED, [])
    if run_id not in owned:
        owned.append(run_id)


def owns_run(run_id: str) -> bool:
    """May this session cancel `run_id` or read its log? Always outside demo mode; in demo mode only
    for runs this session launched (a run id from a URL or another visitor is view-only)."""
    return not demo_mode() or run_id in st.session_state.get(_OWNED, [])


def store() -> Store:
    """A Store for the configured database (cheap: opens a connection per call)."""
    return Store()


def read_only_note(db: Store) -> str:
    """Why runs are off on this dashboard, in a sentence (a read-only file or role, or a demo of a team store)."""
    if db.path is None and demo_mode():
        return (
            "Runs are off here: this public demo shows a team's results database and never writes to it. "
            "Run AccelBench on your own machine (see the README) to benchmark it."
        )
    return (
        f"Runs are off here: the results database {db.target.display} is read-only for this dashboard. "
        "Browsing, comparing and exporting still work."
    )


MISSING = "—"  # how every table, metric and caption shows a value that is not there (never "None" or "nan")


def show_table(data: Any, where: Any = None, **kwargs: Any) -> Any:
    """st.dataframe (or `where.dataframe`, for a column) with missing cells shown as "—".

    The one table formatter of the app: every page's tables go through it, so no cell reads "None".
    Object columns get the dash as text too, which keeps a downloaded copy of the shown frame readable.
    """
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        text_cols = [c for c in data.columns if data[c].dtype == object]
        if text_cols:
            data = data.copy()
            data[text_cols] = data[text_cols].astype(object).where(data[text_cols].notna(), MISSING)
    return (where or st).dataframe(data, placeholder=MISSING, **kwargs)


def edit_table(data: Any, **kwargs: Any) -> Any:
    """st.data_editor with missing cells shown as "—" (the data itself is left as it is, so edits round-trip)."""
    return st.data_editor(data, placeholder=MISSING, **kwargs)


def fmt_num(value: Any, digits: int = 1, unit: str = "") -> str:
    """1234.5 → '1,234.5 unit'; missing → '—'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    text = f"{value:,.{digits}f}"
    return f"{text} {unit}".strip()


def fmt_seconds(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if value < 1:  # milliseconds below a second, seconds above: the unit follows the magnitude
        return f"{value * 1000:.3g} ms"
    if value < 120:
        return f"{value:,.2f} s"
    if value < 2 * 3600:
        return f"{value / 60:,.1f} min"
    return f"{value / 3600:,.1f} h"


def demo_banner() -> None:
    if demo_mode():
        from engine.catalog import demo

        st.info(
            f"**Demo mode** — runs are limited to small workloads (matmul ≤ {demo.DEMO_MAX_MATMUL_DIM}, "
            f"models {', '.join(demo.DEMO_MODELS)} on synthetic data, ≤ {demo.DEMO_MAX_STEPS} steps, "
            f"≤ {demo.DEMO_TIMEOUT_S:g} s), one run at a time; uploads stay in your browser session.",
            icon=":material/lock:",
        )


def show_chart(fig, key: str, file_stem: str) -> None:
    """A plotly chart in the Streamlit theme, with HTML (and, where the server can render it, PNG) downloads.

    The files are built only when a button is clicked (a callable `data`), so a page with many
    charts does not pay for a 4 MB self-contained HTML per chart on every rerun. The chart's own
    toolbar camera button saves a PNG in the browser too, which needs nothing on the server.
    """
    from engine.charts import base as charts
    from engine.imports.read.foreign_text import safe_name

    stem = safe_name(file_stem)
    empty = charts.is_empty(fig)
    if empty:  # a sentence reads better than a blank plot area, and there is nothing to download
        st.info(empty, icon=":material/info:")
        return
    charts.escape_text(fig)  # labels and hover texts from imported files are text, never markup
    st.plotly_chart(
        fig,
        theme="streamlit",
        key=key,
        config={"displaylogo": False, "toImageButtonOptions": {"format": "png", "filename": stem, "scale": 2}},
    )
    row = st.container(horizontal=True, gap="small")
    row.download_button(
        "HTML",
        data=lambda: charts.figure_html(fig),
        file_name=f"{stem}.html",
        mime="text/html",
        key=f"{key}_html",
        on_click="ignore",
        icon=":material/download:",
        help="An interactive copy of this chart that opens offline in any browser",
    )
    if charts.png_export_available():
        row.download_button(
            "PNG",
            data=lambda: charts.figure_png(fig),
            file_name=f"{stem}.png",
            mime="image/png",
            key=f"{key}_png",
            on_click="ignore",
            icon=":material/image:",
            help="A 2400×1200 image, rendered on the server (takes a few seconds)",
        )
    else:
        row.caption("PNG: the camera icon on the chart saves one")


def download_csv(df, key: str, file_stem: str, label: str = "CSV") -> None:
    """A table as a CSV download (built on click), safe to open in a spreadsheet (text cells that
    start with = + - @ tab or CR get a leading `'`: engine.results.csvio.frame_to_csv)."""
    from engine.imports.read.foreign_text import safe_name
    from engine.results.csvio import frame_to_csv

    st.download_button(
        label,
        data=lambda: frame_to_csv(df).encode("utf-8"),
        file_name=f"{safe_name(file_stem)}.csv",
        mime="text/csv",
        key=key,
        on_click="ignore",
        icon=":material/download:",
    )


def page_link(page: str, label: str, icon: str | None = None, query_params: dict | None = None) -> None:
    """st.page_link that also works when a page file runs on its own (`streamlit run pages/x.py`,
    AppTest of one page), where no navigation is registered: then a plain link is shown instead."""
    from streamlit.errors import StreamlitAPIException

    try:
        st.page_link(page, label=label, icon=icon, query_params=query_params)
    except StreamlitAPIException:
        from urllib.parse import urlencode

        query = f"?{urlencode(query_params)}" if query_params else ""
        st.markdown(f"[{label}](/{Path(page).stem}{query})")


def switch_page(page: str, query_params: dict | None = None) -> None:
    """st.switch_page, or — when the page runs on its own without navigation — stay and say where to go."""
    from streamlit.errors import StreamlitAPIException

    try:
        st.switch_page(page, query_params=query_params)
    except StreamlitAPIException:
        st.info(f"Open the {Path(page).stem.capitalize()} page to follow it.", icon=":material/arrow_forward:")
