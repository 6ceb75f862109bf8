"""The results store: one row per run (engine.results.schema), plus job handles, per-step/per-epoch
series and live progress — in a SQLite file (default) or a team's PostgreSQL database, through one
SQLAlchemy Core code path (engine.runs.tables; opening and transactions in engine.runs.store_base).

Every write is one short transaction (SQLite: `BEGIN IMMEDIATE` with a generous busy timeout), so
several workers and dashboards can write at once without losing anything. Final writes are guarded
by status, imports are all-or-nothing, and copying a run that is already there adds nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, text, update

from engine.results.schema import COLUMN_NAMES, ResultRow
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs.sql_engine import StoreError, explain_store_error
from engine.runs.store_base import StoreBase
from engine.runs.tables import jobs, progress, runs, series
from engine.runs.timeutil import utc_now

__all__ = ["Store", "StoreError", "explain_store_error", "utc_now", "wait_for"]

# Of several launches at one instant in demo mode, one gets through: PostgreSQL serialises the
# check-and-insert on this advisory lock (SQLite's BEGIN IMMEDIATE already does).
_ONE_AT_A_TIME_LOCK_KEY = 0x0ACCE1B1


class Store(StoreBase):
    """A results database: `target` (a SQLite path or a PostgreSQL URL), else `ACCELBENCH_DB`, else
    data/accelbench.db — with every operation on runs, jobs, series and progress.

    A database this process cannot write (a read-only file, a read-only role, a team store seen in demo
    mode) is opened read-only (`read_only`): reading, listing and exporting work; a write raises
    StoreError saying so. An older schema is upgraded in place on open; a newer one is refused.
    """

    def insert_run(self, row: ResultRow) -> str:
        full = self._new(row)
        values = self._values(full)
        with self._write() as conn:
            conn.execute(insert(runs).values(values))
        return full["run_id"]

    def insert_run_unless_active(self, row: ResultRow) -> ResultRow | None:
        """Insert a run only while no run is queued or running — the check and the insert are one
        serialised transaction, so of several launches at the same instant exactly one gets through.

        Returns None when inserted, else the active run that is in the way (nothing is written).
        """
        values = self._values(self._new(row))
        with self._write() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _ONE_AT_A_TIME_LOCK_KEY})
            busy = conn.execute(select(runs).where(runs.c.status.in_(ACTIVE_STATUSES)).limit(1)).first()
            if busy is not None:
                return self._from_sql(busy)
            conn.execute(insert(runs).values(values))
        return None

    def update_run(self, run_id: str, fields: Mapping[str, Any], only_if_status: Iterable[str] | None = None) -> bool:
        """Update columns of a run; with `only_if_status`, only while its status is one of those.

        Returns whether the row changed — the guard is what stops a late worker from overwriting
        a `cancelled` or `timeout` that was recorded first.
        """
        if not fields:
            return False
        with self._write() as conn:
            return self._guarded_update(conn, run_id, fields, only_if_status)

    def _guarded_update(
        self, conn: Connection, run_id: str, fields: Mapping[str, Any], only_if_status: Iterable[str] | None
    ) -> bool:
        stmt = update(runs).where(runs.c.run_id == run_id).values(self._values(fields))
        if only_if_status is not None:
            stmt = stmt.where(runs.c.status.in_(list(only_if_status)))
        return conn.execute(stmt).rowcount > 0

    def get_run(self, run_id: str) -> ResultRow | None:
        with self._conn() as conn:
            row = conn.execute(select(runs).where(runs.c.run_id == run_id)).first()
        return self._from_sql(row) if row else None

    def find_run_ids(self, prefix: str) -> list[str]:
        """Run ids that start with `prefix` — literally: `%` and `_` are not wildcards; "" matches none."""
        if not prefix:
            return []
        with self._conn() as conn:
            stmt = select(runs.c.run_id).where(runs.c.run_id.startswith(prefix, autoescape=True))
            return list(conn.execute(stmt).scalars())

    def list_runs(
        self,
        statuses: Iterable[str] | None = None,
        limit: int | None = None,
        label: str | None = None,
        sweep_id: str | None = None,
    ) -> list[ResultRow]:
        """Runs, newest first (optionally only those with these statuses / this label / of this sweep)."""
        stmt = select(runs).order_by(runs.c.created_at.desc(), runs.c.run_id.desc())
        if statuses is not None:
            stmt = stmt.where(runs.c.status.in_(list(statuses)))
        if label is not None:
            stmt = stmt.where(runs.c.label == label)
        if sweep_id is not None:
            stmt = stmt.where(runs.c.sweep_id == sweep_id)
        if limit:
            stmt = stmt.limit(int(limit))
        with self._conn() as conn:
            return [self._from_sql(r) for r in conn.execute(stmt)]

    def run_ids(self) -> set[str]:
        with self._conn() as conn:
            return set(conn.execute(select(runs.c.run_id)).scalars())

    def count_runs(self) -> int:
        with self._conn() as conn:
            return int(conn.execute(select(func.count()).select_from(runs)).scalar() or 0)

    # --- jobs -----------------------------------------------------------------------------
    def set_job(
        self, run_id: str, pid: int, pid_started: float, deadline: float, run_dir: str, spec: dict, machine: str = ""
    ) -> None:
        values = {
            "run_id": run_id,
            "pid": pid,
            "pid_started": pid_started,
            "deadline": deadline,
            "run_dir": run_dir,
            "spec": json.dumps(spec),
            "machine": machine,
        }
        with self._write() as conn:
            conn.execute(delete(jobs).where(jobs.c.run_id == run_id))
            conn.execute(insert(jobs).values(values))

    def get_job(self, run_id: str) -> dict[str, Any] | None:
        with self._conn() as conn:
            row = conn.execute(select(jobs).where(jobs.c.run_id == run_id)).first()
        if not row:
            return None
        job = dict(row._mapping)
        job["spec"] = json.loads(job["spec"])
        return job

    def active_jobs(self) -> list[dict[str, Any]]:
        """Job handles of runs still marked queued/running."""
        stmt = (
            select(jobs, runs.c.status)
            .join(runs, runs.c.run_id == jobs.c.run_id)
            .where(runs.c.status.in_(ACTIVE_STATUSES))
        )
        with self._conn() as conn:
            rows = conn.execute(stmt).all()
        return [{**dict(r._mapping), "spec": json.loads(r.spec)} for r in rows]

    # --- series and live progress ---------------------------------------------------------
    @staticmethod
    def _series_rows(run_id: str, kind: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"run_id": run_id, "kind": kind, "idx": i, "payload": json.dumps(r)} for i, r in enumerate(rows)]

    def add_series(self, run_id: str, kind: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            with self._write() as conn:
                conn.execute(insert(series), self._series_rows(run_id, kind, rows))

    def finish_run(
        self,
        run_id: str,
        fields: Mapping[str, Any],
        run_series: Mapping[str, list[dict[str, Any]]],
        only_if_status: Iterable[str],
    ) -> bool:
        """A run's final columns and its timing series in ONE transaction: both are written, or (when its
        status is no longer one of `only_if_status`, e.g. already `timeout`) neither. Returns whether written."""
        with self._write() as conn:
            if not self._guarded_update(conn, run_id, fields, only_if_status):
                return False
            for kind, rows in run_series.items():
                if rows:
                    conn.execute(insert(series), self._series_rows(run_id, kind, rows))
        return True

    def get_series(self, run_id: str, kind: str) -> list[dict[str, Any]]:
        stmt = select(series.c.payload).where(series.c.run_id == run_id, series.c.kind == kind).order_by(series.c.idx)
        with self._conn() as conn:
            return [json.loads(p) for p in conn.execute(stmt).scalars()]

    def all_series(self, run_id: str) -> dict[str, list[dict[str, Any]]]:
        stmt = (
            select(series.c.kind, series.c.payload)
            .where(series.c.run_id == run_id)
            .order_by(series.c.kind, series.c.idx)
        )
        out: dict[str, list[dict[str, Any]]] = {}
        with self._conn() as conn:
            for kind, payload in conn.execute(stmt):
                out.setdefault(kind, []).append(json.loads(payload))
        return out

    def add_progress(self, run_id: str, first_seq: int, events: list[dict[str, Any]]) -> None:
        """Append a running worker's progress events (numbered from `first_seq`)."""
        rows = [{"run_id": run_id, "seq": first_seq + i, "payload": json.dumps(e)} for i, e in enumerate(events)]
        if rows:
            with self._write() as conn:
                conn.execute(insert(progress), rows)

    def get_progress(self, run_id: str) -> list[dict[str, Any]]:
        stmt = select(progress.c.payload).where(progress.c.run_id == run_id).order_by(progress.c.seq)
        with self._conn() as conn:
            return [json.loads(p) for p in conn.execute(stmt).scalars()]

    # --- copies between stores, CSV -------------------------------------------------------
    def copy_in(self, rows: list[ResultRow], run_series: Mapping[str, dict[str, list[dict[str, Any]]]]) -> int:
        """Add runs (with their series) that are not here yet, in one transaction; a run already present
        is left exactly as it is, so copying twice adds nothing. Returns how many were added."""
        values = [dict.fromkeys(COLUMN_NAMES) | self._values(r) for r in rows]  # one key set: one executemany
        with self._write() as conn:
            ids = [v["run_id"] for v in values]
            present_stmt = select(runs.c.run_id)
            if len(ids) <= 500:  # else read every id: a long IN list would pass SQLite's variable limit
                present_stmt = present_stmt.where(runs.c.run_id.in_(ids))
            present = set(conn.execute(present_stmt).scalars()) if ids else set()
            new = [v for v in values if v["run_id"] not in present]
            if new:
                conn.execute(insert(runs), new)
            for run_id in (str(v["run_id"]) for v in new):
                for kind, records in run_series.get(run_id, {}).items():
                    if records:
                        conn.execute(insert(series), self._series_rows(run_id, kind, records))
        return len(new)

    def export_csv(self, run_ids: Iterable[str] | None = None) -> str:
        rows = self.list_runs()
        if run_ids is not None:
            wanted = set(run_ids)
            rows = [r for r in rows if r["run_id"] in wanted]
        from engine.results.csvio import rows_to_csv  # pandas: only the CSV paths pay for importing it

        return rows_to_csv(reversed(rows))  # oldest first reads naturally in a spreadsheet

    def import_csv(self, data: bytes | str, file_name: str) -> tuple[int, int]:
        """Import a results CSV all-or-nothing (see import_rows). Raises engine.results.errors.CsvError (naming
        the first bad row and column) before writing anything."""
        from engine.results.csvio import read_rows  # pandas: only the CSV paths pay for importing it

        return self.import_rows(read_rows(data), {}, file_name)

    def import_rows(
        self, rows: list[ResultRow], run_series: Mapping[str, dict[str, list[dict[str, Any]]]], file_name: str
    ) -> tuple[int, int]:
        """Checked rows of an export (and their series, by run_id) added in one transaction; a run already
        stored is skipped with its series, so importing a file twice is harmless. Returns (added, already_present)."""
        for row in rows:
            if not row.get("source") or row["source"] == "local":
                row["source"] = f"import:{Path(file_name).name}"
            if row["status"] in ACTIVE_STATUSES:
                # a run that was live elsewhere is not live here; never show it as running forever
                row["status"] = RunStatus.INTERRUPTED
                row["error"] = row.get("error") or "imported while still running"
        added = self.copy_in(rows, run_series)
        return added, len(rows) - added

    def series_by_run(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """Every stored series in one query: run_id → kind → records in order (for an export with series)."""
        c = series.c
        stmt = select(c.run_id, c.kind, c.payload).order_by(c.run_id, c.kind, c.idx)
        out: dict[str, dict[str, list[dict[str, Any]]]] = {}
        with self._conn() as conn:
            for run_id, kind, payload in conn.execute(stmt):
                out.setdefault(run_id, {}).setdefault(kind, []).append(json.loads(payload))
        return out

    # --- many runs at once ----------------------------------------------------------------
    def run_tuples(self, limit: int | None = None) -> list[tuple[Any, ...]]:
        """The newest runs (all, or the newest `limit`) as plain tuples in COLUMN_NAMES order, booleans
        as 0/1: no dict per row, for one table of many runs (History on a 100,000-run store)."""
        stmt = select(*(runs.c[n] for n in COLUMN_NAMES)).order_by(runs.c.created_at.desc(), runs.c.run_id.desc())
        if limit:
            stmt = stmt.limit(int(limit))
        with self._conn() as conn:
            return [tuple(r) for r in conn.execute(stmt)]


def wait_for(predicate, timeout_s: float, interval_s: float = 0.05) -> bool:
    """Poll `predicate` until it is true or the time is up (used by jobs and tests)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval_s)
    return bool(predicate())
