"""Opening the results store: which database, read-only or not, its schema revision checked (and an
older one upgraded in place), and the two ways in — a read connection and one write transaction —
through which every driver/OS error becomes one StoreError. The operations are in engine.runs.store."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Connection, text
from sqlalchemy.exc import SQLAlchemyError

from engine import settings
from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES, SCHEMA_VERSION, ResultRow
from engine.runs import migrate
from engine.runs.sql_engine import DbTarget, StoreError, engine_for, explain_store_error, resolve_target
from engine.runs.timeutil import utc_now


class StoreBase:
    """Opening a results database and the two ways into it (engine.runs.store.Store says what a store is)."""

    def __init__(self, target: str | Path | None = None):
        self.target: DbTarget = resolve_target(target)
        self.path: Path | None = self.target.path
        self.read_only = self._starts_read_only()
        try:
            self._open()
        except (SQLAlchemyError, OSError) as exc:
            raise explain_store_error(self.target, exc) from None

    def _starts_read_only(self) -> bool:
        if self.path is None:
            return settings.demo_mode()  # a public demo never writes to a team's database
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise explain_store_error(self.target, exc) from None
        if self.path.is_dir():
            raise explain_store_error(self.target, IsADirectoryError(str(self.path)))
        return self.path.is_file() and not os.access(self.path, os.W_OK)

    def _open(self) -> None:
        with engine_for(self.target, self.read_only).connect() as conn:
            revision = migrate.current_revision(conn)  # a damaged file is refused here, not at the first query
            if self.path is None and not self.read_only and revision is not None:
                self.read_only = not conn.execute(text("SELECT has_table_privilege('runs', 'INSERT')")).scalar()
        if migrate.is_newer_than_code(revision):
            raise StoreError(
                f"the results database {self.target.display} was upgraded by a newer AccelBench (schema revision "
                f"{revision}; this copy knows up to {migrate.HEAD_REVISION}) — update AccelBench (git pull, then "
                "pip install -r requirements.txt), or point ACCELBENCH_DB at another database"
            )
        if revision == migrate.HEAD_REVISION:
            return
        if self.read_only:
            raise StoreError(
                f"the results database {self.target.display} has an older schema (revision {revision or 'none'}) "
                "and this user cannot upgrade it — run `python -m engine db upgrade` as a user who can write"
            )
        migrate.upgrade(engine_for(self.target, False))

    @property
    def runs_dir(self) -> Path:
        """Where this machine keeps run folders for runs it launches into this store."""
        return settings.runs_dir(self.path)

    @property
    def worker_setting(self) -> str:
        """ACCELBENCH_DB for a worker writing to this store (an environment variable, never a file)."""
        return str(self.path) if self.path is not None else self.target.url.render_as_string(hide_password=False)

    @contextmanager
    def _conn(self) -> Iterator[Connection]:
        """A connection for reading; any driver/OS error inside comes out as a StoreError."""
        try:
            with engine_for(self.target, self.read_only).connect() as conn:
                yield conn
        except (SQLAlchemyError, OSError) as exc:
            raise explain_store_error(self.target, exc) from None

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """One write transaction: committed at the end of the block, rolled back on any error."""
        if self.read_only:
            reason = "attempt to write a readonly database" if self.path is not None else "read-only transaction"
            raise explain_store_error(self.target, RuntimeError(reason))
        try:
            with engine_for(self.target, False).execution_options(immediate=True).begin() as conn:
                yield conn
        except (SQLAlchemyError, OSError) as exc:
            raise explain_store_error(self.target, exc) from None

    # --- runs -----------------------------------------------------------------------------
    @staticmethod
    def _to_sql(name: str, value: Any) -> Any:
        if value is None:
            return None
        typ = COLUMN_TYPES[name]
        return int(bool(value)) if typ is bool else typ(value)

    @staticmethod
    def _from_sql(row: Any) -> ResultRow:
        out = dict(row._mapping)
        for name, typ in COLUMN_TYPES.items():
            if typ is bool and out.get(name) is not None:
                out[name] = bool(out[name])
        return cast(ResultRow, out)

    def _values(self, row: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(row) - set(COLUMN_NAMES)
        if unknown:
            raise KeyError(f"not result columns: {sorted(unknown)}")
        return {n: self._to_sql(n, row[n]) for n in COLUMN_NAMES if n in row}

    @staticmethod
    def _new(row: ResultRow) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "created_at": utc_now(), "source": "local", **row}
