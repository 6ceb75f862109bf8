"""History page: the mapping step for another tool's results file — the detected shape, a role per column
(with metric, unit, model and direction for each value column), the system-name rules and their preview,
the first rows as they will be imported, what is dropped and why, and the mapping as a JSON download that
can be uploaded again here or used headless (`python -m engine results import FILE --mapping MAP`).

Every edit re-applies the mapping at once (engine.imports.importer.apply_import); nothing is saved. The mapped
rows, their preview and the system-name table are cached per (file digest, mapping), so a rerun that changes
neither (a tab switch, a filter) does not map the file again.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pandas as pd
import streamlit as st

from engine.imports.facts.import_mapping import ROLES, SHAPES, TIME_UNITS, ImportMapping, ValueSpec, mapping_from_json
from engine.imports.facts.raw import Raw
from engine.imports.identity import systems
from engine.imports.importer import apply_import
from engine.imports.view.imported import to_long
from engine.results.errors import CsvError
from ui.common import edit_table, show_table

PREVIEW = 8


@st.cache_data(max_entries=64, show_spinner=False)
def _mapped(
    digest: str,
    mapping_key: str,
    name: str,
    sidecar_key: str,
    _frame: pd.DataFrame,
    _m: ImportMapping,
    _sidecar: dict[str, str] | None,
) -> tuple[pd.DataFrame | None, str, list[str], pd.DataFrame | None]:
    """apply_import once per (file digest, mapping, file name, sidecar): (rows, error, notes, preview rows).
    The underscored arguments are what the keys stand for (streamlit does not hash them)."""
    try:
        rows, notes = apply_import(_frame, _m, name, _sidecar)
    except CsvError as exc:
        return None, str(exc), [], None
    return rows, "", notes, to_long(rows).head(PREVIEW).dropna(axis=1, how="all")


@st.cache_data(max_entries=64, show_spinner=False)
def _system_table(
    digest: str,
    column: str,
    rules: tuple[str, ...],
    fixes_key: str,
    _names: pd.Series,
    _fixes: dict[str, dict[str, str]],
) -> pd.DataFrame | str:
    """The system-name preview table once per (file digest, column, rules, corrections); a bad rule's message."""
    try:
        return systems.preview(_names, list(rules), limit=50, fixes=_fixes)
    except CsvError as exc:
        return str(exc)


def _mapping(key: str, raw: Raw) -> tuple[ImportMapping, int]:
    """The file's current base mapping (the guess, or an uploaded one) and its version (editor keys change with it)."""
    state = st.session_state.setdefault(f"{key}_base", {"mapping": raw.guess, "version": 0, "upload": None})
    up = st.file_uploader(
        "Use a saved mapping (JSON)", type=["json"], key=f"{key}_upload", help="A mapping downloaded from this page"
    )
    if up is not None and up.file_id != state["upload"]:
        state["upload"] = up.file_id
        try:
            state["mapping"], state["version"] = mapping_from_json(up.getvalue()), state["version"] + 1
        except CsvError as exc:
            st.error(f"{up.name}: {exc}", icon=":material/error:")
    return state["mapping"], state["version"]


def _fields(key: str, raw: Raw, base: ImportMapping) -> ImportMapping:
    """JSON: which flattened fields to import (the others are dropped)."""
    if base.shape != "json":
        return base
    fields = [c for c in raw.frame.columns if c != "_row"]
    keep = st.multiselect(
        "Fields to import",
        fields,
        default=[c for c in fields if base.roles.get(c, "ignore") not in ("ignore", "label")],
        key=f"{key}_fields",
        help="Nested objects are flattened to dotted names (config.batch_size); pick the ones that matter.",
    )
    return replace(base, roles={c: (base.roles.get(c, "label") if c in keep else "ignore") for c in fields})


def _roles_table(raw: Raw, m: ImportMapping) -> pd.DataFrame:
    rows = []
    for c in (c for c in raw.frame.columns if c != "_row" and m.roles.get(c, "ignore") != "ignore"):
        spec = m.values.get(c, ValueSpec())
        sample = " · ".join(v for v in raw.frame[c].head(3).astype(str) if v)[:60]
        rows.append({"column": c, "sample": sample, "role": m.roles.get(c, "label"), "metric": spec.metric,
                     "unit": spec.unit, "model": spec.model, "better": spec.direction})  # fmt: skip
    return pd.DataFrame(rows, columns=["column", "sample", "role", "metric", "unit", "model", "better"])


