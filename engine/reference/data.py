"""The curated reference numbers (data/reference/reference_numbers.csv): schema, loading, seed tables.

Pure pandas. A bad file is refused with a message that names the row, the column and what was
wrong, so a hand edit that breaks the CSV is found at once rather than as a blank chart.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from engine import paths
from engine.reference.units import (
    BATCH_SCOPES,
    COUNT_UNITS,
    DATA_KINDS,
    DEVICE_TYPES,
    HARDWARE,
    METRICS,
    PRECISIONS,
    SOURCE_KINDS,
    TASKS,
    VALUE_KINDS,
)

REFERENCE_CSV = paths.reference_file("reference_numbers.csv")


@dataclass(frozen=True)
class Column:
    """One column of the curated CSV.

    Attributes:
      name: header name.
      kind: "str", "int" (nullable), "float", "bool" or "optbool" (True/False/empty).
      required: an empty cell is an error.
      allowed: the vocabulary, when the column has one.
    """

    name: str
    kind: str = "str"
    required: bool = False
    allowed: tuple[str, ...] = ()


_KEY_RE = re.compile(r"^[a-z0-9_]+$")

COLUMNS: tuple[Column, ...] = (
    Column("ref_id", required=True),
    Column("source_id", required=True),
    Column("source_title", required=True),
    Column("source_url"),
    Column("source_kind", required=True, allowed=SOURCE_KINDS),
    Column("year", "int"),
    Column(
        "origin",
        required=True,
        allowed=("shared_csv", "seed_article", "transformer_refs", "modern_refs", "accelbench_pack"),
    ),
    Column("hardware", required=True),
    Column("hardware_label", required=True),
    Column("hardware_key", required=True, allowed=tuple(HARDWARE)),
    Column("device_type", required=True, allowed=DEVICE_TYPES),
    Column("hardware_count", "int"),
    Column("count_unit", required=True, allowed=COUNT_UNITS),
    Column("baseline_key", allowed=(*HARDWARE, "cpu_or_k80", "")),
    Column("framework", allowed=("tensorflow", "pytorch", "keras-jax", "keras-torch", "mxnet", "caffe", "")),
    Column("framework_version"),
    Column("framework_label"),
    Column("task", required=True, allowed=TASKS),
    Column("model"),
    Column("model_label"),
    Column("params", "int"),
    Column("dataset"),
    Column("dataset_label"),
    Column("data_kind", allowed=DATA_KINDS),
    Column("target"),
    Column("batch_size", "int"),
    Column("batch_scope", allowed=BATCH_SCOPES),
    Column("batch_label"),
    Column("epochs", "int"),
    Column("steps_per_epoch", "int"),
    Column("shape"),
    Column("precision", allowed=PRECISIONS),
    Column("precision_label"),
    Column("xla", "optbool"),
    Column("metric", required=True, allowed=tuple(METRICS)),
    Column("value", "float", required=True),
    Column("unit", required=True),
    Column("value_kind", required=True, allowed=VALUE_KINDS),
    Column("higher_is_better", "bool", required=True),
    Column("doubtful", "bool", required=True),
    Column("doubt_reason"),
    Column("notes"),
)
COLUMN_NAMES: tuple[str, ...] = tuple(c.name for c in COLUMNS)
_INT_COLUMNS = tuple(c.name for c in COLUMNS if c.kind == "int")


class ReferenceSchemaError(ValueError):
    """The reference CSV breaks the schema. `row` is 1-based over data rows (None for header problems)."""

    def __init__(self, message: str, row: int | None = None, column: str | None = None):
        self.row, self.column = row, column
        super().__init__(message)


def _bad(path: str, i: int, ref_id: str, column: str, problem: str) -> ReferenceSchemaError:
    where = f"row {i} (CSV line {i + 1}, ref_id {ref_id or '?'})"
    return ReferenceSchemaError(f"{path}: {where}, column '{column}': {problem}", row=i, column=column)


def _parse_cell(col: Column, text: str) -> object:
    """The typed value of one cell; raises ValueError with the reason."""
    if text == "":
        if col.required:
            raise ValueError("is empty but required")
        return None if col.kind in ("int", "optbool") else ("" if col.kind == "str" else None)
    if col.allowed and text not in col.allowed:
        shown = ", ".join(a for a in col.allowed if a)[:300]
        raise ValueError(f"{text!r} is not one of: {shown}")
    if col.kind == "int":
        if not re.fullmatch(r"\d+", text) or int(text) <= 0:
            raise ValueError(f"{text!r} is not a positive whole number")
        return int(text)
    if col.kind == "float":
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"{text!r} is not a finite number")
        return value
    if col.kind in ("bool", "optbool"):
        if text not in ("True", "False"):
            raise ValueError(f"{text!r} is not True or False")
        return text == "True"
    return text


def _check_row(row: dict[str, object], i: int, path: str) -> None:
    """Rules that tie columns together."""
    ref = str(row["ref_id"])
    metric = str(row["metric"])
    info = METRICS[metric]
    if row["unit"] not in (info.unit, *info.alt_units):
        raise _bad(path, i, ref, "unit", f"{row['unit']!r} is not the unit of {metric} ({info.unit})")
    if row["value"] <= 0 and metric != "top1_accuracy":  # type: ignore[operator]
        raise _bad(path, i, ref, "value", f"{row['value']!r} must be positive for {metric}")
    if row["higher_is_better"] != info.higher_is_better:
        raise _bad(
            path, i, ref, "higher_is_better", f"{metric} is {'higher' if info.higher_is_better else 'lower'} is better"
        )
    if HARDWARE[str(row["hardware_key"])].device_type != row["device_type"]:
        raise _bad(
            path, i, ref, "device_type", f"{row['device_type']!r} does not match hardware_key {row['hardware_key']!r}"
        )
    if row["doubtful"] and not row["doubt_reason"]:
        raise _bad(path, i, ref, "doubt_reason", "a doubtful row must say why")
    if not row["doubtful"] and row["doubt_reason"]:
        raise _bad(path, i, ref, "doubtful", "has a doubt_reason but is not flagged doubtful")
    if row["baseline_key"] and metric not in ("speedup_vs", "perf_per_watt_ratio", "power_ratio"):
        raise _bad(path, i, ref, "baseline_key", f"only ratio metrics have a baseline, not {metric}")


def validate_records(records: list[dict[str, str]], path: str = "reference CSV") -> pd.DataFrame:
    """Typed, checked frame from raw string records (one dict per CSV data row).

    Raises:
      ReferenceSchemaError: naming the first bad row and column.
    """
    out: list[dict[str, object]] = []
    seen: dict[str, int] = {}
    for i, rec in enumerate(records, start=1):
        ref = rec.get("ref_id", "")
        row: dict[str, object] = {}
        for col in COLUMNS:
            text = (rec.get(col.name) or "").strip()
            try:
                row[col.name] = _parse_cell(col, text)
            except ValueError as exc:
                raise _bad(path, i, ref, col.name, str(exc)) from None
        if ref in seen:
            raise _bad(path, i, ref, "ref_id", f"duplicate of row {seen[ref]}")
        seen[ref] = i
        _check_row(row, i, path)
        out.append(row)
    df = pd.DataFrame(out, columns=list(COLUMN_NAMES))
    for name in _INT_COLUMNS:
        df[name] = pd.array(df[name].tolist(), dtype="Int64")
    df["xla"] = pd.array(df["xla"].tolist(), dtype="boolean")
    df["value"] = df["value"].astype(float)
    df["doubtful"] = df["doubtful"].astype(bool)
    df["higher_is_better"] = df["higher_is_better"].astype(bool)
    return df


def load_reference(path: str | Path | None = None) -> pd.DataFrame:
    """The curated reference rows, typed and schema-checked.

    Args:
      path: a curated CSV; default data/reference/reference_numbers.csv.

    Raises:
      ReferenceSchemaError: the file is missing a column, or a row breaks the schema (row and column named).
      FileNotFoundError: no such file.
    """
    path = Path(path) if path is not None else REFERENCE_CSV
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)
    missing = [c for c in COLUMN_NAMES if c not in raw.columns]
    if missing:
        raise ReferenceSchemaError(f"{path}: missing column(s) {', '.join(missing)}", column=missing[0])
    return validate_records(raw.to_dict("records"), str(path))


# --- the seed tables, as the articles printed them ---

SEED_001_HARDWARE = ("tpu_v2_8", "k80", "t4", "p100")
SEED_001_HEADERS = {"tpu_v2_8": "TPUv2", "k80": "K80", "t4": "T4", "p100": "P100"}
SEED_001_MODELS = ("flowers_cnn", "vgg19", "xception", "resnet152v2")


def seed_001_table(ref: pd.DataFrame, table: int) -> pd.DataFrame:
    """Article 001's Table 1 (all at batch 32) or Table 2 (TPU at batch 128): model × hardware, seconds.

    Rows are the models in the article's order (labelled as published), columns TPUv2/K80/T4/P100.
    """
    if table not in (1, 2):
        raise ValueError("article 001 has tables 1 and 2")
    rows = ref[(ref["source_id"] == "SEED-VN-FLOWERS") & (ref["metric"] == "train_time_s")]
    tpu_batch = 32 if table == 1 else 128
    keep = (rows["hardware_key"] != "tpu_v2_8") & (rows["batch_size"] == 32)
    keep |= (rows["hardware_key"] == "tpu_v2_8") & (rows["batch_size"] == tpu_batch)
    rows = rows[keep.fillna(False).astype(bool)]
    pivot = rows.pivot_table(index="model", columns="hardware_key", values="value", aggfunc="first")
    pivot = pivot.reindex(index=list(SEED_001_MODELS), columns=list(SEED_001_HARDWARE))
    labels = rows.drop_duplicates("model").set_index("model")["model_label"]
    pivot.index = [labels.get(m, m) for m in pivot.index]
    pivot.index.name = "model"
    pivot.columns = [SEED_001_HEADERS[c] for c in pivot.columns]
    return pivot


def seed_rows(ref: pd.DataFrame, source_id: str) -> pd.DataFrame:
    """All rows of one seed source, with the columns a reader needs to see them as published."""
    cols = ["ref_id", "hardware", "model_label", "batch_label", "metric", "value", "unit", "doubtful", "doubt_reason"]
    return ref.loc[ref["source_id"] == source_id, cols].reset_index(drop=True)
