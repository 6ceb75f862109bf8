"""A benchmark's console output read for its results, the prose around them ignored: a table of aligned whitespace
columns (HPL's `T/V N NB P Q Time Gflops` blocks, nccl-tests' `#`-commented header with its units line), or the
`key : value` / `key = value` summary lines a tool prints (vLLM's `Output token throughput (tok/s): 164.77`, an EEMBC
runner's `Throughput : 3.163 inf./sec.` after its timestamp, a JSON line of scores `{"exact_match": 80.0}`).

Cells stay text with `_row` = the file line, as every reader's; typing happens through the mapping. Pure pandas.
"""

from __future__ import annotations

import json
import re

import pandas as pd

from engine.imports.read.aligned_table import aligned_table
from engine.imports.read.foreign_text import split_number
from engine.imports.read.keyvalue_log import read_keyvalue_log

# A prefix a logger puts on every line (EEMBC's `01709.412 ulp-ml: `, a time and a source): not part of the line.
_PREFIX = re.compile(r"^\s*\d[\d.:]*\s+[\w.-]+:\s?")
# A ruling line, maybe with a section title inside (`-----Time to First Token-----`, `=====`).
_RULE = re.compile(r"^\s*#*\s*(?:[=\-*#_~+]{3,}.*[=\-*#_~+]{3,}|[=\-*#_~+]{3,})\s*$")
# A summary line: a short name (words, units in brackets) and a short value. A time (05:39) is no separator.
_KEY_VALUE = re.compile(r"^\s*([A-Za-z][\w ()/%.'#-]{0,59}?)\s*[:=](?!//)\s*(\S.{0,59}?)\s*$")
_NUMBER_FIRST = re.compile(r"^[-+]?\.?\d")  # a value that starts with a number (`15.806 sec.`, `3.163 inf./sec.`)
_TIME = re.compile(r"\d[:=]\d")  # 05:39, 0.50:0.95: a time or a range in prose, never a summary's separator


def strip_prefixes(lines: list[str]) -> list[str]:
    """The lines without the logger prefix that most of them (at least three) carry."""
    filled = [ln for ln in lines if ln.strip()]
    if len(filled) < 3 or sum(bool(_PREFIX.match(ln)) for ln in filled) < 0.8 * len(filled):
        return lines
    return [_PREFIX.sub("", ln, count=1) for ln in lines]


def _json_pairs(line: str) -> list[str]:
    """`{"exact_match": 80.0, "f1": 87.6}` on a line of its own → ['exact_match: 80.0', 'f1: 87.6']."""
    text = line.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return []
    try:
        found = json.loads(text)
    except ValueError:
        return []
    if not isinstance(found, dict):
        return []
    return [f"{k}: {v}" for k, v in found.items() if isinstance(v, int | float) and not isinstance(v, bool)]


def _pair(line: str) -> re.Match[str] | None:
    found = _KEY_VALUE.match(line)
    if not found or _RULE.match(line) or _TIME.search(line[found.end(1) - 1 : found.start(2) + 1]):
        return None
    return found


def _lone_number(line: str) -> bool:
    """`mAP=49.593%`: one word and a number — a result even where no other summary line stands beside it."""
    found = _pair(line)
    return found is not None and " " not in found.group(1).strip() and split_number(found.group(2)) is not None


def summary_lines(lines: list[str]) -> tuple[list[str], list[int]]:
    """The summary lines (`key : value`) and their file lines: those in a run of two or more (rulings and section
    titles inside a run do not break it, a blank line does), a lone `word = number`, and a JSON line's scores."""
    kept: list[str] = []
    numbers: list[int] = []
    run: list[int] = []

    def close() -> None:
        if len(run) >= 2 or (run and _lone_number(lines[run[0]])):
            said = {" ".join(k.split()) for k in kept}
            # A line said again among new ones adds nothing (vLLM restates its concurrency); a run said again as a
            # whole is another record that measured the same (an EEMBC window)
            new = [i for i in run if " ".join(lines[i].split()) not in said] or list(run)
            kept.extend(lines[i].strip() for i in new)
            numbers.extend(i + 1 for i in new)
        run.clear()

    for i, line in enumerate(lines):
        pairs = _json_pairs(line)
        if pairs:
            close()
            kept.extend(pairs)
            numbers.extend([i + 1] * len(pairs))
        elif _pair(line):
            run.append(i)
        elif not _RULE.match(line):
            close()
    close()
    return kept, numbers


def read_summary(lines: list[str]) -> pd.DataFrame | None:
    """The summary lines as records (`read_keyvalue_log`); None where fewer than one holds a number."""
    kept, numbers = summary_lines(lines)
    if not any(_NUMBER_FIRST.match(ln.split(":", 1)[-1].split("=", 1)[-1].strip()) for ln in kept):
        return None
    frame = read_keyvalue_log("\n".join(kept))
    frame["_row"] = [numbers[r - 1] for r in frame["_row"]]  # the record's first line in the file
    return frame


def read_console(text: str) -> tuple[pd.DataFrame, str, bool] | None:
    """Console output's results: its aligned table where it has one, else its summary lines as records; with how it
    was read and whether the frame is flat keys (read as a JSON report's); None where it has neither."""
    lines = strip_prefixes(text.split("\n"))
    table = aligned_table(lines)
    if table is not None:
        return table[0], f"aligned columns at line {table[1]}, {len(table[0]):,} rows (prose around them ignored)", True
    frame = read_summary(lines)
    if frame is None:
        return None
    return frame, f"summary lines (`key : value`), {len(frame):,} records (prose around them ignored)", True
