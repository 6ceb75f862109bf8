"""Where the records of a results CSV are and how many cells each has — numbered as csv.reader numbers them.

pandas parses the values, but it pads a short record with empty cells and gives no record numbers
when it skips blank ones, so an import could not say "row 4 has 44 cells". Two ways to find out:
`scan` counts cells over the file's bytes with numpy (vectorised: a 100,000-row export in a few
tens of milliseconds); `read` uses the csv module (exact for every shape, about a second per
100,000 rows), for the files `scan` does not model — bare-CR line ends, an unterminated quote.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np

from engine.results.errors import CsvError


@dataclass(frozen=True)
class Records:
    """The non-blank data records (header excluded).

    Attributes:
      numbers: 1-based record number of each (header = 1), as csv.reader counts records.
      cells: cell count of each.
      comma_rows: blank records made of commas/spaces, which pandas (unlike csv.reader) reads as rows.
      padded: some cell may start or end with a space or tab, so cells must be stripped.
      rows: the records' cells when read by the csv module (`read`); None after `scan`.
    """

    numbers: np.ndarray
    cells: np.ndarray
    comma_rows: int
    padded: bool
    rows: list[list[str]] | None = None
    buf: bytes = b""  # after `scan`: the file, for quoting one raw cell in an error message …
    starts: np.ndarray | None = None  # … each record's first byte …
    ends: np.ndarray | None = None  # … and one past its last (the newline excluded)

    def cell(self, pos: int, col_index: int) -> str:
        """The stripped text of one cell of the `pos`-th record, as the file has it."""
        if self.rows is not None:
            cells = self.rows[pos]
        else:
            assert self.starts is not None and self.ends is not None
            record = self.buf[self.starts[pos] : self.ends[pos]].decode("utf-8", errors="replace")
            cells = next(csv.reader(io.StringIO(record, newline="")), [])
        return cells[col_index].strip() if col_index < len(cells) else ""


def read(text: str) -> Records:
    """Every record through the csv module. Raises CsvError for text that is not CSV (a stray quote)."""
    rows: list[list[str]] = []
    numbers: list[int] = []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    line = 1
    try:
        next(reader)  # the header
        for line, cells in enumerate(reader, start=2):
            if any(c.strip() for c in cells):
                rows.append(cells)
                numbers.append(line)
    except csv.Error as exc:
        raise CsvError(f"not a readable CSV ({exc})", line + 1) from None
    cells_n = np.array([len(r) for r in rows], dtype=np.int64)
    return Records(np.array(numbers, dtype=np.int64), cells_n, 0, True, rows=rows)


_BYTE = {c: ord(c) for c in ',"\n\r \t'}


def _outside_quotes(arr: np.ndarray, char: str, quotes: np.ndarray) -> np.ndarray:
    """Byte offsets of `char` outside quoted cells (an even number of quotes before it)."""
    pos = np.flatnonzero(arr == _BYTE[char])
    if quotes.size:
        pos = pos[np.searchsorted(quotes, pos) % 2 == 0]
    return pos


def _padded(arr: np.ndarray) -> bool:
    """A space next to a comma or a line end may pad a cell (inside a quoted text it is a false alarm,
    which only costs the strip it was meant to save); any tab counts too."""
    spaces = np.flatnonzero(arr == _BYTE[" "])
    before = arr[np.maximum(spaces - 1, 0)]
    after = arr[np.minimum(spaces + 1, arr.size - 1)]
    edge = (before == _BYTE[","]) | (before == _BYTE["\n"]) | (spaces == 0)
    edge |= (after == _BYTE[","]) | (after == _BYTE["\n"]) | (after == _BYTE["\r"]) | (spaces == arr.size - 1)
    return bool(edge.any() or (arr == _BYTE["\t"]).any())


def scan(buf: bytes) -> Records | None:
    """Count the cells of every record without building the cells: vectorised over the file's bytes.

    A comma or newline counts only outside quotes, i.e. with an even number of quote characters
    before it (an escaped "" adds two, so it never flips the state). Returns None for shapes only
    `read` handles: bare-CR line ends, an unterminated quote.
    """
    arr = np.frombuffer(buf, dtype=np.uint8)
    quotes = np.flatnonzero(arr == _BYTE['"'])
    if quotes.size % 2:
        return None
    cr = np.flatnonzero(arr == _BYTE["\r"])
    if cr.size and ((cr + 1 >= arr.size) | (arr[np.minimum(cr + 1, arr.size - 1)] != _BYTE["\n"])).any():
        return None
    newlines = _outside_quotes(arr, "\n", quotes)
    starts = np.concatenate(([0], newlines + 1))
    ends = np.concatenate((newlines, [arr.size]))
    if starts[-1] >= arr.size:  # the file ends with a newline: no record after it
        starts, ends = starts[:-1], ends[:-1]
    commas = _outside_quotes(arr, ",", quotes)
    cells = np.searchsorted(commas, ends) - np.searchsorted(commas, starts) + 1
    # A record of only commas and blanks is skipped like an empty one. Only a record with few
    # characters besides its commas can be one; just those few are looked at.
    blank = np.zeros(starts.size, dtype=bool)
    for i in np.flatnonzero((ends - starts) - (cells - 1) <= 64):
        blank[i] = not buf[starts[i] : ends[i]].strip(b" \t\r,")
    keep = ~blank
    keep[0] = False  # the header
    return Records(
        numbers=(np.flatnonzero(keep) + 1).astype(np.int64),
        cells=cells[keep].astype(np.int64),
        comma_rows=int((blank & (ends > starts)).sum()),
        padded=_padded(arr),
        buf=buf,
        starts=starts[keep],
        ends=ends[keep],
    )
