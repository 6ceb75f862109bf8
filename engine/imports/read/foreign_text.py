"""Other tools' text tables as they come: any common encoding, separator and line end, with or without a
header row, numbers with units in their cells. Every cell is kept as stripped text, plus `_row` (the line
number a spreadsheet shows, header = 1); typing happens later, through a mapping (engine.imports.importer).

Raises `CsvError` naming the row and column. Pure pandas; no streamlit.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.results.errors import CsvError
from engine.results.text_decode import decode_any

# Cells a foreign table uses for "no value" (an out-of-memory run, a cell left blank).
MISSING_MARKERS = frozenset(
    {"", "-", "—", "–", "n/a", "na", "nan", "none", "null", "oom", "x", "[n/a]", "failed", "error"}
)
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}

# Units a cell may carry after its number ("100 %", "67388 MiB", "71 C", "350.2 W", "1395 MHz").
CELL_UNITS = (
    "%", "MiB", "GiB", "KiB", "MB", "GB", "kB", "C", "°C", "W", "kW", "MHz", "GHz", "ms", "us", "µs", "ns", "s",
    "sec", "min", "h", "TiB", "TB", "GB/s", "GBps", "MB/s", "images/s", "img/s", "samples/s", "sequences/s",
    "tokens/s", "examples/s", "it/s", "x", "×",
)  # fmt: skip
_NUMBER = r"[-+]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_UNIT_CELL = re.compile(
    rf"^({_NUMBER})\s*({'|'.join(re.escape(u) for u in sorted(CELL_UNITS, key=len, reverse=True))})$"
)
_PLAIN = re.compile(rf"^{_NUMBER}$")
_DATE = re.compile(r"^\d{4}[-/]\d{1,2}[-/]\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$")


@dataclass
class TextTable:
    """A table read as text. `encoding`, `delimiter` and `header` say how it was read (shown to the user)."""

    frame: pd.DataFrame
    encoding: str
    delimiter: str
    header: bool


def split_number(cell: str) -> tuple[str, str] | None:
    """('67388', 'MiB') for '67388 MiB', ('12.5', '') for '12.5'; None when the cell is not a number."""
    cell = cell.strip()
    if _PLAIN.match(cell):
        return cell, ""
    m = _UNIT_CELL.match(cell)
    return (m.group(1), m.group(2)) if m else None


def is_date(cell: str) -> bool:
    return bool(_DATE.match(cell.strip()))


def _looks_like_data(cells: list[str]) -> bool:
    """A first line that is data, not names: most cells are numbers (maybe with a unit) or dates."""
    filled = [c for c in cells if c.strip()]
    data_like = sum(1 for c in filled if split_number(c) is not None or is_date(c))
    return bool(filled) and data_like * 2 >= len(filled)


def sniff_delimiter(text: str) -> str:
    sample = "\n".join(text[:16384].split("\n")[:50])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        counts = {d: sample.count(d) for d in DELIMITER_NAMES}
        return max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","


def _header_names(first: list[str], headerless: bool) -> list[str]:
    if headerless:
        return [f"column {i + 1}" for i in range(len(first))]
    names = [h.strip() for h in first]
    if names and not names[0]:
        names[0] = "(row label)"  # a spreadsheet's or pandas' index column
    blank = [i for i, n in enumerate(names) if not n]
    if blank:
        raise CsvError(f"column {blank[0] + 1} has no name in the header", 1)
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise CsvError(f"column {dupes[0]!r} appears twice", 1, dupes[0])
    return names


def _records(text: str, delimiter: str) -> list[list[str]]:
    try:
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        line = text.count("\n", 0, len(text))  # csv gives no position; the message names what went wrong
        raise CsvError(f"not a readable table ({exc}); {line} lines read") from None


_MD_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")


def markdown_table(text: str) -> tuple[str, int] | None:
    """The first Markdown pipe table in a report of prose (`| payload | busbw |`, its `|---:|` rule, its rows) as
    pipe-separated text without the rule, and the file line its header stands on; None where the text has none or is
    only that table (read as it is)."""
    lines = text.split("\n")
    for i in range(len(lines) - 2):
        if lines[i].lstrip().startswith("|") and _MD_RULE.match(lines[i + 1].strip()):
            end = i + 2
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            if i == 0 and not "".join(lines[end:]).strip():
                return None
            rows = [lines[i], *lines[i + 2 : end]]
            return "\n".join(r.strip().strip("|") for r in rows), i + 1
    return None


def read_text_table(data: bytes | str, delimiter: str | None = None, header: bool | None = None) -> TextTable:
    """The table as stripped text cells plus `_row`; blank lines skipped (but counted).

    `delimiter` and `header` are sniffed when None; a headerless file gets columns 'column 1', 'column 2', …
    """
    text, encoding = decode_any(data)
    if not text.strip():
        raise CsvError("the file is empty")
    delim = delimiter or sniff_delimiter(text)
    records = _records(text, delim)
    numbered = [(i + 1, r) for i, r in enumerate(records) if any(c.strip() for c in r)]
    if not numbered:
        raise CsvError("the file is empty")
    headerless = _looks_like_data(numbered[0][1]) if header is None else not header
    names = _header_names(numbered[0][1], headerless)
    body = numbered if headerless else numbered[1:]
    if not body:
        raise CsvError("the file has a header but no rows")
    width = len(names)
    for line, cells in body:
        if len(cells) > width and any(c.strip() for c in cells[width:]):
            raise CsvError(f"has {len(cells)} cells but the header has {width}", line)
    rows = [[c.strip() for c in (cells + [""] * width)[:width]] for _, cells in body]
    frame = pd.DataFrame(rows, columns=names, dtype=object)
    frame["_row"] = np.array([line for line, _ in body])
    return TextTable(frame, encoding, delim, not headerless)


def describe(table: TextTable) -> str:
    """'UTF-8, tab-separated, header row' — how the file was read, in words."""
    head = "header row" if table.header else "no header row (columns numbered)"
    return f"{table.encoding}, {DELIMITER_NAMES.get(table.delimiter, repr(table.delimiter))}-separated, {head}"


def first_bad(raw: pd.DataFrame, mask: pd.Series, column: str, reason: str) -> CsvError:
    pos = int(np.flatnonzero(mask.to_numpy())[0])
    text = raw[column].iloc[pos]
    return CsvError(reason.format(raw=repr(text)), int(raw["_row"].iloc[pos]), column)


# Unix times as tools write them (LLMPerf's `timestamp`, time.time()): seconds or milliseconds since 1970, read only
# when every cell is one and lies within 2001–2286 (10 or 13 digits), so a year or a count is never taken for one.
_EPOCH_UNITS = (("s", 1e9, 1e10), ("ms", 1e12, 1e13))


def epoch_dates(text: pd.Series) -> pd.Series | None:
    """The cells as dates when all non-empty ones are Unix times in one unit; None otherwise."""
    filled = text[text != ""]
    nums = pd.to_numeric(filled, errors="coerce")
    if filled.empty or nums.isna().any():
        return None
    for unit, low, high in _EPOCH_UNITS:
        if ((nums >= low) & (nums < high)).all():
            return pd.to_datetime(pd.to_numeric(text.where(text != ""), errors="coerce"), unit=unit, utc=True)
    return None


def unreadable_dates(text: pd.Series) -> bool:
    """Whether a filled cell among the first 50 is no date `parse_dates` reads (date(1)'s `… PM AEST 2026`)."""
    filled = text.head(50).astype(str).str.strip()
    filled = filled[~filled.str.lower().isin(MISSING_MARKERS)]
    return bool(pd.to_datetime(filled, errors="coerce", utc=True, format="mixed").isna().any())


def parse_dates(rows: pd.DataFrame, column: str) -> pd.Series:
    if not column:
        return pd.Series(pd.NaT, index=rows.index, dtype="datetime64[ns, UTC]")
    text = rows[column]
    dates = epoch_dates(text)
    if dates is None:
        dates = pd.to_datetime(text.where(text != ""), errors="coerce", utc=True, format="mixed")
    bad = (text != "") & dates.isna()
    if bad.any():
        raise first_bad(rows, bad, column, "expected a date like 2026-01-31 or 2026-01-31T12:00:00Z, got {raw}")
    return dates


def safe_name(text: str) -> str:
    """A file-name-safe version of a label (for downloads)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "data"
