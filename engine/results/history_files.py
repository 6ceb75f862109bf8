"""History rows from files and from the results store: each source becomes rows with the History
dimensions (engine.results.history.DIMENSIONS) and a `file` column naming where they came from.

AccelBench exports are read by engine.results.csvio (CSV) and engine.results.jsonio (JSON); other tools'
files by engine.imports (engine.imports.importer). Pure pandas; no streamlit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from engine import settings
from engine.results.csvio import REQUIRED_COLUMNS, CsvError, read_export, read_header, typed_frame
from engine.results.history import DIMENSIONS
from engine.results.schema import COLUMN_NAMES
from engine.results.text_decode import decode_any

HISTORY_DIR = settings.DATA_DIR / "history"
THIS_MACHINE = "(this machine's runs)"


def from_export(df: pd.DataFrame, file_name: str) -> pd.DataFrame:
    """Typed result rows (engine.results.csvio.read_export or the store) with the History dimensions added."""
    out = df.copy()
    out["file"] = file_name
    out["date"] = pd.to_datetime(out["created_at"], utc=True, format="ISO8601", errors="coerce")
    device = out["device"].astype("str").str.upper().where(out["device"].notna(), "?")
    name = out["device_name"]
    out["device_label"] = (device + " · " + name.astype("str")).where(name.notna(), device)
    micro = out["kind"].isin(["matmul", "conv2d"]) & out["shape"].notna()
    out["workload"] = (out["kind"].astype("str") + " " + out["shape"].astype("str")).where(micro, out["model"])
    return out


def looks_like_export(header: list[str]) -> bool:
    """An AccelBench export (maybe a broken one) rather than another tool's table.

    Half the result columns present is the line: a foreign table rarely shares more than a few
    names, while an export with a few columns deleted should be *refused* with the missing ones named.
    """
    return sum(c in header for c in REQUIRED_COLUMNS) >= len(REQUIRED_COLUMNS) // 2


def is_export(data: bytes | str, name: str = "") -> bool:
    """An AccelBench export (maybe a broken one, to be refused with its row and column) rather than another
    tool's file: a comma-separated header sharing half the export's columns. Any encoding is looked at."""
    if name.lower().endswith((".json", ".jsonl", ".yaml", ".yml")):
        return False
    text = decode_any(data)[0]
    if not text.strip():
        return True  # the export reader says "the file is empty"
    try:
        return looks_like_export(read_header(text))
    except CsvError:
        return False


def load_export(data: bytes | str, file_name: str) -> pd.DataFrame:
    """An AccelBench export as History rows. Raises CsvError (row and column named)."""
    return from_export(read_export(data), file_name)


def store_rows(rows: Sequence[dict]) -> pd.DataFrame:
    """Runs from the results store (Store.list_runs) as History rows."""
    frame = pd.DataFrame(list(rows), columns=list(COLUMN_NAMES))
    return from_export(typed_frame(frame), THIS_MACHINE)  # typed like a loaded export


def store_tuples(rows: Sequence[tuple]) -> pd.DataFrame:
    """Runs from the results store as tuples in COLUMN_NAMES order (Store.run_tuples) as History rows:
    built column by column, several times quicker than from dicts on 100,000 runs."""
    frame = pd.DataFrame.from_records(list(rows), columns=list(COLUMN_NAMES), coerce_float=True)
    return from_export(typed_frame(frame), THIS_MACHINE)


FILE_TYPES = ("csv", "tsv", "txt", "log", "json", "jsonl", "yaml", "yml", "md", "markdown")  # what History reads


def folder_files(folder: Path = HISTORY_DIR) -> list[Path]:
    """Results files (and their sidecars) in the history folder, by name."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower().lstrip(".") in FILE_TYPES)


def combine(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """One frame of every loaded file's rows (columns a file lacks are empty for its rows)."""
    frames = [f for f in frames if f is not None and len(f)]
    if not frames:
        return pd.DataFrame(columns=list(DIMENSIONS))
    out = pd.concat(frames, ignore_index=True, sort=False)
    out["date"] = pd.to_datetime(out["date"], utc=True)
    return out
