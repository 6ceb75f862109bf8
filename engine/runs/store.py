"""The results store: SQLite in WAL mode, one row per run (engine.results.schema), plus job handles and
per-step/per-epoch series.

Every write is one short `BEGIN IMMEDIATE` transaction with a generous busy timeout, so several
workers and the dashboard can write at once without losing anything.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from engine import settings
from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES, SCHEMA_VERSION, ResultRow
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs.sqlite_db import StoreError, connect, create_tables, explain_store_error

__all__ = ["Store", "StoreError", "explain_store_error", "utc_now", "wait_for"]


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Store:
    """A results database at `path` (default: settings.db_path()).

    A database file this process cannot write is opened read-only (`read_only`): reading, listing and
    exporting work; a write raises StoreError saying so.
    """

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else settings.db_path()
        self.read_only = self.path.is_file() and not os.access(self.path, os.W_OK)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise explain_store_error(self.path, exc) from None
        if self.path.is_dir():
            raise explain_store_error(self.path, IsADirectoryError(str(self.path)))
        if not self.read_only:
            try:
                self._setup()
            except StoreError as exc:
                if "read-only" not in str(exc):
                    raise
                self.read_only = True
        with self._conn() as conn:  # a damaged file is refused here, not at the first query
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()

    def _setup(self) -> None:
        with self._conn() as conn:
            create_tables(conn)

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        with connect(self.path, self.read_only) as conn:
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise explain_store_error(self.path, sqlite3.OperationalError("attempt to write a readonly database"))
        with self._conn() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # --- runs -----------------------------------------------------------------------------
    @staticmethod
    def _to_sql(name: str, value: Any) -> Any:
        if value is None:
            return None
        typ = COLUMN_TYPES[name]
        return int(bool(value)) if typ is bool else typ(value)

    @staticmethod
    def _from_sql(row: sqlite3.Row) -> ResultRow:
        out = dict(row)
        for name, typ in COLUMN_TYPES.items():
            if typ is bool and out.get(name) is not None:
                out[name] = bool(out[name])
        return cast(ResultRow, out)

    def insert_run(self, row: ResultRow) -> str:
        full: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "created_at": utc_now(), "source": "local", **row}
        unknown = set(full) - set(COLUMN_NAMES)
        if unknown:
            raise KeyError(f"not result columns: {sorted(unknown)}")
        with self._write() as conn:
            self._insert(conn, full)
        return full["run_id"]

    def insert_run_unless_active(self, row: ResultRow) -> ResultRow | None:
        """Insert a run only while no run is queued or running — the check and the insert are one
        transaction, so of several launches at the same instant exactly one gets through.

        Returns None when inserted, else the active run that is in the way (nothing is written).
        """
        full: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "created_at": utc_now(), "source": "local", **row}
        with self._write() as conn:
            conn.row_factory = sqlite3.Row
            busy = conn.execute(
                f"SELECT * FROM runs WHERE status IN ({', '.join('?' * len(ACTIVE_STATUSES))}) LIMIT 1",
                ACTIVE_STATUSES,
            ).fetchone()
            if busy is not None:
                return self._from_sql(busy)
            self._insert(conn, full)
        return None

    def _insert(self, conn: sqlite3.Connection, row: Mapping[str, Any]) -> None:
        names = [n for n in COLUMN_NAMES if n in row]
        conn.execute(
            f"INSERT INTO runs ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
            [self._to_sql(n, row[n]) for n in names],
        )

    def update_run(self, run_id: str, fields: Mapping[str, Any], only_if_status: Iterable[str] | None = None) -> bool:
        """Update columns of a run; with `only_if_status`, only while its status is one of those.

        Returns whether the row changed — the guard is what stops a late worker from overwriting
        a `cancelled` or `timeout` that was recorded first.
        """
        if not fields:
            return False
        sets = ", ".join(f"{k} = ?" for k in fields)
        args = [self._to_sql(k, v) for k, v in fields.items()] + [run_id]
        sql = f"UPDATE runs SET {sets} WHERE run_id = ?"
        if only_if_status is not None:
            statuses = list(only_if_status)
            sql += f" AND status IN ({', '.join('?' * len(statuses))})"
            args += statuses
        with self._write() as conn:
            return conn.execute(sql, args).rowcount > 0

    def get_run(self, run_id: str) -> ResultRow | None:
        with self._conn() as conn:
            conn.row_factory = sqlite3.Row
            row = conn.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return self._from_sql(row) if row else None

    def find_run_ids(self, prefix: str) -> list[str]:
        """Run ids that start with `prefix` — literally: `%` and `_` are not wildcards; "" matches none."""
        if not prefix:
            return []
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._conn() as conn:
            return [r[0] for r in conn.execute("SELECT run_id FROM runs WHERE run_id LIKE ? ESCAPE '\\'", (pattern,))]

    def list_runs(self, statuses: Iterable[str] | None = None, limit: int | None = None) -> list[ResultRow]:
        """Runs, newest first."""
        sql, args = "SELECT * FROM runs", []
        if statuses is not None:
            st = list(statuses)
            sql += f" WHERE status IN ({', '.join('?' * len(st))})"
            args += st
        sql += " ORDER BY created_at DESC, run_id DESC"
        if limit:
            sql += f" LIMIT {int(limit)}"
        with self._conn() as conn:
            conn.row_factory = sqlite3.Row
            return [self._from_sql(r) for r in conn.execute(sql, args)]

    def count_runs(self) -> int:
        with self._conn() as conn:
            return conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]

    # --- jobs -----------------------------------------------------------------------------
    def set_job(self, run_id: str, pid: int, pid_started: float, deadline: float, run_dir: str, spec: dict) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?, ?, ?)",
                (run_id, pid, pid_started, deadline, run_dir, json.dumps(spec)),
            )

    def get_job(self, run_id: str) -> dict[str, Any] | None:
        with self._conn() as conn:
            conn.row_factory = sqlite3.Row
            row = conn.execute("SELECT * FROM jobs WHERE run_id = ?", (run_id,)).fetchone()
        if not row:
            return None
        job = dict(row)
        job["spec"] = json.loads(job["spec"])
        return job

    def active_jobs(self) -> list[dict[str, Any]]:
        """Job handles of runs still marked queued/running."""
        with self._conn() as conn:
            conn.row_factory = sqlite3.Row
            rows = conn.execute(
                "SELECT jobs.*, runs.status FROM jobs JOIN runs USING (run_id)"
                f" WHERE runs.status IN ({', '.join('?' * len(ACTIVE_STATUSES))})",
                ACTIVE_STATUSES,
            ).fetchall()
        return [{**dict(r), "spec": json.loads(r["spec"])} for r in rows]

    # --- series ---------------------------------------------------------------------------
    def add_series(self, run_id: str, kind: str, rows: list[dict[str, Any]]) -> None:
        with self._write() as conn:
            conn.executemany(
                "INSERT INTO series VALUES (?, ?, ?, ?)",
                [(run_id, kind, i, json.dumps(r)) for i, r in enumerate(rows)],
            )

    def finish_run(
        self,
        run_id: str,
        fields: Mapping[str, Any],
        series: Mapping[str, list[dict[str, Any]]],
        only_if_status: Iterable[str],
    ) -> bool:
        """A run's final columns and its timing series in ONE transaction: both are written, or (when its
        status is no longer one of `only_if_status`, e.g. already `timeout`) neither. Returns whether written."""
        statuses = list(only_if_status)
        sets = ", ".join(f"{k} = ?" for k in fields)
        args = [self._to_sql(k, v) for k, v in fields.items()] + [run_id, *statuses]
        sql = f"UPDATE runs SET {sets} WHERE run_id = ? AND status IN ({', '.join('?' * len(statuses))})"
        with self._write() as conn:
            if conn.execute(sql, args).rowcount == 0:
                return False
            for kind, rows in series.items():
                conn.executemany(
                    "INSERT INTO series VALUES (?, ?, ?, ?)",
                    [(run_id, kind, i, json.dumps(r)) for i, r in enumerate(rows)],
                )
        return True

    def get_series(self, run_id: str, kind: str) -> list[dict[str, Any]]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT payload FROM series WHERE run_id = ? AND kind = ? ORDER BY idx", (run_id, kind)
            ).fetchall()
        return [json.loads(r[0]) for r in rows]

    # --- CSV ------------------------------------------------------------------------------
    def export_csv(self, run_ids: Iterable[str] | None = None) -> str:
        rows = self.list_runs()
        if run_ids is not None:
            wanted = set(run_ids)
            rows = [r for r in rows if r["run_id"] in wanted]
        from engine.results.csvio import rows_to_csv  # pandas: only the CSV paths pay for importing it

        return rows_to_csv(reversed(rows))  # oldest first reads naturally in a spreadsheet

    def import_csv(self, data: bytes | str, file_name: str) -> tuple[int, int]:
        """Import a results CSV all-or-nothing. Returns (added, already_present).

        Raises engine.results.errors.CsvError (naming the first bad row and column) before writing anything.
        Rows whose run_id is already stored are skipped, so importing the same file twice is harmless.
        """
        from engine.results.csvio import read_rows  # pandas: only the CSV paths pay for importing it

        rows = read_rows(data)
        added = skipped = 0
        with self._write() as conn:
            existing = {r[0] for r in conn.execute("SELECT run_id FROM runs")}
            for row in rows:
                if row["run_id"] in existing:
                    skipped += 1
                    continue
                if not row.get("source") or row["source"] == "local":
                    row["source"] = f"import:{Path(file_name).name}"
                if row["status"] in ACTIVE_STATUSES:
                    # a run that was live elsewhere is not live here; never show it as running forever
                    row["status"] = RunStatus.INTERRUPTED
                    row["error"] = row.get("error") or "imported while still running"
                self._insert(conn, row)
                added += 1
        return added, skipped


def wait_for(predicate, timeout_s: float, interval_s: float = 0.05) -> bool:
    """Poll `predicate` until it is true or the time is up (used by jobs and tests)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval_s)
    return bool(predicate())
