"""The Run page's backend picker: every Keras 3 backend is listed; one that is not installed is shown
as such, with the one command that installs it (the spec refuses a run on it with the same line)."""

from __future__ import annotations

import streamlit as st

from engine.catalog import backends


def _label(name: str) -> str:
    info = backends.INFO[name]
    return info.label if backends.installed(name) else f"{info.label} (not installed)"


def backend_select() -> str:
    st.session_state.setdefault("run_backend", backends.DEFAULT_BACKEND)
    choice = st.radio(
        "Backend",
        backends.BACKENDS,
        key="run_backend",
        format_func=_label,
        horizontal=True,
        help="Keras 3 runs the same model on TensorFlow, JAX or PyTorch; each run uses one, in its own process.",
    )
    missing = [b for b in backends.BACKENDS if not backends.installed(b)]
    if choice in missing:
        st.warning(
            f"{backends.INFO[choice].label} is not installed here. Install it with `{backends.INFO[choice].install}`"
        )
    elif missing:
        st.caption(" · ".join(f"{backends.INFO[b].label}: `{backends.INFO[b].install}`" for b in missing))
    return choice