def _roles(key: str, version: int, raw: Raw, m: ImportMapping) -> ImportMapping:
    """One row per column: its role, and for a value what it measures, its unit, its model, which way is better."""
    table = _roles_table(raw, m)
    edited = edit_table(
        table,
        key=f"{key}_roles_{version}_{len(table)}",
        hide_index=True,
        disabled=["column", "sample"],
        width="stretch",
        column_config={
            "role": st.column_config.SelectboxColumn("Role", options=list(ROLES), required=True,
                                                     help="; ".join(f"{r}: {t}" for r, t in ROLES.items())),
            "metric": st.column_config.TextColumn("Metric", help="Value columns: what it measures (Throughput, Time to train)"),
            "unit": st.column_config.TextColumn("Unit", help="images/s, sequences/s, tokens/s, ms, min, h, % …"),
            "model": st.column_config.TextColumn("Model", help="Wide tables: the model this column is about"),
            "better": st.column_config.SelectboxColumn("Better", options=["", "higher", "lower"],
                                                       help="Empty: from the unit (rates higher, times lower)"),
        },
    )  # fmt: skip
    roles = dict(m.roles) | {r["column"]: r["role"] for r in edited.to_dict("records")}
    values = {
        r["column"]: ValueSpec(
            metric=str(r["metric"] or ""),
            unit=str(r["unit"] or ""),
            model=str(r["model"] or ""),
            direction=str(r["better"] or ""),
            settings=m.values[r["column"]].settings if r["column"] in m.values else {},  # a key's own parameters
        )
        for r in edited.to_dict("records")
        if r["role"] == "value"
    }
    return replace(m, roles=roles, values=values)


def _fixes(table: pd.DataFrame, edited: pd.DataFrame, base: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """The user's corrections: every editable cell that differs from what the parser read (kept by name)."""
    out = {n: dict(f) for n, f in base.items()}
    for (_, before), (_, after) in zip(table.iterrows(), edited.iterrows(), strict=True):
        for part in systems.EDITABLE:
            old, new = before[part], after[part]
            if _text(old) != _text(new):
                out.setdefault(str(before["system"]), {})[part] = _text(new)
    return out


def _text(value: object) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)):
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


def _systems(key: str, version: int, raw: Raw, m: ImportMapping) -> ImportMapping:
    """Each distinct system name as the parser reads it (device, count, memory, form factor, variant, provider,
    host), editable: a corrected cell is kept in the mapping for that name. Own regexes are optional."""
    column = m.column("system") or m.column("device")
    if not column:
        return m
    text = st.text_area(
        "Your own system-name rules (optional; one regular expression per line, named groups count, model, "
        "variant, note — tried before the built-in parser)",
        "\n".join(m.system_rules),
        key=f"{key}_rules_{version}",
        height=68,
        help="The built-in parser reads vendor/cloud prefixes, N× counts, memory, form factor, host addresses and "
        "variants, and looks the device up in the hardware table. Correct any cell in the table below instead.",
    )
    rules = [r for r in text.split("\n") if r.strip()] if m.column("system") else []
    fixes_key = json.dumps(m.system_fixes, sort_keys=True)
    table = _system_table(raw.digest, column, tuple(rules), fixes_key, raw.frame[column], m.system_fixes)
    if isinstance(table, str):
        st.error(table, icon=":material/error:")
        return replace(m, system_rules=rules)
    _ambiguous(raw.frame[column], rules)
    st.caption("How the names are read — correct a cell and the rows follow:")
    shown = table.drop(columns=["device_label"])
    edited = edit_table(
        shown,
        key=f"{key}_sys_fix_{version}",
        hide_index=True,
        disabled=["system", "hardware_key"],
        width="stretch",
        column_config={
            "device_count": st.column_config.NumberColumn("Count", min_value=1, step=1),
            "memory_gb": st.column_config.NumberColumn("Memory (GB)"),
            "hardware_key": st.column_config.TextColumn("Hardware table", help="Looked up from the device"),
        },
    )
    return replace(m, system_rules=rules, system_fixes=_fixes(shown, edited, m.system_fixes))


