"""The Run page's form next to the run shown above it: the form either holds that run's settings or says
how the next run differs, and one click loads the shown run's settings back into it.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.catalog.micro_presets import SHAPE_FIELDS, matching_preset
from engine.catalog.specs import Spec, spec_to_dict
from engine.runs.store import Store
from ui.run_form import CUSTOM, FIELD_LABELS

# Spec fields whose form widget is not simply run_<field>.
_WIDGET_KEYS = {"price_per_hour_usd": "run_price"}
_SKIP = {"kind"}


def shown_spec(run_id: str | None, db: Store) -> dict[str, Any] | None:
    """The spec the shown run was launched with (None for an imported run or one with no job record)."""
    job = db.get_job(run_id) if run_id else None
    return dict(job["spec"]) if job and job.get("spec") else None


def _ignored(spec: dict[str, Any]) -> set[str]:
    """Fields a request does not use: the other operation's shape fields (they hold defaults)."""
    if spec.get("kind") == "train":
        return set(_SKIP)
    mine = set(SHAPE_FIELDS.get(str(spec.get("bench")), ()))
    return _SKIP | {f for fields in SHAPE_FIELDS.values() for f in fields} - mine


def _widget_key(field: str, train: bool) -> str:
    if field == "timeout_s":
        return "run_timeout_train_s" if train else "run_timeout_micro_s"
    if field == "batch_size" and not train:
        return "run_conv_batch"
    return _WIDGET_KEYS.get(field, f"run_{field}")


def load_settings(spec: dict[str, Any]) -> None:
    """Put a run's spec into the form's widgets (a callback, or before the form is drawn)."""
    train = spec.get("kind") == "train"
    st.session_state["run_workload"] = "Training" if train else "Microbenchmark"
    ignored = _ignored(spec)
    for field, value in spec.items():
        if field in ignored:
            continue
        st.session_state[_widget_key(field, train)] = value
    if not train:
        st.session_state["run_preset"] = matching_preset(spec) or CUSTOM


def differences(current: Spec | None, shown: dict[str, Any]) -> list[str]:
    """'M: 2048 → 512' for each setting where the form's (valid) request differs from the shown run's."""
    if current is None:
        return []
    now = spec_to_dict(current)
    if now.get("kind") != shown.get("kind"):
        return [f"Workload: {shown.get('kind')} → {now.get('kind')}"]
    out, ignored = [], _ignored(now)
    for field, value in now.items():
        if field in ignored or field not in shown or shown[field] == value:
            continue
        label = FIELD_LABELS.get("--" + field.replace("_", "-"), field)
        out.append(f"{label}: {shown[field]} → {value}")
    return out


def next_run_note(current: Spec | None, shown: dict[str, Any] | None) -> None:
    """Under the form, when a run is shown above: does the form hold its settings, and if not, a way back."""
    if shown is None:
        st.caption("The form sets up the next run; the run shown above keeps its own settings.")
        return
    diff = differences(current, shown)
    if not diff and current is not None:
        st.caption(":material/check: The form holds the settings of the run shown above.")
        return
    st.caption("**Next run** differs from the run shown above — " + ("; ".join(diff) or "the form is not valid yet"))
    st.button(
        "Use the shown run's settings",
        key="run_load_shown",
        icon=":material/undo:",
        on_click=load_settings,
        args=(shown,),
    )
