"""The result rules, checked column by column over a whole frame (numpy masks, no per-cell Python).

A frame holds one row per CSV record, each cell as the file has it (text, or what pandas already
parsed). `first_problem` finds the problem a cell-by-cell reader would meet first: the earliest
row; inside a row, the type checks in column order, then the row rules (run_id, status, kind,
created_at, schema_version, non-negative measurements).

The masks (`bad_bools`, `bad_numbers`, `not_one_of`, `negative`) are plain functions of a column,
for any table with typed columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES, KINDS, NON_NEGATIVE, RUN_ID, SCHEMA_VERSION
from engine.results.status import STATUSES

ISO_UTC = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$"
INT64_MAX = 2**63 - 1  # what an SQLite INTEGER holds
BOOL_TEXT = {"true": True, "1": True, "false": False, "0": False}


@dataclass(frozen=True, order=True)
class Problem:
    """A bad cell: its row position in the frame, its rank inside the row, its column, and the reason.

    The reason may hold one placeholder, filled by the reader: {raw} the cell's text, {val} the
    text value, {num} the number, {int} the whole number.
    """

    pos: int
    rank: int
    column: str
    reason: str


def numbers(col: pd.Series) -> np.ndarray:
    """The column as floats; NaN where a cell is missing or not a number."""
    return pd.to_numeric(col, errors="coerce").to_numpy(dtype=float, na_value=np.nan)


def bad_bools(col: pd.Series) -> np.ndarray:
    """Present cells that are not true/false/1/0 (any case)."""
    low = col.astype("str").str.strip().str.lower()
    return col.notna().to_numpy() & ~low.isin(list(BOOL_TEXT)).to_numpy()


def bad_numbers(col: pd.Series, whole: bool) -> np.ndarray:
    """Present cells that are not finite numbers (or, with `whole`, not whole numbers)."""
    nums = numbers(col)
    present = col.notna().to_numpy()
    with np.errstate(invalid="ignore"):
        bad = present & ~np.isfinite(nums)
        if whole:
            bad |= present & np.isfinite(nums) & (np.mod(nums, 1) != 0)
    return bad


def not_one_of(col: pd.Series, allowed: tuple[str, ...]) -> np.ndarray:
    """Cells (missing ones included) that are not one of `allowed`."""
    return ~col.isin(list(allowed)).to_numpy()


def negative(col: pd.Series) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return numbers(col) < 0


def _first(mask: np.ndarray) -> int | None:
    idx = np.flatnonzero(mask)
    return int(idx[0]) if idx.size else None


def _type_rules(df: pd.DataFrame) -> list[tuple[str, np.ndarray, str]]:
    rules = []
    for name in COLUMN_NAMES:
        typ = COLUMN_TYPES[name]
        if name not in df.columns or typ is str:
            continue
        if typ is bool:
            rules.append((name, bad_bools(df[name]), "expected true/false, got {raw}"))
        elif typ is int:
            rules.append((name, bad_numbers(df[name], whole=True), "expected a whole number, got {raw}"))
            with np.errstate(invalid="ignore"):
                huge = np.abs(numbers(df[name])) >= 2.0**63  # as floats: 2**63 - 1 rounds up to 2**63
            rules.append((name, huge, f"{{raw}} does not fit a 64-bit whole number (at most {INT64_MAX:,})"))
        else:
            rules.append((name, bad_numbers(df[name], whole=False), "expected a finite number, got {raw}"))
    return rules


def _row_rules(df: pd.DataFrame) -> list[tuple[str, np.ndarray, str]]:
    run_id = df["run_id"].astype("str")
    created = df["created_at"].fillna("").astype("str")
    iso = created.str.match(ISO_UTC).to_numpy(dtype=bool)  # Arrow regex
    real = pd.to_datetime(created.where(iso, None), format="ISO8601", utc=True, errors="coerce").notna().to_numpy()
    rules = [
        ("run_id", df["run_id"].isna().to_numpy(), "run_id is empty"),
        (
            "run_id",
            df["run_id"].notna().to_numpy()
            & (
                ~run_id.str.match(RUN_ID).to_numpy(dtype=bool)
                | run_id.str.contains("..", regex=False).to_numpy(dtype=bool)
            ),
            "run_id must be 1 to 128 letters, digits, '.', '_' or '-' (and no '..'), got {val}",
        ),
        ("status", not_one_of(df["status"], STATUSES), f"status must be one of {', '.join(STATUSES)}, got {{val}}"),
        ("kind", not_one_of(df["kind"], KINDS), f"kind must be one of {', '.join(KINDS)}, got {{val}}"),
        (
            "created_at",
            ~df["created_at"].fillna("").astype("str").str.match(ISO_UTC).to_numpy(dtype=bool),  # Arrow regex
            "created_at must be an ISO-8601 UTC time like 2026-01-31T12:00:00Z, got {val}",
        ),
        ("created_at", iso & ~real, "created_at is not a real date and time, got {val}"),
    ]
    if "schema_version" in df.columns:
        with np.errstate(invalid="ignore"):
            newer = numbers(df["schema_version"]) > SCHEMA_VERSION
        reason = f"schema_version {{int}} is newer than this AccelBench ({SCHEMA_VERSION}); upgrade first"
        rules.append(("schema_version", newer, reason))
        with np.errstate(invalid="ignore"):
            below = numbers(df["schema_version"]) < 1
        rules.append(("schema_version", below, f"schema_version must be from 1 to {SCHEMA_VERSION}, got {{int}}"))
    for name in NON_NEGATIVE:
        if name in df.columns:
            rules.append((name, negative(df[name]), "must not be negative, got {num}"))
    return rules


def first_problem(df: pd.DataFrame) -> Problem | None:
    """The problem a reader going row by row, cell by cell, would report first; None for a good frame."""
    found = []
    for rank, (name, mask, reason) in enumerate(_type_rules(df) + _row_rules(df)):
        pos = _first(np.asarray(mask, dtype=bool))
        if pos is not None:
            found.append(Problem(pos, rank, name, reason))
    return min(found, default=None)