def _ambiguous(names: pd.Series, rules: list[str]) -> None:
    """Names that could be read another way, each with the reading chosen (correct it in the table below)."""
    found = systems.ambiguous(names, rules)
    if found:
        lines = "\n".join(f"- `{n}`: {why}" for n, why in found[:8]) + (
            f"\n- … and {len(found) - 8} more like them" if len(found) > 8 else ""
        )
        st.info(f"**{len(found)} name{'s' * (len(found) > 1)} could be read another way** — the reading chosen:\n"
                + lines, icon=":material/help:")  # fmt: skip


def _device(key: str, version: int, m: ImportMapping, sidecar: bool) -> ImportMapping:
    """A file that names no system or device (an nvidia-smi log): the user types it once for every row."""
    if m.column("system") or m.column("device") or sidecar:
        return m
    typed = st.text_input(
        "Device for every row (this file names none)",
        m.constants.get("device", ""),
        key=f"{key}_device_{version}",
        placeholder="e.g. RTX 2080 Ti, 8x A100 80GB",
        help="Saved with the mapping. Or give a column the role system/device.",
    )
    constants = {k: v for k, v in m.constants.items() if k != "device"} | ({"device": typed} if typed.strip() else {})
    return replace(m, constants=constants)


def _series(key: str, version: int, m: ImportMapping) -> ImportMapping:
    if not m.column("time"):
        return m
    others = [c for c, r in m.roles.items() if r == "label" and c != m.column("time") and "time" in c.lower()]
    st.caption(
        f"Time axis: **{m.column('time')}** (elapsed training time)"
        + (f"; kept as text, not the axis: {', '.join(others)}" if others else "")
        + ". Give another column the role time to change it."
    )
    c = st.columns(2)
    units = list(TIME_UNITS)
    unit = c[0].selectbox("Time column unit", units, index=units.index(m.time_unit), key=f"{key}_tunit_{version}")
    acc = c[1].selectbox(
        "Accuracy given as",
        ["auto", "fraction", "percent"],
        index=["auto", "fraction", "percent"].index(m.accuracy),
        key=f"{key}_acc_{version}",
        help="auto: a column that never exceeds 1 is a fraction; both end up in %",
    )
    return replace(m, time_unit=unit, accuracy=acc)


def import_step(name: str, key: str, raw: Raw, sidecar: tuple[str, dict[str, str]] | None):
    """The mapping step for one file, in an expander; returns (History rows or None, error, notes)."""
    k = f"hist_imp_{key}"
    base, version = raw.guess, 0
    shape = SHAPES.get(base.shape, base.shape) + (f" — recognised: {base.fmt}" if base.fmt else "")
    with st.expander(f"**{name}** — {shape}. Check how it is read", expanded=True):
        for flag in raw.frame.attrs.get("flags", []):  # the file contradicts itself: a CPU run on a GPU host
            st.warning(f"**{name}**: {flag}.", icon=":material/warning:")
        st.caption(
            f"Read as {raw.how}."
            + (f" Settings from **{sidecar[0]}** are added to every row." if sidecar else "")
            + " Change a column's role or unit below; the chart follows."
        )
        base, version = _mapping(k, raw)
        m = _series(k, version, _systems(k, version, raw, _roles(k, version, raw, _fields(k, raw, base))))
        m = _device(k, version, m, sidecar is not None)
        side = sidecar[1] if sidecar else None
        side_key = json.dumps(side, sort_keys=True) if side else ""
        rows, error, notes, first = _mapped(raw.digest, m.key(), name, side_key, raw.frame, m, side)
        if rows is None:
            return None, error, []
        st.caption(f"The first rows as they will be imported ({len(rows):,} in all):")
        show_table(first, hide_index=True, key=f"{k}_preview")
        for note in notes:
            st.caption("• " + note)
        st.download_button(
            "Download this mapping (JSON)",
            data=m.to_json().encode("utf-8"),
            file_name=f"{name.rsplit('.', 1)[0]}.mapping.json",
            mime="application/json",
            key=f"{k}_download",
            on_click="ignore",
            icon=":material/download:",
            help=f"Upload it here next time, or: python -m engine results import {name} --mapping FILE",
        )
    return rows, "", notes
