"""Store faults and CLI paper cuts end in one line and exit 2, never a traceback (issue 15, class 5)."""

from __future__ import annotations

import io
import os

import pytest
from conftest import run_row
from streamlit.testing.v1 import AppTest

from engine.cli import main
from engine.runs import store_base
from engine.runs.sql_engine import engine_for
from engine.runs.store import Store, StoreError


def full_row(run_id: str, **over) -> dict:
    return run_row(0, run_id=run_id, **over)


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accelbench: error: "), err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0], (w, lines[0])


@pytest.mark.parametrize(
    "fault, words",
    [
        ("corrupt", ("damaged", "move it aside")),
        ("truncated", ("damaged", "move it aside")),
        ("parent_is_file", ("is a file, not a folder",)),
        ("directory", ("is a folder, not a database file",)),
    ],
)
def test_a_store_fault_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, fault, words):
    db = tmp_path / "results.db"
    if fault == "corrupt":
        db.write_bytes(b"this is not sqlite at all" * 100)
    elif fault == "truncated":
        Store(db).insert_run(full_row("r1"))
        db.write_bytes(db.read_bytes()[:1000])
    elif fault == "parent_is_file":
        (tmp_path / "afile").write_text("x")
        db = tmp_path / "afile" / "results.db"
    elif fault == "directory":
        db.mkdir()
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    for args in (("results", "list"), ("results", "export"), ("results", "show", "r1")):
        code, _, err = _cli(capsys, *args)
        assert code == 2, (args, err)
        _one_line_error(err, *words)


def test_a_read_only_database_still_lists_and_exports(db, monkeypatch, capsys, tmp_path):
    Store(db).insert_run(full_row("20260101-000000-aaaaaa"))
    real_access = os.access
    monkeypatch.setattr(store_base.os, "access", lambda p, mode: False if str(p) == str(db) else real_access(p, mode))
    code, out, _ = _cli(capsys, "results", "list")
    assert code == 0 and "20260101-000000-aaaaaa" in out
    code, out, _ = _cli(capsys, "results", "export")
    assert code == 0 and "20260101-000000-aaaaaa" in out
    csv_file = tmp_path / "in.csv"
    csv_file.write_text(Store(tmp_path / "other.db").export_csv() or "")
    Store(tmp_path / "other.db").insert_run(full_row("20260101-000000-bbbbbb"))
    csv_file.write_text(Store(tmp_path / "other.db").export_csv())
    code, _, err = _cli(capsys, "results", "import", str(csv_file))
    assert code == 2
    _one_line_error(err, "read-only", "listing and export still work")


def test_a_full_disk_is_one_line(db):
    """A real SQLITE_FULL: the database may not grow past the pages it has (max_page_count)."""
    from sqlalchemy import event

    store = Store(db)
    engine = engine_for(store.target, False)

    def cap(dbapi_conn, _record) -> None:
        pages = dbapi_conn.execute("PRAGMA page_count").fetchone()[0]
        dbapi_conn.execute(f"PRAGMA max_page_count={pages}")

    event.listen(engine, "connect", cap)
    try:
        with pytest.raises(StoreError, match="is full — nothing was written; free some space"):
            store.import_csv(_many_rows_csv(), "big.csv")
    finally:
        event.remove(engine, "connect", cap)
    assert Store(db).count_runs() == 0


def _many_rows_csv() -> str:
    from engine.results.csvio import rows_to_csv

    return rows_to_csv([full_row(f"20260101-000000-{i:06x}", notes="x" * 2000) for i in range(200)])


def test_a_page_shows_a_store_fault_as_one_message(tmp_path, monkeypatch):
    from conftest import ROOT

    db = tmp_path / "results.db"
    db.write_bytes(b"garbage" * 1000)
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception, at.exception
    assert any("damaged" in e.value for e in at.error), [e.value for e in at.error]


def test_export_into_a_missing_folder_creates_it(db, capsys, tmp_path):
    Store(db).insert_run(full_row("r1"))
    out = tmp_path / "new" / "deeper" / "x.csv"
    code, _, _ = _cli(capsys, "results", "export", "--out", str(out))
    assert code == 0 and out.read_text().startswith("schema_version")
    (tmp_path / "plainfile").write_text("x")
    code, _, err = _cli(capsys, "results", "export", "--out", str(tmp_path / "plainfile" / "x.csv"))
    assert code == 2
    _one_line_error(err, "--out: cannot write")


def test_results_list_into_a_closed_pipe_is_quiet(db, monkeypatch, capsys):
    Store(db).insert_run(full_row("r1"))

    class ClosedPipe(io.StringIO):
        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sys.stdout", ClosedPipe())
    assert main(["results", "list"]) == 0


def test_hints_name_the_command_once(capsys):
    code, _, err = _cli(capsys, "results", "list", "--limit", "many")
    assert code == 2 and "engine engine" not in err and "(see: python -m engine results list --help)" in err
    code, _, err = _cli(capsys, "results", "list", "--bogus")
    assert code == 2 and "engine engine" not in err and "(see: python -m engine --help)" in err
    code, _, err = _cli(capsys, "bogus")
    assert code == 2 and "engine engine" not in err


@pytest.mark.parametrize("run_id", ["", "   ", "%", "_", "2026%", "____"])
def test_an_empty_or_wildcard_run_id_matches_nothing(db, capsys, run_id):
    store = Store(db)
    store.insert_run(full_row("20260101-000000-aaaaaa"))
    store.insert_run(full_row("20260101-000000-bbbbbb"))
    code, out, err = _cli(capsys, "results", "show", run_id)
    assert code == 2 and not out
    assert store.find_run_ids(run_id) == [] or run_id.strip() == ""
    assert store.find_run_ids("20260101-000000-a") == ["20260101-000000-aaaaaa"]
