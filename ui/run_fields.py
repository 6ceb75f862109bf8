"""One numeric field of the Run page's form, bounded by the spec's own constants (engine.catalog.specs).

The widget itself takes any number: an out-of-range value reaches the spec's validation, whose message
blocks Launch, instead of the widget silently keeping the last valid value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st


def range_text(bounds: dict[str, tuple[float, float]], field: str) -> str:
    lo, hi = bounds[field]
    return f"From {lo:,g} to {hi:,g}."


def spec_number(
    label: str,
    key: str,
    bounds: dict[str, tuple[float, float]],
    field: str,
    *,
    help: str | None = None,
    step: float = 1,
    fmt: str | None = None,
    on_change: Callable[[], Any] | None = None,
    disabled: bool = False,
) -> Any:
    """st.number_input with no min/max of its own; its help states the spec's range for `field`."""
    rng = range_text(bounds, field)
    return st.number_input(
        label,
        step=step,
        key=key,
        help=f"{help} {rng}" if help else rng,
        format=fmt,
        on_change=on_change,
        disabled=disabled,
    )
