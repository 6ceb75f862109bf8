"""The CLI's tables (`results list`, `compare`): columns that fit the terminal they are printed to, or 100
characters when the output is not a terminal (a pipe, a file, a notebook cell); or the same rows as CSV, or JSON;
the prose of a row (how it was measured, what differs) under `--verbose`.

A command builds its rows as lists of text (its own formatting of numbers) and names its columns; this module
only lays them out: each column as wide as its widest cell up to its cap, the flexible column (a label) giving
up width when the whole would pass the width, a cut label ending in "…". A number (a right-aligned column) is
never cut: it takes the width it needs, and the labels give way.
"""

from __future__ import annotations

import csv
import io
import shutil
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

WIDTH = 100  # not a terminal (a notebook cell, a pipe): a row longer than this wraps into a wall


def line_width() -> int:
    """The terminal's columns when stdout is one (its size, or $COLUMNS), else WIDTH."""
    return shutil.get_terminal_size((WIDTH, 24)).columns if sys.stdout.isatty() else WIDTH
GAP = "  "
FORMATS = ("table", "json", "csv")


@dataclass(frozen=True)
class Column:
    """One column: its title, the most characters it takes, whether it is right-aligned (numbers), whether it
    gives up width when the line would be too long (a label; an id or a number never does), and `drop`: in a
    terminal too narrow for the table even so, the columns left out, highest first (0: never; said under it)."""

    title: str
    cap: int
    right: bool = False
    flex: bool = False
    drop: int = 0


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


def widths(columns: list[Column], rows: list[list[str]], gap: str = GAP, width: int | None = None) -> list[int]:
    """Each column's width: its widest cell (or title) up to its cap — a number's column its widest cell, whole —
    and the flexible columns, in order, shrink (to 8 at least) while the whole line would be longer than `width`
    (the terminal's, else WIDTH)."""
    width = width or line_width()
    out = [
        max(len(r[i]) for r in rows) if c.right and rows else min(c.cap, max([len(c.title), *(len(r[i]) for r in rows)]))
        for i, c in enumerate(columns)
    ]
    out = [max(w, len(c.title)) if c.right else w for w, c in zip(out, columns, strict=True)]
    over = sum(out) + len(gap) * (len(out) - 1) - width
    for i in [i for i, c in enumerate(columns) if c.flex]:
        cut = min(max(over, 0), max(out[i] - 8, 0))
        out[i] -= cut
        over -= cut
    return out


def _fitting(columns: list[Column], rows: list[list[str]], gap: str) -> list[int]:
    """The indices of the columns shown: all, less the droppable ones (highest `drop` first) that a narrow
    terminal has no room for once the labels have given way."""
    keep = list(range(len(columns)))
    width = line_width()
    for i in sorted((i for i, c in enumerate(columns) if c.drop), key=lambda i: -columns[i].drop):
        shown = [columns[k] for k in keep]
        if sum(widths(shown, [[r[k] for k in keep] for r in rows], gap)) + len(gap) * (len(keep) - 1) <= width:
            break
        keep.remove(i)
    return keep


def table_lines(
    columns: list[Column], rows: list[list[str]], notes: list[list[str]] | None = None, gap: str = GAP
) -> list[str]:
    """The header and one line per row, each at most the width (line_width) unless a number needs more; `notes[i]`
    (prose) indented under row i; a line naming the columns a narrow terminal left out."""
    keep = _fitting(columns, rows, gap)
    left_out = [c.title for i, c in enumerate(columns) if i not in keep]
    columns, rows = [columns[k] for k in keep], [[r[k] for k in keep] for r in rows]
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
            out += textwrap.wrap(text, line_width(), initial_indent="    ", subsequent_indent="    ")
    if left_out:
        words = f"(left out for this terminal's width: {', '.join(left_out)} — a wider window or --format csv shows them)"
        out += textwrap.wrap(words, line_width())
    return out


def csv_text(titles: list[str], rows: list[list[Any]]) -> str:
    """The rows as CSV with a header line: every cell whole (no width, no cut)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(titles)
    writer.writerows(rows)
    return buf.getvalue()
