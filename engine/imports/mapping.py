"""A foreign results table (another tool's benchmark CSV) → History rows, through a column mapping.

The user says which column is the device, the model and the value, and either which column names
the metric or what the value column measures; batch size, precision, date and workload are
optional. Every problem names the row and column (`CsvError`), in words a person can act on.
Pure pandas; no streamlit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.imports.foreign_table import MISSING_MARKERS
from engine.results.csvio import CsvError
from engine.results.status import RunStatus

NONE = ""  # "no column" in a mapping


@dataclass(frozen=True)
class ColumnMapping:
    """Which column of a foreign table holds what.

    Attributes:
      device, model, value: column names (required).
      metric: a column naming each row's metric; or empty, and then `metric_name` names the value column's metric.
      metric_name: what the value column measures, e.g. "images/sec" or "examples_per_sec" (AccelBench's
        own column names put the rows on the same axis as AccelBench runs).
      unit: appended to a custom metric name as "name (unit)".
      batch, precision, date, workload: optional columns ("" = none).
    """

    device: str
    model: str
    value: str
    metric: str = NONE
    metric_name: str = ""
    unit: str = ""
    batch: str = NONE
    precision: str = NONE
    date: str = NONE
    workload: str = NONE

    def columns(self) -> dict[str, str]:
        """Mapped role → column, for the roles that name a column."""
        roles = ("device", "model", "value", "metric", "batch", "precision", "date", "workload")
        return {r: getattr(self, r) for r in roles if getattr(self, r)}


_GUESS = {
    "device": ("device", "gpu", "hardware", "accelerator", "tpu", "platform", "processor", "chip", "system"),
    "model": ("model", "network", "net", "architecture", "benchmark", "workload"),
    "metric": ("metric", "measure", "quantity"),
    "batch": ("batch",),
    "precision": ("precision", "dtype", "datatype", "fp16", "amp"),
    "date": ("date", "timestamp", "created", "when", "day"),
    "value": ("value", "throughput", "images", "examples", "samples", "/s", "per_sec", "sec", "speed", "time", "score"),
}


def _numeric_share(col: pd.Series) -> float:
    text = col.str.replace(",", "", regex=False)
    present = ~text.str.lower().isin(MISSING_MARKERS)
    if not present.any():
        return 0.0
    return float(pd.to_numeric(text[present], errors="coerce").notna().mean())


def guess_mapping(raw: pd.DataFrame) -> ColumnMapping:
    """A first guess from the column names and contents; the user corrects it."""
    cols = [c for c in raw.columns if c != "_row"]
    sample = raw.head(200)
    numeric = {c: _numeric_share(sample[c]) >= 0.8 for c in cols}
    taken: set[str] = set()

    def pick(role: str, want_numeric: bool | None = None) -> str:
        for c in cols:
            low = c.lower()
            if c in taken or (want_numeric is not None and numeric[c] != want_numeric):
                continue
            if any(word in low for word in _GUESS[role]):
                taken.add(c)
                return c
        return NONE

    batch = pick("batch", True)
    date = pick("date", False)
    device = pick("device", False)
    model = pick("model", False)
    metric = pick("metric", False)
    precision = pick("precision", False)
    value = pick("value", True)
    if not value:
        value = next((c for c in reversed(cols) if numeric[c] and c not in taken), NONE)
    text_cols = [c for c in cols if not numeric[c] and c not in taken]
    if not device and text_cols:
        device = text_cols.pop(0)
    if not model and text_cols:
        model = text_cols.pop(0)
    return ColumnMapping(
        device=device,
        model=model,
        value=value,
        metric=metric,
        metric_name="" if metric else own_metric_for(value) or value,
        batch=batch,
        precision=precision,
        date=date,
    )


_THROUGHPUT_WORDS = (
    "images/s",
    "img/s",
    "images per s",
    "examples/s",
    "samples/s",
    "throughput",
    "images_per_s",
    "examples_per_s",
    "samples_per_s",
    "img_per_s",
    "images/sec",
    "examples/sec",
    "samples/sec",
)


def own_metric_for(column: str) -> str:
    """AccelBench's metric for a column that plainly measures the same thing (images/s → examples_per_sec),
    so another tool's throughput lands on the same axis as AccelBench runs; "" when unsure."""
    low = column.lower().replace(" ", "")
    if any(w.replace(" ", "") in low for w in _THROUGHPUT_WORDS):
        return "examples_per_sec"
    return ""


def metric_column_name(name: str, unit: str) -> str:
    """The History column a mapped metric lands in: AccelBench names stay as they are, others get the unit."""
    from engine.results.history import METRIC_LABELS

    name = name.strip()
    if name in METRIC_LABELS or not unit.strip():
        return name
    return f"{name} ({unit.strip()})"


