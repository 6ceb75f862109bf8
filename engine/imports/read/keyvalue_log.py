"""`key : value` text logs (a benchmark's printed summary: `Model : resnet50`, `Throughput : 1234.5 images/sec`)
read as records of text cells, and the many flat keys of a JSON Lines report split into benchmark and metric.

A log's record ends where a key repeats (the next run's summary); a value's trailing unit moves to its column's
header (`Throughput (images/sec)`), where the mapping reads units. Pure pandas; no streamlit.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec
from engine.imports.facts.metric_names import metric_for
from engine.imports.facts.units import unit_from_header
from engine.imports.read.foreign_text import split_number

# A key starts with a letter, or with a number followed by words (LoadGen's `99.90 percentile latency (ns)`).
_LINE = re.compile(r"^\s*((?:[A-Za-z]|[\d.]+%?\s+[A-Za-z])[^:,;\t|]{0,79}?)\s*[:=]\s*(\S.*?)\s*$")
_NUMBER_UNIT = re.compile(r"^([-+]?\d[\d,]*(?:\.\d*)?(?:[eE][-+]?\d+)?)\s*([A-Za-z%/][\w/% .-]{0,30})$")
# A key's part that sets a parameter: a name, a separator and a number (`batch_8`, `seq=1024`), or one of the usual
# short parameter names glued to its number (`m4096`, `bs64`, `tp2`) — never a model's own number (`vgg16`, `gpt2`).
_PARAMETER = re.compile(
    r"^(?:([A-Za-z]{1,12})[_=-](\d+)|(m|n|k|b|bs|mb|tp|pp|dp|ep|cp|seq|seqlen|len|hw|res|batch|heads|layers)(\d+))$"
)
_NOT_PARAMETERS = {"fp", "bf", "int", "tf", "v", "sm", "sm_", "gfx"}
# A ruling line (`=====`, `-----`) frames a section of a printed summary (LoadGen's, EEMBC's): not a record's line.
_RULE = re.compile(r"^\s*[=\-*#_~+]{3,}\s*$")
# The first header of a table that lists one key per row (`metric,value,unit`, `name,value`)
_KEY_HEADERS = {"metric", "name", "key", "field", "parameter", "stat", "statistic"}
MANY_KEYS = 20  # a report with more value keys than this is split into benchmark · metric by its key pattern


def is_keyvalue_log(text: str) -> bool:
    """Most non-blank lines (at least three) are `key : value` (or `key = value`) pairs."""
    every = [ln for ln in text.split("\n")[:400] if ln.strip()]
    titled = [i + 1 for i, ln in enumerate(every) if _RULE.match(ln)]  # the line after a rule: a section's title
    lines = [ln for i, ln in enumerate(every) if not _RULE.match(ln) and i not in titled]
    return len(lines) >= 3 and sum(bool(_LINE.match(ln)) for ln in lines) >= 0.8 * len(lines)


def read_keyvalue_log(text: str) -> pd.DataFrame:
    """One row per record (a record ends where a key repeats), text cells, `_row` = the record's first line."""
    records: list[dict[str, str]] = []
    starts: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        found = _LINE.match(line)
        if not found:
            continue
        key, value = found.group(1).strip(), found.group(2)
        if not records or key in records[-1]:
            records.append({})
            starts.append(number)
        records[-1][key] = value
    frame = pd.DataFrame(records, dtype=object).fillna("")
    frame = frame.rename(columns={c: _with_unit(c, frame[c]) for c in frame.columns})
    for c in frame.columns:
        frame[c] = frame[c].map(lambda cell: _NUMBER_UNIT.sub(r"\1", cell) if split_number(cell) is None else cell)
    frame["_row"] = np.array(starts)
    return frame


def long_record(table: pd.DataFrame) -> pd.DataFrame | None:
    """A `metric,value,unit` table (one measurement or setting per row, text and numbers mixed in `value`) as the
    one record it is: a column per key, the unit in its header (`true_gen_throughput (tok/s)`); None for any other
    table. A key that repeats starts the next record, as in a `key : value` log."""
    cols = [c for c in table.columns if c != "_row"]
    low = [str(c).strip().lower() for c in cols]
    if not (2 <= len(cols) <= 3 and low[0] in _KEY_HEADERS and low[1] == "value" and low[2:] in ([], ["unit"])):
        return None
    lines = []
    for _, row in table.iterrows():
        unit = str(row[cols[2]]).strip() if len(cols) == 3 else ""
        key = str(row[cols[0]]).strip()
        lines.append(f"{key} ({unit}) : {row[cols[1]]}" if unit and split_number(str(row[cols[1]])) else "")
        lines[-1] = lines[-1] or f"{key} : {row[cols[1]]}"
    frame = read_keyvalue_log("\n".join(lines))
    frame["_row"] = frame["_row"] + 1  # the file's line: its header row comes first
    return frame


def _with_unit(key: str, cells: pd.Series) -> str:
    """`Throughput` → `Throughput (images/sec)` when its values carry one unit the number parser does not."""
    units = {m.group(2).strip() for c in cells if split_number(c) is None and (m := _NUMBER_UNIT.match(c))}
    return f"{key} ({units.pop()})" if len(units) == 1 and not unit_from_header(key)[1] else key


def split_keys(m: ImportMapping) -> list[str]:
    """A report of many flat keys (`gemm.fp16.m4096.time_ms`): each value's benchmark is its key without the last
    part, its metric the last part, so a chart shows a few metrics per benchmark, not one bar per key."""
    values = m.columns("value")
    split = [c for c in values if re.search(r"[./:]", c)]
    if len(values) <= MANY_KEYS or len(split) < 0.8 * len(values):
        return []
    for c in split:
        head, last = re.split(r"[./:](?=[^./:]*$)", c)
        spec = m.values.get(c) or ValueSpec()
        unit = spec.unit or unit_from_header(last)[1]
        metric = metric_for(unit, last) if unit else ""  # `….ms`, `….time_ms`: a Time in ms
        bench, settings = _parameters(head)
        m.values[c] = ValueSpec(metric or last, unit, bench, spec.direction, settings)
    return [f"{len(split):,} keys read as benchmark · parameters · metric (the key's last part is the metric; "
            "a part like `m4096` or `batch_8` a setting)"]  # fmt: skip


def _parameters(head: str) -> tuple[str, dict[str, str]]:
    """('gemm.fp16', {'m': '4096'}) for 'gemm.fp16.m4096': the key's parts that are a short name and a number."""
    bench, settings = [], {}
    for part in re.split(r"[./:]", head):
        found = _PARAMETER.match(part)
        name, number = (found.group(1) or found.group(3), found.group(2) or found.group(4)) if found else ("", "")
        if found and name.lower() not in _NOT_PARAMETERS:
            settings[name] = number
        else:
            bench.append(part)
    return (".".join(bench) or head), settings
