"""The CLI's tables (`results list`, `compare`): columns that fit 100 characters — a terminal, a notebook cell —
or the same rows as CSV, or JSON; the prose of a row (how it was measured, what differs) under `--verbose`.

A command builds its rows as lists of text (its own formatting of numbers) and names its columns; this module
only lays them out: each column as wide as its widest cell up to its cap, the flexible column (a label) giving
up width when the whole would pass WIDTH, a cut cell ending in "…".
"""

from __future__ import annotations

import csv
import io
import textwrap
from dataclasses import dataclass
from typing import Any

WIDTH = 100  # a notebook cell or a terminal: a row longer than this wraps into a wall
GAP = "  "
FORMATS = ("table", "json", "csv")


@dataclass(frozen=True)
class Column:
    """One column: its title, the most characters it takes, whether it is right-aligned (numbers), and whether
    it gives up width when the line would be too long (a label; an id or a number never does)."""

    title: str
    cap: int
    right: bool = False
    flex: bool = False


def add_format_flags(parser: Any, what: str) -> None:
    """`--format table|json|csv` (table by default), `--json` (the same as --format json), `--verbose`."""
    parser.add_argument("--format", dest="output", choices=FORMATS, default=None, help=f"how to print {what}")
    parser.add_argument("--json", action="store_true", help="the same as --format json")
    parser.add_argument("--verbose", "-v", action="store_true", help="each row's prose (how, what differs) under it")


def output_format(args: Any) -> str:
    """The format a command prints: --json wins (it was there first), then --format, else table."""
    return "json" if getattr(args, "json", False) else getattr(args, "output", None) or "table"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def widths(columns: list[Column], rows: list[list[str]], gap: str = GAP, width: int = WIDTH) -> list[int]:
    """Each column's width: its widest cell (or title) up to its cap; the flexible columns, in order, shrink (to
    8 at least) while the whole line would be longer than `width`."""
    out = [min(c.cap, max([len(c.title), *(len(r[i]) for r in rows)])) for i, c in enumerate(columns)]
    over = sum(out) + len(gap) * (len(out) - 1) - width
    for i in [i for i, c in enumerate(columns) if c.flex]:
        cut = min(max(over, 0), max(out[i] - 8, 0))
        out[i] -= cut
        over -= cut
    return out


def table_lines(
    columns: list[Column], rows: list[list[str]], notes: list[list[str]] | None = None, gap: str = GAP
) -> list[str]:
    """The header and one line per row, each at most WIDTH characters; `notes[i]` (prose) indented under row i."""
    sizes = widths(columns, rows, gap)

    def line(cells: list[str]) -> str:
        parts = [
            _cut(cell, w).rjust(w) if c.right else _cut(cell, w).ljust(w)
            for c, w, cell in zip(columns, sizes, cells, strict=True)
        ]
        return gap.join(parts).rstrip()

    out = [line([c.title for c in columns])]
    for i, row in enumerate(rows):
        out.append(line(row))
        for text in notes[i] if notes else []:  # an empty note wraps to no line
            out += textwrap.wrap(text, WIDTH, initial_indent="    ", subsequent_indent="    ")
    return out


def csv_text(titles: list[str], rows: list[list[Any]]) -> str:
    """The rows as CSV with a header line: every cell whole (no width, no cut)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(titles)
    writer.writerows(rows)
    return buf.getvalue()
