"""Small helpers shared by the pages: the store handle, number formats, the demo banner.

No TensorFlow here; pages call the engine only through these and `engine.jobs`.
"""

from __future__ import annotations

import math
from typing import Any

import streamlit as st

from engine import settings
from engine.store import Store


def demo_mode() -> bool:
    """Demo mode from the environment or from Streamlit secrets (`ACCELBENCH_DEMO = true`)."""
    if settings.demo_mode():
        return True
    try:
        return str(st.secrets.get("ACCELBENCH_DEMO", "")).strip().lower() in ("1", "true", "yes", "on")
    except Exception:  # no secrets.toml at all is the normal case
        return False


def store() -> Store:
    """A Store for the configured database (cheap: opens a connection per call)."""
    return Store()


def fmt_num(value: Any, digits: int = 1, unit: str = "") -> str:
    """1234.5 → '1,234.5 unit'; missing → '—'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    text = f"{value:,.{digits}f}"
    return f"{text} {unit}".strip()


def fmt_seconds(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if value < 1:
        return f"{value * 1000:,.1f} ms"
    if value < 120:
        return f"{value:,.2f} s"
    return f"{value / 60:,.1f} min"


def demo_banner() -> None:
    if demo_mode():
        from engine import demo

        st.info(
            f"**Demo mode** — runs are limited to small workloads (matmul ≤ {demo.DEMO_MAX_MATMUL_DIM}, "
            f"models {', '.join(demo.DEMO_MODELS)} on synthetic data, ≤ {demo.DEMO_MAX_STEPS} steps, "
            f"≤ {demo.DEMO_TIMEOUT_S:g} s), one run at a time; uploads stay in your browser session.",
            icon=":material/lock:",
        )
