"""Result rows ↔ JSON text: AccelBench's own JSON export, and reading it back (CLI and History page).

The export is a JSON array with one object per run, keyed by the result columns
(engine.results.schema) — what `python -m engine results export --format json` has always printed. With
series, each object also holds `"series": {kind: [record, …]}` (per-step, per-epoch and per-repeat records,
telemetry samples; engine.runs.store keeps them), so a copy of a run carries its curves.

Reading checks the file as strictly as the CSV reader does — by handing the rows to it (engine.results.csvio),
so one set of rules decides what a valid run is — and names a bad run by its record number (1-based) and
field. Pure Python + the CSV reader; no streamlit.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.results.csvio import REQUIRED_COLUMNS, read_rows, safe_text
from engine.results.errors import CsvError
from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES, ResultRow

SERIES_KEY = "series"  # the one key of an exported run object that is not a result column
RunSeries = dict[str, list[dict[str, Any]]]  # kind → records, as engine.runs.store.Store.all_series


@dataclass
class JsonExport:
    """An AccelBench JSON export, read and checked.

    Attributes:
      rows: the runs, as the CSV reader types them (None for a missing value).
      series: run_id → kind → records, for the runs that carried series (none without `--series`).
    """

    rows: list[ResultRow]
    series: dict[str, RunSeries] = field(default_factory=dict)

    @property
    def series_records(self) -> int:
        """How many series records the file holds in all."""
        return sum(len(records) for kinds in self.series.values() for records in kinds.values())


def export_json(rows: Iterable[Mapping[str, Any]], series: Mapping[str, RunSeries] | None = None) -> str:
    """Runs as a JSON array (indent 1), each with its series when `series` is given (run_id → kind → records)."""
    out = []
    for row in rows:
        doc = {name: row.get(name) for name in COLUMN_NAMES}
        if series is not None:
            doc[SERIES_KEY] = dict(series.get(str(row["run_id"]), {}))
        out.append(doc)
    return json.dumps(out, indent=1)


def looks_like_json_export(data: bytes | str) -> bool:
    """A JSON array of objects whose first object has half the required result columns (a broken export is
    then refused with its problem named, like a broken CSV export), not another tool's JSON."""
    text = (data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data).lstrip("\ufeff \t\r\n")
    if not text.startswith("["):
        return False
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return False
    if not (isinstance(doc, list) and doc and isinstance(doc[0], dict)):
        return False
    return sum(c in doc[0] for c in REQUIRED_COLUMNS) >= len(REQUIRED_COLUMNS) // 2


def _cell(value: Any, name: str, record: int) -> str:
    """A JSON value as the CSV reader's cell text (its checks then type it)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        raise CsvError(f"record {record}, field {name!r}: expected a single value, got a JSON {type(value).__name__}")
    return safe_text(value) if isinstance(value, str) and COLUMN_TYPES.get(name) is str else str(value)


def _series(value: Any, record: int) -> RunSeries:
    where = f"record {record}, field {SERIES_KEY!r}"
    if not isinstance(value, dict):
        raise CsvError(f"{where}: expected an object of kind → list of records")
    for kind, records in value.items():
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise CsvError(f"{where}: {kind!r} must be a list of objects")
    return {str(k): list(v) for k, v in value.items()}


def read_json_export(data: bytes | str) -> JsonExport:
    """An AccelBench JSON export (an array of run objects, series optional), checked like a CSV export.

    Raises:
      CsvError: the first problem, naming its record (1-based) and field; nothing is returned partly.
    """
    text = data.decode("utf-8-sig", errors="strict") if isinstance(data, bytes) else data
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CsvError(f"not valid JSON ({exc.msg}, line {exc.lineno} character {exc.colno})") from None
    if isinstance(doc, dict) and isinstance(doc.get("runs"), list):
        doc = doc["runs"]
    if not isinstance(doc, list):
        raise CsvError("an AccelBench JSON export is an array of runs (python -m engine results export --format json)")
    if not doc:
        raise CsvError("the file holds no runs")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)  # quoted: any text survives
    header = [c for c in COLUMN_NAMES if any(isinstance(r, dict) and c in r for r in doc)]
    writer.writerow(header)
    series: dict[str, RunSeries] = {}
    for i, record in enumerate(doc, start=1):
        if not isinstance(record, dict):
            raise CsvError(f"record {i} is not an object of result fields")
        unknown = [k for k in record if k not in COLUMN_TYPES and k != SERIES_KEY]
        if unknown:
            raise CsvError(
                f"record {i}: unknown field(s) {', '.join(map(repr, unknown))} — not AccelBench result fields; map another tool's file on the History page or with --mapping"
            )
        writer.writerow([_cell(record.get(c), c, i) for c in header])
        if record.get(SERIES_KEY):
            series[str(record.get("run_id"))] = _series(record[SERIES_KEY], i)
    try:
        rows = read_rows(buf.getvalue())
    except CsvError as exc:  # the CSV reader counts the header as row 1: record N is its row N + 1
        if exc.row <= 1:  # a header problem: the fields every run needs
            raise CsvError(
                exc.reason.replace("column(s)", "field(s)").replace("results export", "JSON export")
            ) from None
        where = f"record {exc.row - 1}" + (f", field {exc.column!r}" if exc.column else "")
        raise CsvError(f"{where}: {exc.reason}") from None
    return JsonExport(rows, series)


# --- the CSV export's series file -----------------------------------------------------------------

SERIES_SUFFIX = ".series.json"  # runs.csv's series travel in runs.series.json beside it


def series_file_name(export_name: str) -> str:
    """The series file that belongs to a CSV export: 'runs.csv' → 'runs.series.json'."""
    return export_name.rsplit(".", 1)[0] + SERIES_SUFFIX


def series_json(series: Mapping[str, RunSeries]) -> str:
    """A CSV export's series file: {"accelbench_series": 1, "runs": {run_id: {kind: [records]}}}."""
    return json.dumps({"accelbench_series": 1, "runs": dict(series)}, indent=1)


def read_series_file(data: bytes | str) -> dict[str, RunSeries]:
    """A series file written by `results export --series` (CSV): run_id → kind → records. Raises CsvError."""
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CsvError(f"series file: not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), dict):
        raise CsvError('series file: expected {"accelbench_series": 1, "runs": {run_id: {kind: [records]}}}')
    return {str(run_id): _series(kinds, i) for i, (run_id, kinds) in enumerate(doc["runs"].items(), start=1)}


def read_any_export(data: bytes | str, name: str, series_data: bytes | str | None = None) -> JsonExport:
    """Either of AccelBench's exports — JSON (series inside) or CSV (series, if any, in its series file) —
    as checked rows and series. Raises CsvError naming the first problem; nothing is returned partly."""
    if name.lower().endswith(".json") or looks_like_json_export(data):
        return read_json_export(data)
    out = JsonExport(read_rows(data))
    if series_data is not None:
        ids = {str(r["run_id"]) for r in out.rows}
        out.series = {k: v for k, v in read_series_file(series_data).items() if k in ids}
    return out
