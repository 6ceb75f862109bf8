"""Loading historical results CSVs for the History page: AccelBench exports and other tools' tables.

An AccelBench export is checked by the same rules as `engine.results.csvio.parse_results_csv` (same
messages, same row numbers), but column by column with pandas instead of cell by cell in Python:
a 100,000-row export loads in well under a second instead of several. A foreign table (another tool's
benchmark CSV) is read as text and turned into rows through a `ColumnMapping` the user picks.

Every loader raises `CsvError` naming the row (1-based, header = row 1) and the column, so one
bad file can be reported on its own while the good ones load. Pure pandas; no streamlit.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.results.csvio import CsvError, parse_results_csv
from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES, KINDS, NON_NEGATIVE, SCHEMA_VERSION
from engine.results.status import STATUSES

_ISO = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$"
_OPTIONAL = ("schema_version", "source", "notes")  # an export may lack these (csvio allows it too)
REQUIRED_COLUMNS = tuple(c for c in COLUMN_NAMES if c not in _OPTIONAL)
# Cells a foreign table uses for "no value" (an out-of-memory run, a cell left blank).
MISSING_MARKERS = frozenset({"", "-", "—", "–", "n/a", "na", "nan", "none", "null", "oom", "x"})


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


def looks_like_export(header: list[str]) -> bool:
    """An AccelBench export (maybe a broken one) rather than another tool's table.

    Half the result columns present is the line: a foreign table rarely shares more than a few
    names, while an export with a few columns deleted should be *refused* with the missing ones named.
    """
    return sum(c in header for c in REQUIRED_COLUMNS) >= len(REQUIRED_COLUMNS) // 2


# --- records: where each CSV record starts and how many cells it has ----------------------------


@dataclass(frozen=True)
class _Records:
    """Data records (header excluded) that are not blank, numbered as csv.reader numbers them."""

    numbers: np.ndarray  # 1-based record number of each non-blank data record (header = 1)
    cells: np.ndarray  # cell count of each
    buf: bytes  # the file, for quoting one raw cell in an error message …
    starts: np.ndarray  # … each record's first byte …
    ends: np.ndarray  # … and one past its last (the newline excluded)
    comma_rows: int  # blank records made of commas/spaces, which pandas (unlike csvio) reads as empty rows
    padded: bool  # some cell may start or end with a space or tab (csvio strips them)


_BYTE = {c: ord(c) for c in ',"\n\r \t'}


def _positions(arr: np.ndarray, char: str, quotes: np.ndarray) -> np.ndarray:
    """Byte offsets of `char` outside quoted cells (an even number of quotes before it)."""
    pos = np.flatnonzero(arr == _BYTE[char])
    if quotes.size:
        pos = pos[np.searchsorted(quotes, pos) % 2 == 0]
    return pos


def _scan_records(buf: bytes) -> _Records | None:
    """Count the cells of every record without building the cells: vectorised over the file's bytes.

    A comma or newline counts only outside quotes, i.e. with an even number of quote characters
    before it (an escaped "" adds two, so it never flips the state). Returns None for shapes only
    the exact reader handles: bare-CR line ends, an unterminated quote.
    """
    arr = np.frombuffer(buf, dtype=np.uint8)
    quotes = np.flatnonzero(arr == _BYTE['"'])
    if quotes.size % 2:
        return None  # an unterminated quote: let the exact reader word the error
    cr = np.flatnonzero(arr == _BYTE["\r"])
    if cr.size and ((cr + 1 >= arr.size) | (arr[np.minimum(cr + 1, arr.size - 1)] != _BYTE["\n"])).any():
        return None
    newlines = _positions(arr, "\n", quotes)
    starts = np.concatenate(([0], newlines + 1))
    ends = np.concatenate((newlines, [arr.size]))
    if starts[-1] >= arr.size:  # the file ends with a newline: no record after it
        starts, ends = starts[:-1], ends[:-1]
    commas = _positions(arr, ",", quotes)
    cells = np.searchsorted(commas, ends) - np.searchsorted(commas, starts) + 1
    # A record of only commas and blanks is skipped by csvio, so it must not be counted here either. Only a
    # record with few characters besides its commas can be one; just those few are looked at.
    blank = np.zeros(starts.size, dtype=bool)
    for i in np.flatnonzero((ends - starts) - (cells - 1) <= 64):
        blank[i] = not buf[starts[i] : ends[i]].strip(b" \t\r,")
    keep = ~blank
    keep[0] = False  # the header
    numbers = np.flatnonzero(keep) + 1
    comma_rows = int((blank & (ends > starts)).sum())
    # A space next to a comma or a line end may pad a cell (inside a quoted text it is a false alarm,
    # which only costs the strip it was meant to save); any tab counts too.
    spaces = np.flatnonzero(arr == _BYTE[" "])
    before = arr[np.maximum(spaces - 1, 0)]
    after = arr[np.minimum(spaces + 1, arr.size - 1)]
    edge = (before == _BYTE[","]) | (before == _BYTE["\n"]) | (spaces == 0)
    edge |= (after == _BYTE[","]) | (after == _BYTE["\n"]) | (after == _BYTE["\r"]) | (spaces == arr.size - 1)
    padded = bool(edge.any() or (arr == ord("\t")).any())
    return _Records(
        numbers.astype(np.int64), cells[keep].astype(np.int64), buf, starts[keep], ends[keep], comma_rows, padded
    )


def _raw_cell(records: _Records, pos: int, col_index: int) -> str:
    record = records.buf[records.starts[pos] : records.ends[pos]].decode("utf-8", errors="replace")
    cells = next(csv.reader(io.StringIO(record, newline="")), [])
    return cells[col_index].strip() if col_index < len(cells) else ""


# --- AccelBench exports ------------------------------------------------------------------------


def _first(mask: np.ndarray) -> int | None:
    idx = np.flatnonzero(mask)
    return int(idx[0]) if idx.size else None


def _cell_problems(df: pd.DataFrame, header: list[str]) -> list[tuple[int, int, str, str]]:
    """(row position, priority, column, reason-template) of the first problem per rule.

    Priorities follow csvio's order inside a row: cells in column order, then the row rules.
    The reason may contain {raw}, filled with the cell's text as the file has it.
    """
    found: list[tuple[int, int, str, str]] = []
    for prio, name in enumerate(COLUMN_NAMES):
        if name not in df.columns:
            continue
        typ = COLUMN_TYPES[name]
        col = df[name]
        if typ is str:
            continue
        present = col.notna().to_numpy()
        if typ is bool:
            low = col.astype("str").str.strip().str.lower()
            bad = present & ~low.isin(["true", "false", "1", "0"]).to_numpy()
            reason = "expected true/false, got {raw}"
        else:
            nums = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
            with np.errstate(invalid="ignore"):
                bad = present & ~np.isfinite(nums)
                if typ is int:
                    bad |= present & np.isfinite(nums) & (np.mod(nums, 1) != 0)
            reason = ("expected a whole number, got {raw}") if typ is int else "expected a finite number, got {raw}"
        pos = _first(bad)
        if pos is not None:
            found.append((pos, prio, name, reason))
    base = len(COLUMN_NAMES)
    rules: list[tuple[str, np.ndarray, str]] = [
        ("run_id", df["run_id"].isna().to_numpy(), "run_id is empty"),
        (
            "status",
            ~df["status"].isin(STATUSES).to_numpy(),
            f"status must be one of {', '.join(STATUSES)}, got {{val}}",
        ),
        ("kind", ~df["kind"].isin(KINDS).to_numpy(), f"kind must be one of {', '.join(KINDS)}, got {{val}}"),
        (
            "created_at",
            ~df["created_at"].fillna("").astype("str").str.match(_ISO).to_numpy(dtype=bool),  # Arrow regex: C speed
            "created_at must be an ISO-8601 UTC time like 2026-01-31T12:00:00Z, got {val}",
        ),
    ]
    if "schema_version" in df.columns:
        version = pd.to_numeric(df["schema_version"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        with np.errstate(invalid="ignore"):
            newer = version > SCHEMA_VERSION
        rules.append(
            (
                "schema_version",
                newer,
                f"schema_version {{int}} is newer than this AccelBench ({SCHEMA_VERSION}); upgrade first",
            )
        )
    for name in COLUMN_NAMES:
        if name in NON_NEGATIVE and name in df.columns:
            nums = pd.to_numeric(df[name], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
            with np.errstate(invalid="ignore"):
                rules.append((name, nums < 0, "must not be negative, got {num}"))
    for offset, (name, mask, reason) in enumerate(rules):
        pos = _first(np.asarray(mask, dtype=bool))
        if pos is not None:
            found.append((pos, base + offset, name, reason))
    return found


def _typed(df: pd.DataFrame) -> pd.DataFrame:
    """Every result column, typed: nullable ints/bools, floats, text with missing as NA."""
    out = {}
    n = len(df)
    for name in COLUMN_NAMES:
        typ = COLUMN_TYPES[name]
        if name not in df.columns:
            col = pd.Series([pd.NA] * n, index=df.index, dtype="object")
        else:
            col = df[name]
        if typ is str:
            out[name] = col.astype(object)  # missing stays NaN: pd.isna reads it like None, and it is free
        elif typ is bool:
            low = col.astype("str").str.strip().str.lower()
            out[name] = low.map({"true": True, "1": True, "false": False, "0": False}).astype("boolean")
        elif typ is int:
            out[name] = pd.to_numeric(col, errors="coerce").astype("Int64")
        else:
            out[name] = pd.to_numeric(col, errors="coerce").astype(float)
    frame = pd.DataFrame(out, index=df.index)
    frame["schema_version"] = frame["schema_version"].fillna(SCHEMA_VERSION)
    return frame.reset_index(drop=True)


def read_export(data: bytes | str) -> pd.DataFrame:
    """An AccelBench results CSV as a typed frame (one row per run), checked like csvio.

    Raises:
      CsvError: the first problem, with its row and column — the same message parse_results_csv gives.
    """
    text = decode(data)
    if not text.strip():
        raise CsvError("the file is empty")
    header = read_header(text)
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise CsvError(
            f"missing column(s): {', '.join(missing)} — is this an AccelBench results export?", 1, missing[0]
        )
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise CsvError(f"column {dupes[0]!r} appears twice", 1, dupes[0])
    # the scan works on the bytes (a BOM is skipped: the header was read from the decoded text)
    raw_bytes = data if isinstance(data, bytes) else text.encode("utf-8")
    records = _scan_records(raw_bytes[3:] if raw_bytes.startswith(b"\xef\xbb\xbf") else raw_bytes)
    if records is None:
        return _exact(text)
    wrong = np.flatnonzero(records.cells != len(header))
    limit = int(wrong[0]) if wrong.size else len(records.numbers)
    # text as Python objects: twice as fast to read as Arrow strings, and 100k rows of them are quick to work on
    text_types = {h: object for h in header if COLUMN_TYPES.get(h) in (str, bool) or h not in COLUMN_TYPES}
    try:
        # bytes straight to the C parser: wrapping the text in a StringIO would re-encode 35 MB
        source = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(text)
        df = pd.read_csv(
            source,
            encoding="utf-8-sig",
            dtype=text_types,
            keep_default_na=False,
            na_values=[""],
            nrows=limit,
            skipinitialspace=False,
        )
    except (pd.errors.ParserError, ValueError):
        return _exact(text)
    if records.comma_rows:
        df = df.dropna(how="all")
    if len(df) != limit:  # some record shape the fast path does not model: use the exact reader
        return _exact(text)
    if records.padded:
        # Arrow strings strip at C speed; object strings would take a Python call per cell
        for name in df.columns:
            if COLUMN_TYPES.get(name) in (str, bool):
                df[name] = df[name].astype("str").str.strip().replace("", None).astype(object)
    problems = _cell_problems(df, header) if limit else []
    if problems:
        pos, _, name, reason = min(problems)
        raw = _raw_cell(records, pos, header.index(name))
        val = df[name].iloc[pos]
        message = reason.format(**_fill(reason, raw, val, name))
        raise CsvError(message, int(records.numbers[pos]), name)
    if wrong.size:
        bad = int(wrong[0])
        raise CsvError(f"has {records.cells[bad]} cells but the header has {len(header)}", int(records.numbers[bad]))
    if not len(df):
        raise CsvError("the file has a header but no rows")
    ids = df["run_id"]
    dup = ids.duplicated().to_numpy()
    pos = _first(dup)
    if pos is not None:
        raise CsvError(f"run_id {ids.iloc[pos]!r} appears twice in the file", int(records.numbers[pos]), "run_id")
    return _typed(df)


def _fill(reason: str, raw: str, val, name: str) -> dict[str, object]:
    """The placeholder a reason uses, worded as csvio words it: {raw} the cell's text, {val} the parsed
    text value, {num} the number, {int} the whole number."""
    if "{raw}" in reason:
        return {"raw": repr(raw)}
    if "{val}" in reason:
        empty = "" if name == "created_at" else None
        return {"val": repr(empty if pd.isna(val) else str(val))}
    if "{num}" in reason:
        return {"num": float(raw)}
    if "{int}" in reason:
        return {"int": int(float(raw))}
    return {}


def _exact(text: str) -> pd.DataFrame:
    """The cell-by-cell reader for shapes the fast path does not model (bare CR line ends, odd quoting)."""
    rows = parse_results_csv(text)
    return _typed(pd.DataFrame(rows, columns=list(COLUMN_NAMES)).astype(object).where(lambda d: d.notna(), None))


# --- foreign tables -------------------------------------------------------------------------------


def read_table(data: bytes | str) -> pd.DataFrame:
    """Another tool's table, every cell as stripped text, plus `_row` (the CSV row number, header = 1).

    The delimiter (comma, semicolon, tab or pipe) is sniffed from the start of the file.
    """
    text = decode(data)
    if not text.strip():
        raise CsvError("the file is empty")
    try:
        delimiter = csv.Sniffer().sniff(text[:8192], delimiters=",;\t|").delimiter
    except csv.Error:
        delimiter = ","
    header = read_header(text, delimiter)
    if any(not h for h in header):
        raise CsvError(f"column {header.index('') + 1} has no name in the header", 1)
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise CsvError(f"column {dupes[0]!r} appears twice", 1, dupes[0])
    try:
        df = pd.read_csv(
            io.StringIO(text), sep=delimiter, dtype=str, keep_default_na=False, na_filter=False, skip_blank_lines=False
        )
    except pd.errors.ParserError as exc:
        m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(exc))
        if m:
            raise CsvError(f"has {m.group(3)} cells but the header has {m.group(1)}", int(m.group(2))) from None
        raise CsvError(f"not a readable CSV ({exc})") from None
    df.columns = header
    df = df.apply(lambda s: s.str.strip())
    df["_row"] = np.arange(2, len(df) + 2)
    df = df[(df.drop(columns="_row") != "").any(axis=1)].reset_index(drop=True)
    if not len(df):
        raise CsvError("the file has a header but no rows")
    return df
