"""Another tool's results file → History rows, through an ImportMapping: the one path the History page and
`python -m engine results import FILE --mapping MAP` share.

Wide tables are melted (one History row per source row and value column, each value in its own metric
column with its unit); system names are split by the mapping's rules and normalised by the hardware table;
a sidecar's settings are joined to every row. All or nothing: the first bad cell raises `CsvError` with
its row and column, and nothing is loaded. Pure pandas; no streamlit.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd

from engine.imports.facts.import_mapping import (
    ROLES,
    TIME_UNITS,
    ImportMapping,
    ValueSpec,
    metric_column,
    unit_direction,
)
from engine.imports.facts.raw import Raw
from engine.imports.facts.units import derived_rates, step_rates, unit_from_header, unit_of
from engine.imports.identity.devices import count_said, devices
from engine.imports.read.foreign_text import (
    first_bad,
    parse_dates,
    split_number,
)
from engine.imports.reading import read_raw
from engine.imports.roles.cells import number_role, numbers, text_role
from engine.imports.roles.settings import SETTING, fit_roles
from engine.imports.shape.sidecar import sidecar_roles
from engine.results.errors import CsvError
from engine.results.history import IMPORT_CONTEXT
from engine.results.status import RunStatus

EXTRA = IMPORT_CONTEXT  # columns an imported row may carry besides DIMENSIONS and its metric columns


def _value_frame(raw: pd.DataFrame, m: ImportMapping, column: str, spec: ValueSpec) -> tuple[pd.DataFrame, int]:
    """One value column as long rows: value, metric column name, model; and how many cells had no value."""
    unit_col = m.column("unit")
    values, missing = numbers(raw, column, spec.unit or unit_from_header(column)[1] or "")
    if not spec.unit and not unit_col:  # cells carry their own unit: take the commonest
        units = raw[column].map(lambda c: (split_number(c) or ("", ""))[1])
        values, missing = numbers(raw, column, units[~missing].mode().iat[0] if (~missing).any() else "")
    if (spec.direction or ("higher" if unit_direction(spec.unit) else "")) == "higher":
        missing = missing | (values == 0)  # a rate of 0 is a benchmark that did not run, not a result
    keep = ~missing
    used = [column, m.column("metric"), unit_col, "_row"]
    rows = raw.loc[keep, [c for c in dict.fromkeys(used) if c]]  # these columns only: a report may have 1,000
    metric = (
        rows[m.column("metric")]
        if not spec.metric and m.column("metric")
        else pd.Series(spec.metric or column, index=rows.index)
    )
    if (metric == "").any():
        raise first_bad(rows, metric == "", m.column("metric"), "the metric name is empty (got {raw})")
    unit = rows[unit_col] if unit_col and not spec.unit else pd.Series(spec.unit, index=rows.index)
    vals = values[keep].astype(float)
    is_acc = metric.str.lower().str.contains("accuracy") & unit.isin(["%", "", "fraction"])
    if is_acc.any():
        fraction = m.accuracy == "fraction" or (m.accuracy == "auto" and vals[is_acc].max() <= 1.0)
        vals = vals.where(~is_acc, vals * (100.0 if fraction else 1.0))
        unit = unit.where(~is_acc, "%")
    names = pd.Series(
        [metric_column(a, b, spec.direction) for a, b in zip(metric, unit, strict=True)], index=rows.index
    )
    out = pd.DataFrame(
        {"value": vals, "metric_col": names, "source_column": column, "unit": unit.astype(object)}, index=rows.index
    )
    if spec.model:
        out["model"] = spec.model
    for key, value in spec.settings.items():
        out[SETTING + key] = value
    step = m.column("step")  # a series' rows of another kind (a report's iterations) lack the column: not missing
    counted = missing & values.notna().groupby(raw[step] == "").transform("any") if step else missing
    return out, int(counted.sum())


def _dimensions(raw: pd.DataFrame, m: ImportMapping, constants: dict[str, str]) -> pd.DataFrame:
    """Everything about a source row that is not a measured value."""
    out = devices(raw, m, constants)
    for role in ("model", "precision", "framework"):
        out[role] = text_role(raw, m, role, constants)
    batch = number_role(raw, m, "batch", constants, whole=True)
    if batch is not None and any(w in m.column("batch").lower() for w in ("per gpu", "per device", "per replica")):
        batch = batch * out["device_count"].astype("Float64").fillna(1)  # History holds the global batch
    out["global_batch_size"] = (
        batch.round().astype("Int64") if batch is not None else pd.array([pd.NA] * len(raw), dtype="Int64")
    )
    date_col = m.column("date")
    if date_col:
        out["date"] = parse_dates(raw, date_col)
    else:
        text = pd.Series(constants.get("date", ""), index=raw.index)
        out["date"] = parse_dates(pd.DataFrame({"date": text, "_row": raw["_row"]}), "date")
    time = number_role(raw, m, "time", constants, whole=False)
    out["elapsed_s"] = time * TIME_UNITS[m.time_unit] if time is not None else np.nan
    for role, column in (
        ("step", "step"),
        ("price", "price_usd_per_h"),
        ("power", "power_w"),
        ("cost", "system_price_usd"),
    ):
        values = number_role(raw, m, role, constants, whole=False)
        out[column] = values if values is not None else np.nan
    for column in m.columns("setting"):  # each value its own configuration (text: never charted, never pooled)
        out[SETTING + column] = raw[column].astype(str).replace("", None)
    for key, value in constants.items():
        if key.startswith(SETTING):
            out[key] = value
    if m.shape == "telemetry" and not (m.column("date") or m.column("step") or m.column("time")):
        out["step"] = raw["_row"].astype(float)  # a log without timestamps: samples in order
    out["_row"] = raw["_row"]
    return out


def _check(raw: pd.DataFrame, m: ImportMapping) -> None:
    for column, role in m.roles.items():
        if column not in raw.columns:
            raise CsvError(
                f"the mapping gives column {column!r} the role {role}, but this file has no such column", 1, column
            )
    if not m.columns("value"):
        kept = ", ".join(m.columns("setting") + m.columns("batch") + m.columns("label"))[:200]
        raise CsvError(
            "nothing in this file is a measurement"
            + (f" (settings only: {kept})" if kept else "")
            + ": load it together with its results table (as its sidecar), or give a column the role 'value'"
        )
    for role in ("device", "system", "model", "metric", "unit", "count", "nodes", "batch", "date", "time", "step"):
        if len(m.columns(role)) > 1:
            raise CsvError(f"only one column can have the role {role} ({', '.join(m.columns(role))})")


def _notes(raw: pd.DataFrame, m: ImportMapping, missing: dict[str, int]) -> list[str]:
    notes = []
    skipped = {c: n for c, n in missing.items() if n}
    if skipped:
        notes.append(
            "cells with no value (blank, n/a, OOM, a rate of 0 …) skipped: "
            + ", ".join(f"{c} ({n})" for c, n in skipped.items())
        )
    dropped = [c for c in raw.columns if c != "_row" and m.roles.get(c, "ignore") == "ignore"]
    if dropped:
        notes.append("columns not imported (role 'ignore'): " + ", ".join(dropped))
    kept = m.columns("label")
    if kept:
        notes.append("kept as text only (role 'label'): " + ", ".join(kept))
    return notes


def apply_import(
    raw: pd.DataFrame, m: ImportMapping, file_name: str, sidecar: dict[str, str] | None = None
) -> tuple[pd.DataFrame, list[str]]:
    """History rows (DIMENSIONS + EXTRA + one column per metric) and notes on what was dropped and why.

    Raises:
      CsvError: the first bad cell (row and column named), or a mapping that does not fit the file.
    """
    m = copy.deepcopy(m)
    fitted = fit_roles(raw, m)  # a saved or edited mapping meets cells that do not fit a role: demoted, said
    _check(raw, m)
    side = sidecar_roles(sidecar or {})
    # the framework a file name suggests ("…_pytorch.tsv") yields to its sidecar's own ("PyTorch 0.4.1")
    constants = {**side, **{k: v for k, v in m.constants.items() if k != "framework" or k not in side}}
    dims = _dimensions(raw, m, constants)
    parts, missing = [], {}
    for column in m.columns("value"):
        part, missing[column] = _value_frame(raw, m, column, m.values.get(column) or ValueSpec())
        parts.append(part)
    long = pd.concat(parts)
    if long.empty:
        raise CsvError("no cell of the value columns holds a number")
    out = dims.loc[long.index].reset_index(drop=True)
    long = long.reset_index(drop=True)
    stem = file_name.rsplit(".", 1)[0]
    model = long["model"] if "model" in long.columns else pd.Series(None, index=long.index, dtype=object)
    out["model"] = model.fillna(out["model"]).fillna(stem)
    for column in [c for c in long.columns if c.startswith(SETTING)]:  # a key's own settings (`…m4096…`)
        out[column] = long[column].astype(object).where(long[column].notna(), None)
    names = list(pd.unique(long["metric_col"]))
    for name in names:
        out[name] = long["value"].where(long["metric_col"] == name)
    derived = step_rates(out, names) + derived_rates(out, names)
    out["file"], out["source"] = file_name, "file:" + file_name
    out["status"], out["kind"] = RunStatus.OK.value, "external"
    out["run_id"] = file_name + ":" + out["_row"].astype(str) + ":" + long["source_column"]
    out["workload"] = out["model"]
    out["unit"] = [unit_of(n, u) for n, u in zip(long["metric_col"], long["unit"].fillna(""), strict=True)]
    for key, value in (sidecar or {}).items():
        out[f"meta.{key}"] = value
    notes = [*_notes(raw, m, missing), *fitted, *m.said, *count_said(m, side, dims)]
    notes += [f"added: {', '.join(derived)}"] if derived else []
    return out.drop(columns="_row"), notes


def load_foreign(
    data: bytes | str, name: str, mapping: ImportMapping | None = None, sidecar: dict[str, str] | None = None
) -> tuple[pd.DataFrame, list[str]]:
    """Read and map a foreign file in one go (headless: the CLI and tests). Raises CsvError."""
    raw = read_raw(data, name)
    return apply_import(raw.frame, mapping or raw.guess, name, sidecar)


__all__ = ["EXTRA", "ROLES", "Raw", "apply_import", "load_foreign", "read_raw"]
