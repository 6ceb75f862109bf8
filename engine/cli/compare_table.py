"""`compare`'s text outputs (issue 37): the answer's rows and `--device all`'s devices as tables that fit 100
columns, or the terminal's (engine.cli.table), or CSV; the prose of each row — how it was measured, what differs, a price's
source — under `--verbose`. What the rows say is engine.compare's (answer, which_text); this lays it out."""

from __future__ import annotations

import sys
import textwrap
from typing import Any

from engine.cli.table import Column, csv_text, line_width, table_lines

_ANSWER_COLUMNS = [
    Column("row", 44, flex=True),
    Column("rate", 10, right=True),
    Column("unit", 10),
    Column("one device", 10, right=True),
    Column("× faster", 11, right=True),
    Column("$/M ex", 7, right=True, drop=1),
    Column("grade", 10),
]
# numbers (a range, a bound) whole; the precision · stack, then the basis, give up width (one space apart)
_WHICH_COLUMNS = [
    Column("device", 11),
    Column("precision · stack", 22, flex=True),
    Column("basis", 18, flex=True),
    Column("ex/s (1 device)", 23, right=True),
    Column("× faster", 14, right=True),  # "12,267–25,254×": a CPU baseline puts devices thousands of times ahead
    Column("your epochs", 17, right=True, drop=1),
    Column("USD/M ex", 9, right=True),
]


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.3g}"


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, line_width(), subsequent_indent="  ") or [""]


def _answer_cells(c: Any) -> list[str]:
    from engine.catalog.prices import usd_text
    from engine.compare.answer import times, times_range

    r, g = c.rate, c.grade
    bound = {"at most": "≤", "at least": "≥", "about": "≈"}.get(r.bound, "")
    x = c.per_device_speedup or c.speedup
    rng = times_range(c.low, c.high) if c.low is not None and c.high is not None and c.low != c.high else times(x)
    usd = usd_text(c.usd_per_million_examples)[1:] if c.usd_per_million_examples is not None else "—"
    one = _fmt(c.one.value) if c.one else "system"
    return [r.label, bound + _fmt(r.value), r.unit, one, rng, usd, g.grade if g else "baseline"]


def print_answer(answer: Any, fmt: str, verbose: bool) -> None:
    """The answer's rows: a table (the prose under each row with --verbose) or CSV (every column whole)."""
    cells = [_answer_cells(c) for c in answer.rows]
    prose = [[c.rate.how, f"differs: {', '.join(c.grade.top)}" if c.grade and c.grade.top else ""] for c in answer.rows]
    if fmt == "csv":
        titles = [col.title for col in _ANSWER_COLUMNS] + ["how", "differs"]
        sys.stdout.write(csv_text(titles, [row + p for row, p in zip(cells, prose, strict=True)]))
        return
    print("\n".join(table_lines(_ANSWER_COLUMNS, cells, prose if verbose else None)))
    tail = [f"left out ({line})" for line in answer.left_out]
    tail += _other_workloads(answer.other_workloads, verbose)
    for line in tail:
        print("\n".join(_wrapped(line)))
    folded = len(tail) < len(answer.left_out) + len(answer.other_workloads)
    if not verbose and (any(any(p) for p in prose) or folded):
        more = "; each row not comparable" if folded else ""
        print(f"(--verbose: how each row was measured and what differs from this run{more})")


FOLD_NAMES = 3  # rows named in a folded line; the rest counted


def _other_workloads(others: Any, verbose: bool) -> list[str]:
    """One line per row not comparable; without --verbose, rows left out for one reason fold into one line (a run
    on files at 192×192 has every 224×224 row of its model beside it: a hundred lines that say the same)."""
    if verbose:
        return [f"other workload, not comparable: {label} — {why}" for label, why in others]
    by_why: dict[str, list[str]] = {}
    for label, why in others:
        by_why.setdefault(why, []).append(label)
    out = []
    for why, labels in by_why.items():
        if len(labels) == 1:
            out.append(f"other workload, not comparable: {labels[0]} — {why}")
            continue
        distinct = list(dict.fromkeys(labels))  # one source's rows often repeat a label
        more = sum(label not in distinct[:FOLD_NAMES] for label in labels)
        out.append(
            f"other workloads, not comparable — {why}: {len(labels)} rows ({'; '.join(distinct[:FOLD_NAMES])}"
            + (f"; {more} more)" if more else ")")
        )
    return out


def print_which(w: Any, fmt: str, verbose: bool) -> None:
    """`--device all`: every device, fastest first, as a table or CSV; the title, notes and prose wrapped at the line width."""
    from engine.compare.words.which_text import (
        basis_text,
        beside_lines,
        epoch_text,
        lines,
        rate_text,
        scale_text,
        speedup_text,
        usd_text,
    )

    cells = [
        [r.device, r.setting, basis_text(r), rate_text(r, _WHICH_COLUMNS[3].cap), speedup_text(r), epoch_text(r),
         usd_text(r.usd_per_million_examples)]
        for r in w.rows
    ]  # fmt: skip
    prose = [
        [
            f"{r.price_short if r.price_whose else 'no price in the table: pass --price KEY=USD'} · {scale_text(r)}",
            r.how,
        ]
        for r in w.rows
    ]
    if fmt == "csv":
        titles = [col.title for col in _WHICH_COLUMNS] + ["price · scale", "how"]
        sys.stdout.write(csv_text(titles, [row + p for row, p in zip(cells, prose, strict=True)]))
        return
    title, scale_note = lines(w)[:2]  # the same title and scale note as the Compare page's
    for text in (title, scale_note):
        print("\n".join(_wrapped(text)))
    print("\n".join(table_lines(_WHICH_COLUMNS, cells, prose if verbose else None, gap=" ")))
    for text in [*beside_lines(w), *(f"left out ({why})" for why in w.left_out)]:
        print("\n".join(_wrapped(text)))
    if not verbose:
        print("(--verbose: each device's price, scale and how it was measured)")
