"""A table of aligned whitespace columns inside console output: a header of names (maybe commented with `#`, maybe
with a units line `(us) (GB/s)` under it and a line of group names over it), then rows of as many cells, mostly
numbers. HPL prints one such block per run, each under its own copy of the header; nccl-tests one block whose
names repeat once per group (`out-of-place` / `in-place`: time algbw busbw each).

The blocks under one header are one table; a group's columns become rows with the group in a `variant` column, so
one metric holds both groups' numbers. Pure pandas.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd

from engine.imports.read.foreign_text import split_number

_NAME = re.compile(r"^#?[A-Za-z][\w/.%#-]*$")
_UNITS = re.compile(r"^\(.+\)$")
_RULE = re.compile(r"^\s*#?\s*[=\-*_~+]{3,}\s*$")
MIN_ROWS = 2  # fewer aligned rows than this is prose that happens to hold numbers
GROUP = "variant"


def _cells(line: str) -> tuple[list[str], list[int]]:
    """A line's cells without a leading `#`, and where each ends (aligned columns share their right edge)."""
    body = re.sub(r"^\s*#", lambda m: " " * len(m.group(0)), line)
    found = list(re.finditer(r"\S+", body))
    return [m.group(0) for m in found], [m.end() for m in found]


def _is_header(cells: list[str]) -> bool:
    return len(cells) >= 3 and all(_NAME.match(c) for c in cells)


def _is_row(cells: list[str], width: int) -> bool:
    return len(cells) == width and sum(split_number(c) is not None for c in cells) * 2 > width


def _units(line: str, ends: list[int]) -> list[str]:
    """The units line's cells, each under the column whose right edge is nearest its own."""
    cells, cell_ends = _cells(line)
    units = [""] * len(ends)
    if not cells or not all(_UNITS.match(c) for c in cells):
        return units
    for cell, end in zip(cells, cell_ends, strict=True):
        units[min(range(len(ends)), key=lambda i: abs(ends[i] - end))] = cell
    return units


def _header_at(lines: list[str], i: int) -> tuple[list[str], list[str], int] | None:
    """The header starting at line i: its names (with units), its group names and the first line after it."""
    names, ends = _cells(lines[i])
    if not _is_header(names):
        return None
    after = i + 1
    units = _units(lines[after], ends) if after < len(lines) else [""] * len(names)
    after += any(units)
    while after < len(lines) and _RULE.match(lines[after]):
        after += 1
    groups = _cells(lines[i - 1])[0] if i else []
    if not (groups and all(_NAME.match(g) for g in groups) and len(groups) < len(names)):
        groups = []
    full = [f"{n} {u}" if u else n for n, u in zip(names, units, strict=True)]
    return full, groups, after


def _blocks(lines: list[str]) -> dict[tuple[str, ...], tuple[list[str], list[tuple[int, list[str]]]]]:
    """Each header's groups and its rows (file line, cells), over all the blocks it heads."""
    found: dict[tuple[str, ...], tuple[list[str], list[tuple[int, list[str]]]]] = {}
    i = 0
    while i < len(lines):
        head = _header_at(lines, i)
        if head is None:
            i += 1
            continue
        names, groups, j = head
        rows = found.setdefault(tuple(names), (groups, []))[1]
        while j < len(lines) and _is_row(_cells(lines[j])[0], len(names)):
            rows.append((j + 1, _cells(lines[j])[0]))
            j += 1
        i = max(j, i + 1)
    return found


def _long(names: list[str], groups: list[str], rows: list[tuple[int, list[str]]]) -> pd.DataFrame:
    """Rows of one table; where names repeat once per group, one row per group with the group in `variant`."""
    frame = pd.DataFrame([cells for _, cells in rows], columns=range(len(names)), dtype=object)
    frame["_row"] = np.array([line for line, _ in rows])
    seen = Counter(names)
    repeated = [i for i, n in enumerate(names) if seen[n] > 1]
    shared = [i for i in range(len(names)) if i not in repeated]
    if not repeated or len(groups) != max(seen.values()):
        return frame.rename(columns=dict(enumerate(_unique(names))))
    parts = []
    for k, group in enumerate(groups):
        own = [i for i in repeated if names[:i].count(names[i]) == k]
        part = frame[[*shared, *own, "_row"]].rename(columns={i: names[i] for i in (*shared, *own)})
        parts.append(part.assign(**{GROUP: group}))
    return pd.concat(parts, ignore_index=True).sort_values("_row", kind="stable").reset_index(drop=True)


def _unique(names: list[str]) -> list[str]:
    """Names made distinct where a header repeats one without groups over it: `time`, `time 2`."""
    out: list[str] = []
    for n in names:
        out.append(n if n not in out else f"{n} {out.count(n) + 1}")
    return out


def aligned_table(lines: list[str]) -> tuple[pd.DataFrame, int] | None:
    """The aligned table with the most rows (at least MIN_ROWS) and its first row's file line; None if none."""
    best = max(_blocks(lines).items(), key=lambda kv: len(kv[1][1]), default=None)
    if best is None or len(best[1][1]) < MIN_ROWS:
        return None
    names, (groups, rows) = list(best[0]), best[1]
    return _long(names, groups, rows), rows[0][0]
