"""Issue 43 item 6: the foreign corpus — real result files of other tools (tests/data/foreign/SOURCES.md) and what History
must show for each at first sight, with no action (tests/data/foreign/EXPECTED.json). One check, shared by the test and
bench/bench_import_corpus.py: the file is read and mapped headless as the page proposes (`read_raw` → `apply_import`,
a typed device where the file names none, as `--auto --device` does), and the default view (`add_views`,
`default_metric`) must show the expected metric in its unit, on the expected device and count, with the file's own
numbers. The bytes are looked for in $ACCELBENCH_FOREIGN_CORPUS, else ../shared/foreign/ (fetched data files are kept
under shared/, never committed); each is checked against its git blob before use."""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path

import pandas as pd

from engine.imports.facts.units import normalise_unit
from engine.imports.importer import apply_import, read_raw
from engine.imports.read.foreign_json import is_sidecar
from engine.imports.reading import read_alone
from engine.imports.view.default_view import add_views, default_metric
from engine.results.errors import CsvError
from engine.results.history import metric_columns, metric_title

ROOT = Path(__file__).resolve().parents[2]
EXPECTED_FILE = ROOT / "tests" / "data" / "foreign" / "EXPECTED.json"
ENV = "ACCELBENCH_FOREIGN_CORPUS"
RIGHT = "right"
REL_TOLERANCE = 1e-3  # numbers are compared as the file prints them, to 0.1 %
SPELLINGS = {"img/s": "images/s"}  # one unit, two spellings the importer keeps as the tool wrote them


def expected() -> dict[str, dict]:
    return json.loads(EXPECTED_FILE.read_text(encoding="utf-8"))["files"]


def corpus_dir() -> Path | None:
    """Where the corpus bytes are: $ACCELBENCH_FOREIGN_CORPUS, else the steering side's ../shared/foreign/, else beside
    EXPECTED.json (should the bytes ever be committed there)."""
    for place in (os.environ.get(ENV), ROOT.parent / "shared" / "foreign"):
        if place and Path(place).is_dir():
            return Path(place)
    beside = EXPECTED_FILE.parent
    return beside if any((beside / name).is_file() for name in expected()) else None


def git_blob(data: bytes) -> str:
    """git's object id of a file's bytes (what `git hash-object` prints): proves a copy is byte for byte."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def read_bytes(folder: Path, name: str, exp: dict) -> bytes:
    data = (folder / name).read_bytes()
    if git_blob(data) != exp["blob"]:
        raise ValueError(f"{name} is not the committed file (blob {git_blob(data)} ≠ {exp['blob']}): fetch it again")
    return data


def shown(data: bytes, name: str, exp: dict) -> tuple[pd.DataFrame, str]:
    """The rows History holds for the file and the metric its default chart draws, read as the page reads a file
    dropped alone (a settings-shaped JSON is results only when something in it is a measurement). Raises CsvError."""
    raw = read_alone(data, name) if is_sidecar(data, name) else read_raw(data, name)
    if raw is None:  # the page takes a settings-shaped JSON holding no measurement for a sidecar and waits
        raise CsvError("taken for a table's settings: History waits for the table it belongs to")
    mapping = raw.guess
    if exp.get("typed_device"):
        mapping.constants["device"] = exp["typed_device"]
    frame, _notes = apply_import(raw.frame, mapping, name, None)
    view = add_views(frame)
    return view, default_metric(view, metric_columns(view))


def _unit(unit: str) -> str:
    same = normalise_unit(unit)
    return SPELLINGS.get(same, same)


def _column(view: pd.DataFrame, default: str, part: str | None) -> str | None:
    if not part:
        return default
    return next((m for m in metric_columns(view) if part in metric_title(m).lower()), None)


def _near(values: pd.Series, target: float) -> bool:
    nums = pd.to_numeric(values, errors="coerce").dropna()
    return any(math.isclose(v, target, rel_tol=REL_TOLERANCE) for v in nums)


def _rows_where(view: pd.DataFrame, where: dict) -> pd.DataFrame:
    rows = view
    for column, want in where.items():
        if column not in rows.columns:
            return rows.iloc[0:0]
        cells = rows[column]
        same = (
            pd.to_numeric(cells, errors="coerce") == want
            if isinstance(want, int | float)
            else cells.astype(str) == want
        )
        rows = rows[same]
    return rows


def _states(rows: pd.DataFrame, device: str | None, count: int | None) -> list[str]:
    """What is wrong with the device and count the rows state (nothing when they are the expected ones)."""
    wrong = []
    if device is not None:
        got = set(rows["device_label"].astype(str)) if "device_label" in rows.columns else set()
        if got != {device}:
            wrong.append(f"device {sorted(got)[:3]} (expected {device})")
    if count is not None:
        got_n = (
            {float(n) for n in pd.to_numeric(rows.get("device_count"), errors="coerce").dropna()}
            if len(rows)
            else set()
        )
        if got_n != {count}:
            wrong.append(f"device count {sorted(got_n)[:3]} (expected {count})")
    return wrong


def _number(view: pd.DataFrame, default: str, number: dict) -> list[str]:
    column = _column(view, default, number.get("metric"))
    label = number.get("metric") or "the default metric"
    if column is None:
        return [f"no metric like {label!r}"]
    rows = _rows_where(view.dropna(subset=[column]), number.get("where", {}))
    if number.get("how") == "max":
        values = rows[column].max() if len(rows) else None
        found = values is not None and math.isclose(values, number["value"], rel_tol=REL_TOLERANCE)
    else:
        found = _near(rows[column], number["value"])
    wrong = [] if found else [f"{number['value']:g} not shown in {metric_title(column)!r} {number.get('where', '')}"]
    near = rows[pd.to_numeric(rows[column], errors="coerce").sub(number["value"]).abs() <= abs(number["value"]) * 1e-3]
    return wrong + _states(near if len(near) else rows, number.get("device"), number.get("count"))


def _asks_for_device(data: bytes, name: str) -> list[str]:
    """A file that names no device is right only if History asks for one (as the CLI's --device does) rather than
    taking another column (a backend, a weight file, a question) for the device."""
    try:
        view, _metric = shown(data, name, {})
    except CsvError:
        return []  # asked for the device, or refused for another reason (said once, by `problems`)
    labels = sorted(set(view["device_label"].astype(str)))[:3] if "device_label" in view.columns else []
    return [f"names no device, but {labels} was taken for one instead of asking"]


def problems(data: bytes, name: str, exp: dict) -> list[str]:
    """Why the file is not right at first sight; empty when it is. Where the file names no device, the device typed
    (the one action such a file needs by nature) is given only after History has asked for it."""
    asked = _asks_for_device(data, name) if exp.get("typed_device") else []
    try:
        view, default = shown(data, name, exp)
    except CsvError as exc:
        return asked + [f"refused: {exc}"]
    wrong = asked
    title = metric_title(default)
    if exp.get("metric") and exp["metric"] not in title.lower():
        wrong.append(f"default metric {title!r} (expected one like {exp['metric']!r})")
    rows = view.dropna(subset=[default])
    units = {_unit(u) for u in rows["unit"].astype(str)} if "unit" in rows.columns else set()
    if units != {_unit(exp["unit"])}:
        wrong.append(f"unit {sorted(units)} (expected {exp['unit']})")
    wrong += _states(rows, exp.get("device"), exp.get("count"))
    for number in exp["numbers"]:
        wrong += _number(view, default, number)
    return wrong
