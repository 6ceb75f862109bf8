"""Import validates every cell's range and form; pages survive a bad row already stored (issue 15, class 4)."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import run_row
from streamlit.testing.v1 import AppTest

from engine.results.csvio import CsvError, read_rows, rows_to_csv
from engine.results.schema import COLUMN_NAMES
from engine.runs import jobs
from engine.runs.store import Store


def full_row(run_id: str, **over) -> dict:
    return run_row(0, run_id=run_id, **over)


def _with_cell(column: str, value: str, extra: tuple[str, str] | None = None) -> str:
    text = rows_to_csv([full_row("r1", device_name="cpu"), full_row("r2", device_name="cpu")])
    rows = list(csv.reader(io.StringIO(text)))
    rows[2][COLUMN_NAMES.index(column)] = value
    if extra:
        rows[0].append(extra[0])
        for r in rows[1:]:
            r.append(extra[1])
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


@pytest.mark.parametrize(
    "column, value, says",
    [
        ("params", "99999999999999999999", "does not fit a 64-bit whole number"),
        ("host_cores", "-99999999999999999999", "does not fit a 64-bit whole number"),
        ("created_at", "2026-02-31T00:00:00Z", "not a real date"),
        ("created_at", "2026-01-01T25:61:00Z", "not a real date"),
        ("schema_version", "-1", "schema_version must be from 1"),
        ("schema_version", "0", "schema_version must be from 1"),
        ("schema_version", "999999", "newer than this AccelBench"),
        ("params", "1,234,567", "expected a whole number"),
        ("examples_per_sec", "2,048.5", "expected a finite number"),
        ("run_id", "../../etc/passwd", "run_id must be"),
        ("run_id", "a..b", "run_id must be"),
        ("run_id", "with space", "run_id must be"),
        ("run_id", "x" * 129, "run_id must be"),
    ],
)
def test_a_bad_cell_is_refused_naming_row_and_column(column, value, says, tmp_path):
    with pytest.raises(CsvError) as info:
        read_rows(_with_cell(column, value))
    assert (info.value.row, info.value.column) == (3, column), str(info.value)
    assert says in str(info.value)
    store = Store(tmp_path / "r.db")
    with pytest.raises(CsvError):
        store.import_csv(_with_cell(column, value), "bad.csv")
    assert store.count_runs() == 0


def test_unknown_extra_columns_are_named_never_dropped_silently():
    with pytest.raises(CsvError) as info:
        read_rows(_with_cell("notes", "x", extra=("secret_column", "1")))
    assert info.value.column == "secret_column" and "unknown column" in str(info.value)


def test_a_run_dir_never_resolves_outside_the_runs_folder(db):
    store = Store(db)
    runs = (db.parent / "runs").resolve()
    for bad in ("../x", "..", "a/../../b", "/etc", "a/b", ""):
        path = jobs.run_dir_of(bad, store).resolve()
        assert path.parent == runs and not path.exists(), (bad, path)
    assert jobs.run_dir_of("20260101-000000-abcdef", store) == runs / "20260101-000000-abcdef"


@pytest.mark.parametrize("page", ["home", "run", "compare", "history", "references", "devices"])
def test_every_page_survives_bad_rows_already_in_the_store(db, page):
    from conftest import ROOT

    store = Store(db)
    store.insert_run(full_row("20260101-000000-aaaaaa", created_at="2026-02-31T00:00:00Z"))
    store.insert_run(full_row("20260101-000000-bbbbbb", created_at="not a date", model=None, device=None))
    store.insert_run(full_row("../escape", created_at="", status="weird", kind="???", step_time_ms_median=None))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params["run"] = "../escape"
    at.run()
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
