"""Keep every page inside app.py's frame, even on a deep link to a fresh server.

Until some session has run `st.navigation`, Streamlit serves a URL like /references straight from
the legacy pages/ folder: the page runs without app.py (no menu, no wide layout). A page that
finds itself there hands the request to app.py, which routes back to it through st.navigation.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

FRAME_KEY = "_accelbench_frame"
DEEPLINK_KEY = "_accelbench_deeplink"


def mark_frame() -> None:
    """Called by app.py before the page runs."""
    st.session_state[FRAME_KEY] = True


def ensure_frame(page_file: str) -> None:
    """Call first thing in a page: redirect through app.py when the page was served bare."""
    ctx = get_script_run_ctx()
    if ctx is None or st.session_state.get(FRAME_KEY):
        return
    if Path(ctx.main_script_path).name != "app.py":
        return  # the page is the entrypoint itself (AppTest, or `streamlit run pages/x.py`): nothing to route
    # The query string goes along both hops: st.switch_page drops it unless it is passed on (a bare
    # `/run?run=ID` on a fresh server would otherwise land on the Run page without its run).
    query = {k: st.query_params.get_all(k) for k in st.query_params}
    st.session_state[DEEPLINK_KEY] = (f"pages/{Path(page_file).name}", query)
    st.switch_page("app.py", query_params=query)


def take_deeplink() -> tuple[str, dict[str, list[str]]] | None:
    """In app.py after st.navigation: the page a bare deep link asked for and its query string, once."""
    return st.session_state.pop(DEEPLINK_KEY, None)
