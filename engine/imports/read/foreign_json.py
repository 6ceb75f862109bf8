"""JSON results and metadata sidecars.

- Results: an array of records (one object per run), a document holding such an array (`{"results": […]}`),
  one nested document per run (config, environment and report in sub-objects), or JSON lines — flattened
  with `pandas.json_normalize` into dotted columns (`config.batch_size`) of text cells, one row per record,
  `_row` = the record's number (1-based), so the same mapping step reads them as a table.
- Sidecars: a JSON or simple YAML file of `key: value` pairs (hardware, framework, batch size, price per
  hour) describing a table next to it; flattened to dotted keys and joined to every row of that table.

Pure pandas; no streamlit. YAML is read without a YAML library: flat and indented `key: value` maps only.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np
import pandas as pd

from engine.imports.read.foreign_text import decode_any
from engine.imports.read.known_formats import system_description, with_facts
from engine.imports.read.nested_report import is_report, named_test_records, report_records
from engine.results.errors import CsvError

JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
YAML_SUFFIXES = (".yaml", ".yml")


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        lines = [ln for ln in text.split("\n") if ln.strip()]
        if len(lines) > 1 and all(ln.lstrip().startswith("{") for ln in lines):  # JSON lines
            out = []
            for i, ln in enumerate(lines):
                try:
                    out.append(json.loads(ln))
                except json.JSONDecodeError as e:
                    raise CsvError(f"not valid JSON ({e.msg}, character {e.colno})", i + 1) from None
            return out
        raise CsvError(f"not valid JSON ({exc.msg}, line {exc.lineno} character {exc.colno})", exc.lineno) from None


def _is_series(v: Any) -> bool:
    """A list of numbers (a histogram's bins or counts, a curve): measured detail, never a row or a name."""
    return isinstance(v, list) and len(v) > 1 and all(isinstance(x, (int, float)) for x in v)


def _without_series(record: Any, dropped: set[str], path: str = "") -> Any:
    """The record with its number lists taken out (their dotted names added to `dropped`)."""
    if not isinstance(record, dict):
        return record
    out = {}
    for k, v in record.items():
        name = f"{path}{k}"
        if _is_series(v):
            dropped.add(name)
        elif isinstance(v, dict):
            inner = _without_series(v, dropped, f"{name}.")
            if inner or not v:
                out[k] = inner
        else:
            out[k] = v
    return out


def _index_keyed(doc: Any) -> bool:
    """A table written by pandas' `to_json(orient="index")` (MLPerf's submission checker's summary.json): an object
    keyed by row number, each value one row's object — its rows, not one run with columns `0.Result`, `1.Result`."""
    return (
        isinstance(doc, dict)
        and len(doc) > 1
        and all(k.isdigit() for k in doc)
        and all(isinstance(v, dict) for v in doc.values())
    )


def _records(doc: Any) -> list[dict]:
    """The list of run records inside a document: the document itself, or its longest list of objects with the
    document's own facts (ML.ENERGY: `model_id`, `weight_precision` beside `configurations[]`) copied to each —
    a record's own value wins."""
    if is_report(doc):
        return report_records(doc)
    if isinstance(doc, list):
        return doc
    if _index_keyed(doc):
        return list(doc.values())
    tests = named_test_records(doc)
    if tests:
        return tests
    if isinstance(doc, dict):
        lists = {k: v for k, v in doc.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)}
        if lists:
            key = max(lists, key=lambda k: len(lists[k]))
            facts = {k: v for k, v in doc.items() if k != key and not isinstance(v, (list, dict)) and v is not None}
            return [with_facts(facts, r) for r in lists[key]]
        return [doc]  # one nested document = one run
    raise CsvError("the JSON holds no objects (expected an array of records or a document)")


