"""AccelBench — the router. Pages live in pages/; nothing heavy is imported here (never TensorFlow)."""

import streamlit as st

from engine.runs.store import StoreError
from ui.common import apply_secrets
from ui.frame import mark_frame, take_deeplink

st.set_page_config(page_title="AccelBench", page_icon=":material/speed:", layout="wide")

PAGES = {
    "AccelBench": [
        st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
        st.Page("pages/run.py", title="Run", icon=":material/play_arrow:"),
        st.Page("pages/sweep.py", title="Sweep", icon=":material/grid_view:"),
    ],
    "Analyse": [
        st.Page("pages/compare.py", title="Compare", icon=":material/bar_chart:"),
        st.Page("pages/history.py", title="History", icon=":material/table_chart:"),
        st.Page("pages/references.py", title="References", icon=":material/menu_book:"),
    ],
    "Machine": [st.Page("pages/devices.py", title="Devices", icon=":material/memory:")],
}

apply_secrets()  # before any page opens the store: the database and demo mode may come from secrets
mark_frame()
navigation = st.navigation(PAGES)
deeplink = take_deeplink()
if deeplink:
    st.switch_page(deeplink[0], query_params=deeplink[1])
try:
    navigation.run()
except StoreError as exc:  # every database fault on every page: one message saying what to do, no traceback
    st.error(f"The results database cannot be used: {exc}", icon=":material/database:")
