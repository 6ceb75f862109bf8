"""History page helpers: load each source on its own (uploads, the data/history folder, this machine's
runs), keep parsed files for the browser session, and the column-mapping form for foreign tables.

Uploaded files are parsed into memory only and kept in st.session_state, keyed by the upload's id:
they never touch the results store or the disk unless the user imports an export (never in demo mode).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
import streamlit as st

from engine.imports.facts.raw import Raw
from engine.imports.importer import read_raw
from engine.imports.read.foreign_json import is_sidecar, paired_loosely, read_sidecar, sidecar_for
from engine.imports.read.known_formats import system_description
from engine.imports.read.own_exports import as_export, own_kind, read_own
from engine.imports.reading import read_alone
from engine.results import history, history_files
from engine.results.csvio import CsvError
from engine.results.jsonio import (
    SERIES_SUFFIX,
    looks_like_json_export,
    read_any_export,
    read_json_export,
    read_series_file,
    series_file_name,
)
from engine.runs.store import Store

_CACHE = "hist_parsed"  # session key: upload id → Loaded


@dataclass
class Loaded:
    """One source after loading.

    Attributes:
      name: the file name (or the store's label).
      kind: "export" (AccelBench), "history" / "long" (History's own download / long CSV, loaded as they
        are), "foreign" (needs a mapping), "sidecar" (settings for a table), "series" (a CSV export's series
        file), "store", or "error".
      frame: History rows (exports and the store); None for a foreign table until mapped.
      raw: a foreign file's text cells and first mapping, for the mapping step (a sidecar's: its reading as
        results, used only when no table pairs with it).
      settings: a sidecar's settings (dotted keys → text).
      error: why the file was refused (row and column named).
      data: the file's bytes (exports only, for "save to the results store").
      notes: anything skipped on the way.
      series: run_id → kind → records (steps, epochs, repeats, telemetry) of an export that carried them.
    """

    name: str
    kind: str
    key: str
    frame: pd.DataFrame | None = None
    raw: Raw | None = None
    settings: dict[str, str] = field(default_factory=dict)
    error: str = ""
    data: bytes | None = None
    notes: list[str] = field(default_factory=list)
    series: dict[str, dict[str, list[dict]]] = field(default_factory=dict)


def parse(name: str, data: bytes, key: str) -> Loaded:
    """Decide export vs foreign table and load it; a bad file becomes kind "error" with its message."""
    try:
        if name.lower().endswith(SERIES_SUFFIX):
            return Loaded(name, "series", key, series=read_series_file(data))
        if looks_like_json_export(data):
            export = read_json_export(data)
            frame = history_files.store_rows([dict(r) for r in export.rows])
            frame["file"] = name
            return Loaded(name, "export", key, frame=frame, data=data, series=export.series)
        if is_sidecar(data, name):
            # read as results too, once with the parse: used only if no table pairs with it (`alone_as_results`)
            return Loaded(name, "sidecar", key, settings=read_sidecar(data, name), raw=read_alone(data, name))
        data = as_export(data, name) or data  # an export re-saved from a spreadsheet as TSV with CRLF
        if history_files.is_export(data, name):
            return Loaded(name, "export", key, frame=history_files.load_export(data, name), data=data)
        if own_kind(data, name):  # History's own download or a long CSV: rows as they are, not a mapping
            return Loaded(name, own_kind(data, name), key, frame=read_own(data, name))
        return Loaded(name, "foreign", key, raw=read_raw(data, name))
    except CsvError as exc:
        return Loaded(name, "error", key, error=str(exc))


def from_uploads(files: list, max_bytes: int | None = None) -> list[Loaded]:
    """Uploaded files, each parsed once per session (a rerun reuses the parsed frame).

    With `max_bytes` (demo mode) a file is measured by the bytes the server actually received — not by
    the size the browser claimed — and refused unparsed when it is larger."""
    cache: dict[str, Loaded] = st.session_state.setdefault(_CACHE, {})
    live = {f.file_id for f in files}
    for stale in [k for k in cache if k not in live]:
        del cache[stale]  # a file removed from the uploader is forgotten at once
    out = []
    for f in files:
        received = len(f.getbuffer())  # the bytes on the server; no copy
        if max_bytes is not None and received > max_bytes:
            out.append(
                Loaded(
                    f.name,
                    "error",
                    "u" + hashlib.sha1(f.file_id.encode()).hexdigest()[:8],
                    error=f"the file is {received / 2**20:,.1f} MB; this demo reads files up to {max_bytes / 2**20:,.0f} MB",
                )
            )
            continue
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


STORE_NEWEST = 10_000  # runs History loads from a big results store unless asked for more (newest first)


def from_store(db: Store) -> Loaded:
    """This machine's runs: all of a normal store; of one with more than STORE_NEWEST runs, the newest
    STORE_NEWEST (a few seconds at most, on either engine), with a choice of more and the way to all."""
    total = db.count_runs()
    limit = 0
    if total > STORE_NEWEST:
        options = [n for n in (STORE_NEWEST, 5 * STORE_NEWEST) if n < total] + [0]
        limit = st.selectbox(
            "Runs from the results store",
            options,
            key="hist_store_n",
            format_func=lambda n: f"newest {n:,}" if n else f"all {total:,} (slower)",
            help="Newest first. Loading every run of a very large store takes a while.",
        )
        if limit:
            st.caption(
                f"Only the newest {limit:,} of {total:,} runs are loaded. To see the rest, choose more here, or "
                "export them all (`python -m engine results export --out runs.csv`) and drop the file above."
            )
    frame = history_files.store_tuples(db.run_tuples(limit or None))
    return Loaded(history_files.THIS_MACHINE, "store", "store", frame=frame)


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
            if history_files.is_export(p.read_bytes(), p.name):
                return _preview(str(p), p.stat().st_mtime)
        except CsvError:
            continue
    return None


def sidecars(items: list[Loaded]) -> dict[str, tuple[str, dict[str, str]]]:
    """Table name → (sidecar name, its settings), pairing files by stem (log.tsv ↔ log.json / log.yaml)."""
    side = {i.name: i.settings for i in items if i.kind == "sidecar"}
    tables = sum(i.kind == "foreign" for i in items)  # one table and one settings file pair whatever their names
    out = {}
    for item in items:
        loose = [n for n, settings in side.items() if paired_loosely(settings)]
        found = sidecar_for(item.name, list(side), tables, loose) if item.kind == "foreign" else None
        if found:
            out[item.name] = (found, side[found])
    return out


def alone_as_results(items: list[Loaded], paired: dict[str, tuple[str, dict[str, str]]]) -> list[Loaded]:
    """The items, with each settings-shaped JSON that pairs with no table (and describes no MLPerf system) read as
    the results it holds — a JSON of flat result keys looks like settings until nothing is there to pair it with."""
    used = {s for s, _ in paired.values()}
    out = []
    for item in items:
        alone = item.kind == "sidecar" and item.name not in used and not system_description(item.settings)
        out.append(replace(item, kind="foreign") if alone and item.raw is not None else item)
    return out


def series_files(items: list[Loaded]) -> dict[str, str]:
    """CSV export name → the name of its series file among the loaded items (runs.csv ↔ runs.series.json)."""
    names = {i.name for i in items if i.kind == "series"}
    return {i.name: series_file_name(i.name) for i in items if i.kind == "export" and series_file_name(i.name) in names}


def all_series(items: list[Loaded]) -> dict[str, dict[str, list[dict]]]:
    """Every loaded run's series (JSON exports' own, CSV exports' series files), by run_id."""
    out: dict[str, dict[str, list[dict]]] = {}
    for item in items:
        out.update(item.series)
    return out


def save_export(db: Store, item: Loaded, items: list[Loaded]) -> tuple[int, int, int]:
    """An export's runs into the results store with their series (its own, or its series file's).
    Returns (added, already there, series records). Raises CsvError before writing anything."""
    assert item.data is not None
    export = read_any_export(item.data, item.name)
    ids = {str(r["run_id"]) for r in export.rows}
    series = export.series or {k: v for k, v in all_series(items).items() if k in ids}
    added, skipped = db.import_rows(export.rows, series, item.name)
    return added, skipped, sum(len(r) for kinds in series.values() for r in kinds.values())