def first_bad(raw: pd.DataFrame, mask: pd.Series, column: str, reason: str) -> CsvError:
    pos = int(np.flatnonzero(mask.to_numpy())[0])
    text = raw[column].iloc[pos]
    return CsvError(reason.format(raw=repr(text)), int(raw["_row"].iloc[pos]), column)


def _check_mapping(raw: pd.DataFrame, mapping: ColumnMapping) -> None:
    for role, col in mapping.columns().items():
        if col not in raw.columns:
            raise CsvError(f"the {role} column {col!r} is not in this file", 1, col)
    for role in ("device", "model", "value"):
        if not getattr(mapping, role):
            raise CsvError(f"choose the column that holds the {role}")
    if not mapping.metric and not mapping.metric_name.strip():
        raise CsvError("say what the value column measures (a metric name), or choose a metric column")


def _values(raw: pd.DataFrame, column: str) -> tuple[pd.Series, pd.Series]:
    """The value column as numbers, and which rows have no value (blank, n/a, OOM …)."""
    value_text = raw[column].str.replace(",", "", regex=False).str.replace("_", "", regex=False)
    missing = value_text.str.lower().isin(MISSING_MARKERS)
    values = pd.to_numeric(value_text.where(~missing), errors="coerce")
    bad = ~missing & (values.isna() | ~np.isfinite(values.fillna(0)))
    if bad.any():
        reason = "expected a number, got {raw} — keep only the number in the cell; the unit goes in the mapping"
        raise first_bad(raw, bad, column, reason)
    return values, missing


def _batch(rows: pd.DataFrame, column: str) -> pd.Series | pd.api.extensions.ExtensionArray:
    if not column:
        return pd.array([pd.NA] * len(rows), dtype="Int64")
    text = rows[column]
    batch = pd.to_numeric(text.where(text != ""), errors="coerce")
    bad = (text != "") & (batch.isna() | (batch % 1 != 0) | (batch <= 0))
    if bad.any():
        raise first_bad(rows, bad, column, "expected a whole batch size, got {raw}")
    return batch.astype("Int64")


def parse_dates(rows: pd.DataFrame, column: str) -> pd.Series:
    if not column:
        return pd.Series(pd.NaT, index=rows.index, dtype="datetime64[ns, UTC]")
    text = rows[column]
    dates = pd.to_datetime(text.where(text != ""), errors="coerce", utc=True, format="mixed")
    bad = (text != "") & dates.isna()
    if bad.any():
        raise first_bad(rows, bad, column, "expected a date like 2026-01-31 or 2026-01-31T12:00:00Z, got {raw}")
    return dates


def _add_metrics(out: pd.DataFrame, rows: pd.DataFrame, vals: pd.Series, mapping: ColumnMapping) -> None:
    """One column per metric: named by the metric column's cells, or by the mapping's metric name."""
    if not mapping.metric:
        out[metric_column_name(mapping.metric_name, mapping.unit)] = vals
        return
    names = rows[mapping.metric]
    if (names == "").any():
        raise first_bad(rows, names == "", mapping.metric, "the metric name is empty (got {raw})")
    for name in pd.unique(names):
        out[metric_column_name(name, mapping.unit)] = vals.where(names == name)


def apply_mapping(raw: pd.DataFrame, mapping: ColumnMapping, file_name: str) -> tuple[pd.DataFrame, list[str]]:
    """History rows from a foreign table (see engine.results.history.DIMENSIONS) and notes about skipped rows.

    Raises:
      CsvError: a mapped column is missing, or a cell cannot be read (row and column named).
    """
    _check_mapping(raw, mapping)
    values, missing = _values(raw, mapping.value)
    notes: list[str] = []
    if missing.any():
        notes.append(f"{int(missing.sum()):,} rows with no value (blank, n/a, OOM …) were skipped")
    rows = raw[~missing]
    out = pd.DataFrame(index=rows.index)
    out["file"] = file_name
    out["run_id"] = file_name + ":" + rows["_row"].astype(str)
    out["source"] = "file:" + file_name
    out["status"] = RunStatus.OK.value
    for role in ("device", "model"):
        col = rows[getattr(mapping, role)]
        if (col == "").any():
            raise first_bad(rows, col == "", getattr(mapping, role), f"the {role} is empty" + " (got {raw})")
    out["device_label"] = rows[mapping.device]
    out["model"] = rows[mapping.model]
    out["kind"] = "external"
    out["workload"] = rows[mapping.workload] if mapping.workload else rows[mapping.model]
    out["precision"] = rows[mapping.precision].replace("", None) if mapping.precision else None
    out["global_batch_size"] = _batch(rows, mapping.batch)
    out["date"] = parse_dates(rows, mapping.date)
    _add_metrics(out, rows, values[~missing], mapping)
    return out.reset_index(drop=True), notes


def safe_name(text: str) -> str:
    """A file-name-safe version of a label (for downloads)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "data"
