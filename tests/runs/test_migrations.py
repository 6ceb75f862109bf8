"""Schema migrations (issue 14): every revision known to the code, an empty database and one written by
the code before migrations both arrive at the current schema with every row intact, on SQLite and on
PostgreSQL; a database newer than the code is refused in one line."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from conftest import ROOT, run_cli
from sqlalchemy import inspect, text

from engine.results.schema import COLUMN_NAMES
from engine.runs import migrate
from engine.runs.sql_engine import engine_for, resolve_target
from engine.runs.store import Store, StoreError
from engine.runs.tables import metadata

BEFORE = ROOT / "tests" / "runs" / "data" / "accelbench_before_migrations.db"


def test_the_code_knows_every_migration_script():
    assert migrate.script_revisions() == list(migrate.KNOWN_REVISIONS)
    assert migrate.KNOWN_REVISIONS[-1] == migrate.HEAD_REVISION


def test_an_empty_database_ends_with_exactly_the_tables_the_code_uses(new_db):
    store = Store(new_db())
    engine = engine_for(store.target, False)
    found = inspect(engine)
    for table in metadata.tables.values():
        assert [c["name"] for c in found.get_columns(table.name)] != []
        assert {c["name"] for c in found.get_columns(table.name)} == {c.name for c in table.columns}, table.name
    assert {c["name"] for c in found.get_columns("runs")} == set(COLUMN_NAMES)
    assert {"runs_created", "runs_status"} <= {i["name"] for i in found.get_indexes("runs")}
    with engine.connect() as conn:
        assert migrate.current_revision(conn) == migrate.HEAD_REVISION


def _raw_rows(path) -> tuple[list[dict], list[tuple]]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    runs = [dict(r) for r in conn.execute("SELECT * FROM runs ORDER BY run_id")]
    series = [tuple(r) for r in conn.execute("SELECT * FROM series ORDER BY run_id, kind, idx")]
    conn.close()
    return runs, series


def test_a_database_from_before_migrations_upgrades_in_place_with_every_row(tmp_path):
    copy = tmp_path / "accelbench.db"
    shutil.copy(BEFORE, copy)
    runs_before, series_before = _raw_rows(copy)
    assert len(runs_before) == 4 and series_before

    done = run_cli("db", "upgrade", "--db", str(copy), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "database": str(copy),
        "before": None,
        "after": migrate.HEAD_REVISION,
        "head": migrate.HEAD_REVISION,
    }
    runs_after, series_after = _raw_rows(copy)
    assert series_after == series_before
    # columns of later migrations: empty on the old rows
    added = ("label", "sweep_id", "node", "model_source", "model_hash", "flops_source", "tokens_per_sec")
    added += ("matches_eager_fp32", "model_kind", "processes", "launcher", "collective_backend")
    added += ("examples_per_sec_per_device", "rank_step_ms_median", "slowest_rank")
    added += ("input_examples_per_sec", "step_examples_per_sec", "input_wait_pct", "bound")
    added += ("input_workers", "prefetch", "cache", "input_cores")
    assert [{k: v for k, v in r.items() if k not in added} for r in runs_after] == runs_before
    assert all(r[name] is None for r in runs_after for name in added)
    store = Store(copy)
    assert store.get_job("20261123-09009-failed")["spec"] == {"kind": "matmul"}
    assert store.get_series("20261123-09000-before0", "step")[0] == {"step": 0, "ms": 600}
    again = run_cli("db", "upgrade", "--db", str(copy))
    assert again.returncode == 0 and "already at schema" in again.stdout


def test_an_older_database_missing_later_columns_is_opened_and_upgraded(tmp_path):
    old = tmp_path / "old.db"
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE runs (schema_version INTEGER, run_id TEXT PRIMARY KEY, created_at TEXT, status TEXT)")
    conn.execute("INSERT INTO runs VALUES (1, 'r-old', '2025-01-01T00:00:00Z', 'ok')")
    conn.commit()
    conn.close()
    store = Store(old)  # opening upgrades it: the dashboard and CLI need no extra step for one person
    assert store.get_run("r-old")["status"] == "ok"
    assert store.get_run("r-old")["backend"] is None


def test_upgrading_from_the_previous_revision_keeps_rows(new_db):
    """The same path a team database takes: at revision 0001 with rows, then `db upgrade`."""
    url = new_db()
    target = resolve_target(url)
    migrate.upgrade(engine_for(target, False), "0001")
    with engine_for(target, False).begin() as conn:
        conn.execute(
            text("INSERT INTO runs (run_id, status, kind, examples_per_sec) VALUES ('p1', 'ok', 'train', 12.5)")
        )
        conn.execute(text("INSERT INTO series VALUES ('p1', 'epoch', 0, '{\"loss\": 1.5}')"))
    done = run_cli("db", "upgrade", "--db", url)
    assert done.returncode == 0, done.stderr
    assert "schema 0001 → " + migrate.HEAD_REVISION in done.stdout
    assert "pw-" not in done.stdout + done.stderr  # the password is never printed
    store = Store(url)
    assert store.get_run("p1")["examples_per_sec"] == 12.5
    assert store.get_series("p1", "epoch") == [{"loss": 1.5}]


def test_a_database_newer_than_the_code_is_refused_in_one_line(new_db):
    url = new_db()
    store = Store(url)
    with engine_for(store.target, False).begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(StoreError, match="upgraded by a newer AccelBench .*9999.* update AccelBench"):
        Store(url)
    done = run_cli("results", "list", env={"ACCELBENCH_DB": url})
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "newer AccelBench" in done.stderr and "Traceback" not in done.stderr
