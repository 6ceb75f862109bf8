"""Result rows ↔ CSV text, exactly and strictly: the one writer and the one reader of AccelBench exports.

Export writes every schema column in order (floats with `repr`, booleans true/false, missing = empty).
`read_export` reads it with pandas and checks it column by column (engine.results.checks), stopping at the
first bad cell, named by row (header = row 1) and column: a whole file is refused before the store is touched."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable
from typing import Any, cast

import numpy as np
import pandas as pd

from engine.catalog import backends
from engine.results import csv_records
from engine.results.checks import BOOL_TEXT, first_problem
from engine.results.errors import CsvError
from engine.results.schema import ADDED_COLUMNS, COLUMN_NAMES, COLUMN_TYPES, SCHEMA_VERSION, ResultRow

__all__ = [
    "REQUIRED_COLUMNS",
    "CsvError",
    "decode",
    "frame_to_csv",
    "read_export",
    "read_header",
    "read_rows",
    "rows_to_csv",
    "safe_text",
]

# an export may lack these; files written before a column was added lack it
_OPTIONAL = ("schema_version", "source", "notes", *ADDED_COLUMNS)
REQUIRED_COLUMNS = tuple(c for c in COLUMN_NAMES if c not in _OPTIONAL)


# --- writing -------------------------------------------------------------------------------------


# OWASP CSV injection: a spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_GUARDED = r"'[=+\-@\t\r']"  # what `safe_text` produces, undone by `unguard`


def safe_text(text: str) -> str:
    """A text cell that a spreadsheet shows as text: `'` is put before a leading = + - @ tab or CR.

    A text that already starts with `'` gets one more, so `unguard` can undo exactly what was added
    (AccelBench's own export round-trips exactly): on import, a cell starting with `'` followed by
    one of = + - @ tab CR or `'` loses that first `'`; every other cell is read as it is.
    """
    return "'" + text if text[:1] in FORMULA_START or text[:1] == "'" else text


def unguard(col: pd.Series) -> pd.Series:
    """Undo `safe_text` over a column of text cells (missing cells stay missing)."""
    guarded = col.astype("str").str.match(_GUARDED, na=False).to_numpy(dtype=bool)  # Arrow: C speed
    if not guarded.any():
        return col
    text = col.astype(object)
    out = text.copy()
    out[guarded] = text[guarded].str[1:]
    return out


def format_cell(value: Any, typ: type) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if typ is bool:
        return "true" if value else "false"
    if typ is float:
        return repr(float(value))
    if typ is str:
        return safe_text(str(value))
    return str(value)


def frame_to_csv(df: pd.DataFrame) -> str:
    """Any table as CSV text (no index), its text cells made safe to open in a spreadsheet (`safe_text`).

    Every CSV a page offers for download goes through here, as every results export goes through
    `rows_to_csv`."""
    safe = df.copy()
    for name in safe.columns:
        col = safe[name]
        if col.dtype == object or pd.api.types.is_string_dtype(col):
            safe[name] = col.map(lambda v: safe_text(v) if isinstance(v, str) else v).astype(col.dtype)
    return safe.to_csv(index=False, lineterminator="\r\n")  # CRLF: a cell holding a bare CR gets quoted


def rows_to_csv(rows: Iterable[ResultRow]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    # the csv module quotes a cell holding \n but not one holding a bare \r (a reader ends the record
    # there): such rows are written with every cell quoted
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(COLUMN_NAMES)
    for row in rows:
        cells = [format_cell(row.get(name), COLUMN_TYPES[name]) for name in COLUMN_NAMES]
        (quoted if "\r" in "".join(cells) else writer).writerow(cells)
    return buf.getvalue()


# --- reading -------------------------------------------------------------------------------------


def decode(data: bytes | str) -> str:
    """UTF-8 text (a BOM is dropped); CsvError with the offset of the first bad byte."""
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CsvError(f"the file is not UTF-8 text (bad byte at offset {exc.start}); save it as UTF-8 CSV") from None


def read_header(text: str, delimiter: str = ",") -> list[str]:
    try:
        # only the first line is needed; copying a 35 MB text into a StringIO costs a tenth of a second
        first = text[: text.find("\n") + 1] if "\n" in text and '"' not in text[: text.find("\n")] else text
        return [h.strip() for h in next(csv.reader(io.StringIO(first, newline=""), strict=True, delimiter=delimiter))]
    except (csv.Error, StopIteration) as exc:
        raise CsvError(f"not a readable CSV ({exc})", 1) from None


def _check_header(header: list[str]) -> None:
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise CsvError(
            f"missing column(s): {', '.join(missing)} — is this an AccelBench results export?", 1, missing[0]
        )
    unknown = [h for h in header if h not in COLUMN_TYPES]
    if unknown:  # refused, never dropped silently: the History page maps foreign columns explicitly
        raise CsvError(
            f"unknown column(s): {', '.join(repr(u) for u in unknown)} — not AccelBench result columns; "
            "remove them, or load the file on the History page to map them",
            1,
            unknown[0],
        )
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise CsvError(f"column {dupes[0]!r} appears twice", 1, dupes[0])


def _parse(data: bytes | str, text: str, header: list[str], limit: int, records: csv_records.Records) -> pd.DataFrame:
    """The first `limit` non-blank records as a frame of cells (missing = NaN, text stripped)."""
    texts = [h for h in header if COLUMN_TYPES.get(h) is str]
    if records.rows is not None:  # already split by the csv module
        width = len(header)
        cells = [[(c.strip() or None) for c in (r + [""] * width)[:width]] for r in records.rows[:limit]]
        df = pd.DataFrame(cells, columns=header, dtype=object)
        for name in texts:  # the plain strip above, redone where it would have made a live formula
            i = header.index(name)
            raw = pd.Series([r[i] if i < len(r) else "" for r in records.rows[:limit]], dtype=object)
            df[name] = _strip_text(raw)
            if "'" in text:
                df[name] = unguard(df[name])
        return df
    # text as Python objects: twice as fast to read as Arrow strings; numbers parsed by the C parser.
    # Bytes go straight to the parser: wrapping the text in a StringIO would re-encode 35 MB.
    text_types = {h: object for h in header if COLUMN_TYPES.get(h) in (str, bool) or h not in COLUMN_TYPES}
    source = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(text)
    df = pd.read_csv(source, encoding="utf-8-sig", dtype=text_types, keep_default_na=False, na_values=[""], nrows=limit)
    if records.comma_rows:
        df = df.dropna(how="all")
    if records.padded:
        # Arrow strings strip at C speed; object strings would take a Python call per cell
        for name in text_types:
            if name in texts:
                df[name] = _strip_text(df[name])
            else:
                df[name] = df[name].astype("str").str.strip().replace("", None).astype(object)
    if "'" in text:  # no quote anywhere: nothing to undo (the common case, and free)
        for name in texts:
            df[name] = unguard(df[name])
    return df.reset_index(drop=True)


def _strip_text(col: pd.Series) -> pd.Series:
    """Text cells stripped of padding — except leading blanks before = + - @, which stay: stripping
    "\t=cmd" would turn a harmless cell into a live formula. Empty cells become missing."""
    raw = col.astype("str").where(col.notna(), "")
    stripped = raw.str.strip()
    live = stripped.str.match(r"[=+\-@]", na=False) & (raw.str.lstrip().str.len() < raw.str.len())
    out = stripped.where(~live, raw.str.rstrip())
    return out.astype(object).where(out != "", None)


def _up_to_first_wrong(data: bytes | str, text: str, header: list[str], records: csv_records.Records):
    """The records before the first one with the wrong cell count, parsed; None when pandas splits the
    file differently from the byte scan (a shape the scan does not model)."""
    wrong = np.flatnonzero(records.cells != len(header))
    limit = int(wrong[0]) if wrong.size else len(records.numbers)
    try:
        df = _parse(data, text, header, limit, records)
    except (pd.errors.ParserError, ValueError):
        return None
    return df if len(df) == limit else None


def _cells(data: bytes | str, text: str, header: list[str]) -> tuple[pd.DataFrame, csv_records.Records]:
    """The file's non-blank records up to the first one with the wrong cell count, and where they are.

    The byte scan and pandas' C parser read nearly every file; the csv module reads the rest.
    """
    raw = data if isinstance(data, bytes) else text.encode("utf-8")
    scanned = csv_records.scan(raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw)
    if scanned is not None:
        df = _up_to_first_wrong(data, text, header, scanned)
        if df is not None:
            return df, scanned
    records = csv_records.read(text)
    df = _up_to_first_wrong(data, text, header, records)
    if df is None:
        raise CsvError("not a readable CSV (its records could not be told apart)")
    return df, records


def _message(reason: str, raw: str, val: object, name: str) -> str:
    """The reason with its placeholder filled, worded as a cell-by-cell reader words it."""
    if "{raw}" in reason:
        return reason.format(raw=repr(raw))
    if "{val}" in reason:
        empty = "" if name == "created_at" else None
        return reason.format(val=repr(empty if pd.isna(val) else str(val)))
    if "{num}" in reason:
        return reason.format(num=float(raw))
    if "{int}" in reason:
        return reason.format(int=int(float(raw)))
    return reason


def _refuse_first_problem(df: pd.DataFrame, header: list[str], records: csv_records.Records) -> None:
    problem = first_problem(df) if len(df) else None
    if problem is not None:
        raw = records.cell(problem.pos, header.index(problem.column))
        message = _message(problem.reason, raw, df[problem.column].iloc[problem.pos], problem.column)
        raise CsvError(message, int(records.numbers[problem.pos]), problem.column)
    if len(df) < len(records.numbers):
        pos = len(df)
        raise CsvError(f"has {records.cells[pos]} cells but the header has {len(header)}", int(records.numbers[pos]))
    if not len(df):
        raise CsvError("the file has a header but no rows")
    dup = np.flatnonzero(df["run_id"].duplicated().to_numpy())
    if dup.size:
        pos = int(dup[0])
        raise CsvError(
            f"run_id {df['run_id'].iloc[pos]!r} appears twice in the file", int(records.numbers[pos]), "run_id"
        )


def read_export(data: bytes | str) -> pd.DataFrame:
    """An AccelBench results CSV as a typed frame (one row per run, every result column).

    Raises:
      CsvError: the first problem, with its row and column.
    """
    text = decode(data)
    if not text.strip():
        raise CsvError("the file is empty")
    header = read_header(text)
    _check_header(header)
    df, records = _cells(data, text, header)
    _refuse_first_problem(df, header, records)
    return typed_frame(df)


def read_rows(data: bytes | str) -> list[ResultRow]:
    """An AccelBench results CSV as result rows (None for a missing value). Raises CsvError."""
    frame = read_export(data).astype(object)
    return cast(list[ResultRow], frame.where(frame.notna(), None).to_dict("records"))


def typed_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Every result column, typed: nullable ints/bools, floats, text with missing as NaN."""
    out = {}
    for name in COLUMN_NAMES:
        typ = COLUMN_TYPES[name]
        col = df[name] if name in df.columns else pd.Series([pd.NA] * len(df), index=df.index, dtype="object")
        if typ is str:
            out[name] = col.astype(object)  # missing stays NaN: pd.isna reads it like None, and it is free
        elif typ is bool:
            out[name] = col.astype("str").str.strip().str.lower().map(BOOL_TEXT).astype("boolean")
        elif typ is int:
            out[name] = pd.to_numeric(col, errors="coerce").astype("Int64")
        else:
            out[name] = pd.to_numeric(col, errors="coerce").astype(float)
    frame = pd.DataFrame(out, index=df.index)
    frame["schema_version"] = frame["schema_version"].fillna(SCHEMA_VERSION)
    frame["backend"] = _backends_as_named_now(frame["backend"], frame["schema_version"])
    return frame.reset_index(drop=True)


def _backends_as_named_now(backend: pd.Series, version: pd.Series) -> pd.Series:
    """Before schema_version 2, "torch" meant Keras on torch: it reads as "keras-torch"."""
    return pd.Series([backends.stored_name(b, v) for b, v in zip(backend, version, strict=True)], backend.index, object)
