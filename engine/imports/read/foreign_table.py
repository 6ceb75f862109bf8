"""Other tools' benchmark tables for the History page: read as text, ready for a column mapping.

AccelBench's own exports are read by engine.results.csvio.read_export; `looks_like_export`
(engine.results.history_files) tells the two apart. Raises `CsvError` naming the row (1-based, header = row 1) and the column. Pure
pandas; no streamlit.
"""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from engine.results.csvio import decode, read_header
from engine.results.errors import CsvError

# Cells a foreign table uses for "no value" (an out-of-memory run, a cell left blank).
MISSING_MARKERS = frozenset({"", "-", "—", "–", "n/a", "na", "nan", "none", "null", "oom", "x"})


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
