"""History page helpers: load each source on its own (uploads, the data/history folder, this machine's
runs), keep parsed files for the browser session, and the column-mapping form for foreign tables.

Uploaded files are parsed into memory only and kept in st.session_state, keyed by the upload's id:
they never touch the results store or the disk unless the user imports an export (never in demo mode).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from engine.results import history, history_files
from engine.results.csvio import CsvError
from engine.results.mapping import NONE, ColumnMapping, apply_mapping, guess_mapping
from ui.common import show_table

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

_CACHE = "hist_parsed"  # session key: upload id → Loaded


@dataclass
class Loaded:
    """One source after loading.

    Attributes:
      name: the file name (or the store's label).
      kind: "export" (AccelBench), "foreign" (needs a mapping), "store", or "error".
      frame: History rows (exports and the store); None for a foreign table until mapped.
      raw: a foreign table's text cells, for the mapping form.
      error: why the file was refused (row and column named).
      data: the file's bytes (exports only, for "save to the results store").
      notes: anything skipped on the way.
    """

    name: str
    kind: str
    key: str
    frame: pd.DataFrame | None = None
    raw: pd.DataFrame | None = None
    error: str = ""
    data: bytes | None = None
    notes: list[str] = field(default_factory=list)


def parse(name: str, data: bytes, key: str) -> Loaded:
    """Decide export vs foreign table and load it; a bad file becomes kind "error" with its message."""
    try:
        if history_files.looks_foreign(data):
            return Loaded(name, "foreign", key, raw=history_files.load_foreign_raw(data))
        return Loaded(name, "export", key, frame=history_files.load_export(data, name), data=data)
    except CsvError as exc:
        return Loaded(name, "error", key, error=str(exc))


def from_uploads(files: list) -> list[Loaded]:
    """Uploaded files, each parsed once per session (a rerun reuses the parsed frame)."""
    cache: dict[str, Loaded] = st.session_state.setdefault(_CACHE, {})
    live = {f.file_id for f in files}
    for stale in [k for k in cache if k not in live]:
        del cache[stale]  # a file removed from the uploader is forgotten at once
    out = []
    for f in files:
        if f.file_id not in cache:
            cache[f.file_id] = parse(f.name, f.getvalue(), "u" + hashlib.sha1(f.file_id.encode()).hexdigest()[:8])
        out.append(cache[f.file_id])
    return out


@st.cache_data(max_entries=32, show_spinner=False)
def _folder_file(path: str, mtime: float, size: int) -> Loaded:
    """A file in data/history, parsed once per version (mtime and size are part of the cache key)."""
    p = Path(path)
    return parse(p.name, p.read_bytes(), "f" + hashlib.sha1(path.encode()).hexdigest()[:8])


def from_folder() -> list[Loaded]:
    return [_folder_file(str(p), p.stat().st_mtime, p.stat().st_size) for p in history_files.folder_files()]


def from_store(rows: list[dict]) -> Loaded:
    return Loaded(history_files.THIS_MACHINE, "store", "store", frame=history_files.store_rows(rows))


def mapping_form(item: Loaded) -> ColumnMapping:
    """Pickers for which column is what; starts from a guess, remembered per file for the session."""
    raw = item.raw
    assert raw is not None
    cols = [c for c in raw.columns if c != "_row"]
    guess = guess_mapping(raw)
    k = f"hist_map_{item.key}"

    def pick(role: str, label: str, optional: bool, help_text: str, where) -> str:
        options = ([NONE] if optional else []) + cols
        default = getattr(guess, role)
        index = options.index(default) if default in options else 0
        return where.selectbox(
            label,
            options,
            index=index,
            key=f"{k}_{role}",
            format_func=lambda c: "— none —" if c == NONE else c,
            help=help_text,
        )

    st.caption("Which column holds what? The first rows are shown below the pickers.")
    c: tuple[DeltaGenerator, ...] = st.columns(4)  # the last row has two
    device = pick("device", "Device column", False, "The hardware each row ran on (e.g. 'V100', 'TPU v3-8')", c[0])
    model = pick("model", "Model column", False, "The model or workload name", c[1])
    value = pick("value", "Value column", False, "The measured number (digits only; the unit goes below)", c[2])
    metric = pick("metric", "Metric column (optional)", True, "A column naming what each value measures", c[3])
    c = st.columns(4)
    batch = pick("batch", "Batch size column", True, "Optional: the (global) batch size", c[0])
    precision = pick("precision", "Precision column", True, "Optional: fp32, fp16, bf16 …", c[1])
    date = pick("date", "Date column", True, "Optional: when it ran (ISO dates read best)", c[2])
    workload = pick("workload", "Workload column", True, "Optional: a finer label than the model", c[3])
    c = st.columns(2)
    metric_name = c[0].text_input(
        "What the value measures" if not metric else "What the value measures (unused: a metric column is chosen)",
        value=guess.metric_name or value,
        key=f"{k}_metric_name",
        disabled=bool(metric),
        help="Type examples_per_sec, step_time_ms_median or gflops to put these rows on the same axis as "
        "AccelBench runs; any other name makes a metric of its own.",
    )
    unit = c[1].text_input("Unit", value="", key=f"{k}_unit", help="e.g. images/s, ms, s — shown on the axis")
    show_table(raw.drop(columns="_row").head(5), hide_index=True, key=f"{k}_preview")
    return ColumnMapping(
        device=device,
        model=model,
        value=value,
        metric=metric,
        metric_name=metric_name,
        unit=unit,
        batch=batch,
        precision=precision,
        date=date,
        workload=workload,
    )


def mapped(item: Loaded, mapping: ColumnMapping) -> tuple[pd.DataFrame | None, str, list[str]]:
    """(rows, error, notes) for a foreign table under `mapping`, remembered per file and mapping."""
    cache: dict = st.session_state.setdefault("hist_mapped", {})
    key = (item.key, mapping)
    if key not in cache:
        try:
            frame, notes = apply_mapping(item.raw, mapping, item.name)
            cache[key] = (frame, "", notes)
        except CsvError as exc:
            cache[key] = (None, str(exc), [])
        for old in [k for k in cache if k[0] == item.key and k != key]:
            del cache[old]  # only the current mapping of a file is worth keeping
    return cache[key]


@st.cache_data(max_entries=4, show_spinner=False)
def _preview(path: str, mtime: float):
    from engine.charts import history as charts

    df = history_files.load_export(Path(path).read_bytes(), Path(path).name)
    metric = history.metric_columns(df)[0]
    return charts.history_bars(history.aggregate(df, ["workload"], metric), metric, "workload", None, "median")


def sample_preview():
    """A chart of the first sample export in data/history, or None. Shown on the empty page: it says what
    the page makes of a file, and it loads the browser's chart code while the user picks one, so their
    own chart appears as soon as the file is read."""
    for p in history_files.folder_files():
        try:
            if not history_files.looks_foreign(p.read_bytes()):
                return _preview(str(p), p.stat().st_mtime)
        except CsvError:
            continue
    return None
