"""AccelBench's own tables, recognised wherever they are loaded, never read as another tool's file: the store
export (`results export`, CSV or JSON), History's downloads (the filtered rows, one column per metric) and the long
CSV (`results import … --out`, one row per value with `metric`, `value`, `unit`) — also when a spreadsheet re-saved
any of them as tab-separated text with CRLF line ends. Pure pandas; no streamlit.
"""

from __future__ import annotations

import csv
import io

import pandas as pd

from engine.imports.read.foreign_text import decode_any
from engine.results import history_files
from engine.results.csvio import read_header
from engine.results.errors import CsvError
from engine.results.status import RunStatus

_HISTORY = {"run_id", "device_label", "workload", "kind", "status", "source"}  # History's download
_LONG = {"device_label", "model", "metric", "value", "unit"}  # the long CSV (engine.imports.view.imported.to_long)
_WHOLE = ("device_count", "global_batch_size")
_NUMBERS = ("memory_gb", "elapsed_s", "step", "price_usd_per_h", "power_w", "system_price_usd")
KINDS = {"history": "AccelBench History table", "long": "AccelBench long CSV (one row per value)"}


def as_csv(data: bytes | str) -> bytes | None:
    """Tab-separated text (any line ends) as the same table in CSV; None when the first line has no tab."""
    text = decode_any(data)[0]
    first = text.split("\n", 1)[0]
    if "\t" not in first or "," in first.replace('","', ""):
        return None
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t"))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(r for r in rows if r)
    return out.getvalue().encode("utf-8")


def as_export(data: bytes | str, name: str) -> bytes | None:
    """A store export re-saved as TSV (CRLF or not) → its CSV bytes, which the export reader takes; else None."""
    converted = as_csv(data)
    return converted if converted is not None and history_files.is_export(converted, name) else None


def own_kind(data: bytes | str, name: str) -> str:
    """ "history" or "long" for History's own tables (CSV or TSV), else ""."""
    if name.lower().endswith((".json", ".jsonl", ".yaml", ".yml")):
        return ""
    text = decode_any(as_csv(data) or data)[0]
    try:
        header = set(read_header(text))
    except CsvError:
        return ""
    if header >= _HISTORY:
        return "history"
    if header >= _LONG:
        return "long"
    return ""


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    for c in _WHOLE:
        if c in frame.columns:
            frame[c] = pd.to_numeric(frame[c], errors="coerce").round().astype("Int64")
    for c in _NUMBERS:
        if c in frame.columns:
            frame[c] = pd.to_numeric(frame[c], errors="coerce")
    if "date" in frame.columns:
        frame["date"] = pd.to_datetime(frame["date"], errors="coerce", utc=True, format="mixed")
    text = [c for c in frame.columns if frame[c].dtype == object]
    frame[text] = frame[text].where(frame[text] != "", None)
    return frame


def read_own(data: bytes | str, name: str) -> pd.DataFrame:
    """History rows from one of History's own tables: its downloaded rows as they are, a long CSV with each value
    back in its metric's column. Raises CsvError when neither."""
    kind = own_kind(data, name)
    if not kind:
        raise CsvError("not an AccelBench History table or long CSV")
    text = decode_any(as_csv(data) or data)[0]
    frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    if kind == "history":
        metrics = [c for c in frame.columns if c not in _HISTORY and _numeric(frame[c]) and c not in _WHOLE]
        for c in metrics:
            frame[c] = pd.to_numeric(frame[c], errors="coerce")
        return _typed(frame)
    values = pd.to_numeric(frame["value"], errors="coerce")
    out = frame.drop(columns=["metric", "value"])
    for metric in pd.unique(frame["metric"]):
        out[metric] = values.where(frame["metric"] == metric)
    out["file"], out["source"], out["kind"], out["status"] = name, "file:" + name, "external", RunStatus.OK.value
    out["run_id"] = name + ":" + (frame.index + 2).astype(str)
    out["workload"] = out["model"]
    return _typed(out)


def _numeric(col: pd.Series) -> bool:
    filled = col[col != ""]
    return bool(len(filled)) and bool(pd.to_numeric(filled, errors="coerce").notna().all())