def _text(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return str(v)


def read_json_table(data: bytes | str) -> pd.DataFrame:
    """JSON results as a table of text cells with dotted columns plus `_row` (the record's number)."""
    text, _ = decode_any(data)
    if not text.strip():
        raise CsvError("the file is empty")
    records = _records(_parse(text))
    bad = next((i for i, r in enumerate(records) if not isinstance(r, dict)), None)
    if bad is not None:
        raise CsvError(f"record {bad + 1} is not an object (got {_text(records[bad])[:40]!r})", bad + 1)
    if not records:
        raise CsvError("the JSON array is empty")
    dropped: set[str] = set()
    records = [_without_series(r, dropped) for r in records]
    flat = pd.json_normalize(records, sep=".")
    frame = flat.apply(lambda col: col.map(_text)).astype(object).copy()  # one block: 1,000 keys stay fast
    frame.columns = [str(c) for c in frame.columns]
    flags = list(pd.unique(frame.pop("_flag").dropna())) if "_flag" in frame.columns else []
    frame["_row"] = np.arange(1, len(frame) + 1)
    frame = frame.reset_index(drop=True)
    frame.attrs["flags"] = [f for f in flags if f]  # what contradicts itself in the file, said where it is read
    frame.attrs["series"] = sorted(dropped)
    return frame


def describe_json(frame: pd.DataFrame) -> str:
    """How a JSON file was read: its records, the number lists left out (histograms), and anything in it that
    contradicts itself (a CPU run on a GPU host)."""
    series = frame.attrs.get("series", [])
    left = f"; lists of numbers left out (histograms, not rows or names): {', '.join(series)}" if series else ""
    return f"JSON, {len(frame):,} records{left}" + "".join(f"; note: {f}" for f in frame.attrs.get("flags", []))


def is_sidecar(data: bytes | str, name: str) -> bool:
    """A JSON/YAML file of settings (one flat-ish object, no list of records) rather than results."""
    low = name.lower()
    if low.endswith(YAML_SUFFIXES):
        return True
    if not low.endswith(".json"):
        return False
    try:
        doc = _parse(decode_any(data)[0])
    except CsvError:
        return False
    if is_report(doc) or (isinstance(doc, dict) and "accelbench_mapping" in doc):
        return False  # a nested benchmark report holds results; a saved mapping says how to read a file
    return isinstance(doc, dict) and not any(isinstance(v, list) and v and isinstance(v[0], dict) for v in doc.values())


def _yaml_scalar(text: str) -> str:
    text = re.sub(r"\s+#.*$", "", text.strip())
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text


def _read_yaml(text: str) -> dict[str, str]:
    """`key: value` lines, nested by indentation (two or more spaces), as dotted keys. Lists are kept as text."""
    out: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for i, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith(("#", "---")):
            continue
        m = re.match(r"^(\s*)([^:#][^:]*?)\s*:(?:\s+(.*))?$", line)
        if not m:
            if line.lstrip().startswith("- ") and stack:  # a list item: kept as text on its key
                key = stack[-1][1]
                out[key] = (out.get(key, "") + ", " if out.get(key) else "") + _yaml_scalar(line.lstrip()[2:])
                continue
            raise CsvError(f"not a 'key: value' line: {line.strip()[:40]!r}", i)
        indent, key, value = len(m.group(1)), _yaml_scalar(m.group(2)), m.group(3)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        full = ".".join([k for _, k in stack] + [key])
        if value is None or not value.strip():
            stack.append((indent, key))
        else:
            out[full] = _yaml_scalar(value)
    return out


def read_sidecar(data: bytes | str, name: str = "meta.json") -> dict[str, str]:
    """A sidecar's settings as dotted keys → text ({'hardware': '8x V100', 'train.batch_size': '256'})."""
    text, _ = decode_any(data)
    if name.lower().endswith(YAML_SUFFIXES):
        return _read_yaml(text)
    doc = _parse(text)
    if not isinstance(doc, dict):
        raise CsvError("a metadata sidecar must be one JSON object of settings")
    flat = pd.json_normalize(doc, sep=".").iloc[0].to_dict()
    return {str(k): _text(v) for k, v in flat.items() if _text(v) != ""}


_TABLE_TAIL = re.compile(r"[._-]?(?:eval_)?measurements$")
_META_TAIL = re.compile(r"[._-]?(?:meta_?data|meta|metadata)(?:[._-]\d+)?$")


def sidecar_for(table_name: str, names: list[str], tables: int = 0, loose: list[str] | None = None) -> str | None:
    """The sidecar among `names` that belongs to `table_name`: same stem (`log.tsv` ↔ `log.json`,
    `log.meta.yaml`, `log.tsv.json`), or the same stem once a log's and a metadata file's own tails are taken
    off (AlgoPerf: `resnet_eval_measurements.csv` ↔ `resnet_meta_data_0.json`; `eval_measurements.csv` ↔
    `meta_data_0.json`); else, in a drop of one table (`tables` == 1) and one settings file, that file whatever
    its name (`config.json` beside `RTX 3090_1_gpus__half_model_train_benchmark.csv`) — of `loose`, the settings
    files that describe no document of their own (`paired_loosely`), where given."""
    stem = table_name.rsplit(".", 1)[0].lower()
    core = _TABLE_TAIL.sub("", stem)
    candidates = [n for n in names if n != table_name and n.lower().endswith((".json", *YAML_SUFFIXES))]
    for n in candidates:
        base = n.lower().rsplit(".", 1)[0]
        if base in (stem, f"{stem}.meta", table_name.lower()):
            return n
    for n in candidates:
        base = n.lower().rsplit(".", 1)[0]
        if _META_TAIL.search(base) and _META_TAIL.sub("", base) == core:
            return n
    loose = candidates if loose is None else [n for n in candidates if n in loose]
    return loose[0] if tables == 1 and len(candidates) == 1 and loose else None


def paired_loosely(settings: dict[str, str]) -> bool:
    """Whether a settings file may pair with a table of another name: not when it is a document of its own (an
    MLPerf system description, which the page names and points to its results)."""
    return system_description(settings) is None
