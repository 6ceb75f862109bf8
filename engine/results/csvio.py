"""Result rows ↔ CSV text, exactly and strictly.

Export writes every column of `engine.results.schema` in order, floats with `repr` (which round-trips),
booleans as true/false and missing values as empty cells. Parsing checks every cell and stops at
the first bad one with a message naming its row (1-based, header is row 1) and column, so an
import can refuse a whole file before it touches the store.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable
from typing import Any

from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES, KINDS, NON_NEGATIVE, SCHEMA_VERSION
from engine.results.status import STATUSES

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$")


class CsvError(ValueError):
    """A refused CSV. `row` is the 1-based line (header = 1), `column` the column name (or "")."""

    def __init__(self, message: str, row: int = 0, column: str = ""):
        self.row, self.column, self.reason = row, column, message
        where = (
            f"row {row}" + (f", column {column!r}" if column else "")
            if row
            else (f"column {column!r}" if column else "")
        )
        super().__init__(f"{where}: {message}" if where else message)


def format_cell(value: Any, typ: type) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if typ is bool:
        return "true" if value else "false"
    if typ is float:
        return repr(float(value))
    return str(value)


def rows_to_csv(rows: Iterable[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMN_NAMES)
    for row in rows:
        writer.writerow([format_cell(row.get(name), COLUMN_TYPES[name]) for name in COLUMN_NAMES])
    return buf.getvalue()


def _parse_cell(text: str, name: str, typ: type, row: int) -> Any:
    text = text.strip()
    if text == "":
        return None
    try:
        if typ is bool:
            low = text.lower()
            if low not in ("true", "false", "1", "0"):
                raise ValueError
            return low in ("true", "1")
        if typ is int:
            value = float(text)
            if not value.is_integer():
                raise ValueError
            return int(value)
        if typ is float:
            value = float(text)
            if not math.isfinite(value):
                raise ValueError
            return value
    except ValueError:
        kind = {bool: "true/false", int: "a whole number", float: "a finite number"}[typ]
        raise CsvError(f"expected {kind}, got {text!r}", row, name) from None
    return text


def _check_row(parsed: dict[str, Any], row: int) -> None:
    if not parsed.get("run_id"):
        raise CsvError("run_id is empty", row, "run_id")
    if parsed.get("status") not in STATUSES:
        raise CsvError(f"status must be one of {', '.join(STATUSES)}, got {parsed.get('status')!r}", row, "status")
    if parsed.get("kind") not in KINDS:
        raise CsvError(f"kind must be one of {', '.join(KINDS)}, got {parsed.get('kind')!r}", row, "kind")
    created = parsed.get("created_at") or ""
    if not _ISO.match(created):
        raise CsvError(
            f"created_at must be an ISO-8601 UTC time like 2026-01-31T12:00:00Z, got {created!r}", row, "created_at"
        )
    version = parsed.get("schema_version")
    if version is not None and version > SCHEMA_VERSION:
        raise CsvError(
            f"schema_version {version} is newer than this AccelBench ({SCHEMA_VERSION}); upgrade first",
            row,
            "schema_version",
        )
    for name in NON_NEGATIVE:
        value = parsed.get(name)
        if value is not None and value < 0:
            raise CsvError(f"must not be negative, got {value}", row, name)


def parse_results_csv(data: bytes | str) -> list[dict[str, Any]]:
    """Parse and check an AccelBench results CSV; raise CsvError at the first problem."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CsvError(
                f"the file is not UTF-8 text (bad byte at offset {exc.start}); save it as UTF-8 CSV"
            ) from None
    if not data.strip():
        raise CsvError("the file is empty")
    try:
        reader = csv.reader(io.StringIO(data, newline=""), strict=True)
        header = next(reader)
    except csv.Error as exc:
        raise CsvError(f"not a readable CSV ({exc})", 1) from None
    header = [h.strip() for h in header]
    missing = [c for c in COLUMN_NAMES if c not in header and c not in ("schema_version", "source", "notes")]
    if missing:
        raise CsvError(
            f"missing column(s): {', '.join(missing)} — is this an AccelBench results export?", 1, missing[0]
        )
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise CsvError(f"column {dupes[0]!r} appears twice", 1, dupes[0])
    index = {h: i for i, h in enumerate(header)}
    out: list[dict[str, Any]] = []
    line = 1
    try:
        for line, cells in enumerate(reader, start=2):
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise CsvError(f"has {len(cells)} cells but the header has {len(header)}", line)
            parsed = {
                name: _parse_cell(cells[index[name]], name, COLUMN_TYPES[name], line) if name in index else None
                for name in COLUMN_NAMES
            }
            if parsed["schema_version"] is None:
                parsed["schema_version"] = SCHEMA_VERSION
            _check_row(parsed, line)
            out.append(parsed)
    except csv.Error as exc:
        raise CsvError(f"not a readable CSV ({exc})", line + 1) from None
    if not out:
        raise CsvError("the file has a header but no rows")
    ids = [r["run_id"] for r in out]
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for i, rid in enumerate(ids):
            if rid in seen:
                raise CsvError(f"run_id {rid!r} appears twice in the file", i + 2, "run_id")
            seen.add(rid)
    return out
