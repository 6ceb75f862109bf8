"""The SQLite side of the results store: opening a connection (read-only for a file this process
cannot write), creating the tables, and the one error every database fault becomes, put into words
in one place (`explain_store_error`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.request import pathname2url

from engine.results.schema import COLUMN_TYPES, SCHEMA_VERSION

_SQL_TYPES = {str: "TEXT", int: "INTEGER", float: "REAL", bool: "INTEGER"}


class StoreError(RuntimeError):
    """A fault of the results database, as one line: what is wrong and what to do.

    Every sqlite3/OS error of a Store becomes one of these (in `Store._conn`), so the CLI maps it to
    one line and exit 2 (engine.cli.main) and the dashboard to one message (app.py) — never a traceback.
    """


def explain_store_error(path: Path, exc: BaseException) -> StoreError:
    """The one place a database fault is put into words."""
    text = str(exc).lower()
    where = f"the results database {path}"
    if "not a database" in text or "malformed" in text:
        message = (
            f"{where} is damaged (corrupt or truncated) — move it aside (e.g. rename it to {path.name}.broken) "
            "and AccelBench starts an empty one, or point ACCELBENCH_DB at another file"
        )
    elif "readonly" in text or "read-only" in text:
        message = (
            f"{where} is read-only — listing and export still work; to run or import, make the file and its "
            "folder writable or point ACCELBENCH_DB at a writable file"
        )
    elif "disk is full" in text or "no space" in text or getattr(exc, "errno", None) == 28:
        message = f"the disk holding {where} is full — nothing was written; free some space and try again"
    elif "locked" in text or "busy" in text:
        message = f"{where} stayed locked by another process for over a minute — try again once it is done"
    elif path.is_dir():
        message = (
            f"{path} is a folder, not a database file — point ACCELBENCH_DB at a file such as {path / 'accelbench.db'}"
        )
    elif any(p.exists() and not p.is_dir() for p in path.parents):
        parent = next(p for p in path.parents if p.exists() and not p.is_dir())
        message = f"cannot use {path}: {parent} is a file, not a folder — point ACCELBENCH_DB at a path inside a folder"
    else:
        reason = getattr(exc, "strerror", None) or str(exc)
        message = f"cannot open {where} ({reason}) — check that its folder exists and is writable"
    return StoreError(message)


@contextmanager
def connect(path: Path, read_only: bool) -> Iterator[sqlite3.Connection]:
    """A connection in autocommit mode with a one-minute busy timeout; any sqlite3/OS error inside the
    block comes out as a StoreError."""
    target = f"file:{pathname2url(str(path.resolve()))}?mode=ro" if read_only else str(path)
    try:
        conn = sqlite3.connect(target, timeout=60, isolation_level=None, uri=read_only)
    except (sqlite3.Error, OSError) as exc:
        raise explain_store_error(path, exc) from None
    try:
        conn.execute("PRAGMA busy_timeout=60000")
        yield conn
    except (sqlite3.Error, OSError) as exc:
        raise explain_store_error(path, exc) from None
    finally:
        conn.close()


def create_tables(conn: sqlite3.Connection) -> None:
    """WAL mode, and the runs, jobs and series tables with their indexes (idempotent)."""
    conn.execute("PRAGMA journal_mode=WAL")
    cols = ", ".join(
        f"{name} {_SQL_TYPES[typ]}" + (" PRIMARY KEY" if name == "run_id" else "") for name, typ in COLUMN_TYPES.items()
    )
    conn.execute(f"CREATE TABLE IF NOT EXISTS runs ({cols})")
    add_missing_columns(conn)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS jobs (run_id TEXT PRIMARY KEY, pid INTEGER, pid_started REAL,"
        " deadline REAL, run_dir TEXT, spec TEXT)"
    )
    conn.execute("CREATE TABLE IF NOT EXISTS series (run_id TEXT, kind TEXT, idx INTEGER, payload TEXT)")
    conn.execute("CREATE INDEX IF NOT EXISTS series_run ON series (run_id, kind, idx)")
    conn.execute("CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at)")
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def add_missing_columns(conn: sqlite3.Connection) -> None:
    """A database made before a column existed gains it (NULL in old rows), so old DBs stay readable."""
    have = {r[1] for r in conn.execute("PRAGMA table_info(runs)")}
    for name, typ in COLUMN_TYPES.items():
        if name not in have:
            conn.execute(f"ALTER TABLE runs ADD COLUMN {name} {_SQL_TYPES[typ]}")
