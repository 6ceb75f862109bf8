"""Where the results database is and how to talk to it: a SQLite file (the default, one person) or a
PostgreSQL server (a team), both through one SQLAlchemy engine, and the one place a database fault is
put into words (`explain_store_error`).

The password of a team database comes from the URL, `PGPASSWORD` or `~/.pgpass` (libpq reads both)
and is never printed: every message names the database by `DbTarget.display`.
"""

from __future__ import annotations

import importlib.util
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.request import pathname2url

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import NullPool

from engine import settings
from engine.catalog.framework_support import extra_install_command

# SQLite waits this long for another writer's lock before giving up (workers and the dashboard share it).
BUSY_TIMEOUT_S = 60


class StoreError(RuntimeError):
    """A fault of the results database, as one line: what is wrong and what to do.

    Every driver/OS error of a Store becomes one of these, so the CLI maps it to one line and exit 2
    (engine.cli.main) and the dashboard to one message (app.py) — never a traceback.
    """


@dataclass(frozen=True)
class DbTarget:
    """A results database.

    Attributes:
      url: the SQLAlchemy URL (may hold a password: never print it, use `display`).
      path: the SQLite file, or None for a PostgreSQL server.
    """

    url: URL
    path: Path | None

    @property
    def is_sqlite(self) -> bool:
        return self.path is not None

    @property
    def display(self) -> str:
        """How messages name the database: the file, or the URL with its password hidden."""
        return str(self.path) if self.path is not None else self.url.render_as_string(hide_password=True)


def resolve_target(value: str | Path | None = None) -> DbTarget:
    """`value` (a path or URL), else `ACCELBENCH_DB`, else data/accelbench.db."""
    raw = value if value not in (None, "") else settings.db_setting()
    if settings.is_db_url(raw):
        text = str(raw).strip()
        scheme, rest = text.split("://", 1)
        try:
            url = make_url(f"postgresql+psycopg://{rest}")
        except Exception as exc:  # noqa: BLE001 — any parse failure is the user's URL, said in one line
            raise StoreError(
                f"ACCELBENCH_DB is not a usable PostgreSQL URL ({type(exc).__name__}) — write it as "
                f"postgresql://USER@HOST:5432/DATABASE (scheme given: {scheme})"
            ) from None
        return DbTarget(url=url, path=None)
    if settings.looks_like_url(raw):  # a mistyped URL must not become a SQLite file in a folder "postgres:"
        scheme = str(raw).strip().split(":", 1)[0]
        raise StoreError(
            f"ACCELBENCH_DB {scheme}:… is not a PostgreSQL URL nor a file path — write a team database as "
            "postgresql://USER@HOST:5432/DATABASE, or give a SQLite file path such as data/accelbench.db"
        )
    path = Path(raw).expanduser().resolve() if raw else settings.db_path()
    return DbTarget(url=make_url("sqlite://"), path=path)


_ENGINES: dict[tuple[DbTarget, bool], Engine] = {}


def engine_for(target: DbTarget, read_only: bool) -> Engine:
    """One engine per database and mode, shared by every Store of this process."""
    key = (target, read_only)
    if key not in _ENGINES:
        _ENGINES[key] = _make_engine(target, read_only)
    return _ENGINES[key]


def _make_engine(target: DbTarget, read_only: bool) -> Engine:
    if target.path is not None:
        return _sqlite_engine(target.path, read_only)
    if importlib.util.find_spec("psycopg") is None:  # an optional part: named with its install, not a traceback
        raise StoreError(
            f"{target.display} is a PostgreSQL store, whose driver (psycopg) is not installed here; "
            f"install it with: {extra_install_command('postgres')}"
        )
    engine = create_engine(
        target.url,
        pool_pre_ping=True,  # a team server restarts; a dead pooled connection is replaced, not raised
        pool_size=4,
        max_overflow=4,
        connect_args={"connect_timeout": 10, "application_name": "accelbench"},
    )
    if read_only:

        @event.listens_for(engine, "connect")
        def _read_only(dbapi_conn, _record) -> None:
            dbapi_conn.read_only = True  # psycopg: every transaction READ ONLY; the server refuses writes

    return engine


def _sqlite_engine(path: Path, read_only: bool) -> Engine:
    target = f"file:{pathname2url(str(path))}?mode=ro" if read_only else str(path)

    def connect() -> sqlite3.Connection:
        # isolation_level=None: the driver never opens transactions by itself; the "begin" hook below
        # does, so a write takes the lock at its start (BEGIN IMMEDIATE) and cannot deadlock later.
        return sqlite3.connect(
            target, timeout=BUSY_TIMEOUT_S, isolation_level=None, uri=read_only, check_same_thread=False
        )

    # NullPool: a connection per operation, as cheap as opening the file, and nothing shared across forks.
    engine = create_engine("sqlite://", creator=connect, poolclass=NullPool)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record) -> None:
        dbapi_conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_S * 1000}")
        if not read_only:  # WAL: readers never wait for a writer (a no-op once the file is in WAL mode)
            dbapi_conn.execute("PRAGMA journal_mode=WAL")

    @event.listens_for(engine, "begin")
    def _begin(conn) -> None:
        immediate = conn.get_execution_options().get("immediate", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def explain_store_error(target: DbTarget, exc: BaseException) -> StoreError:
    """The one place a database fault is put into words."""
    exc = getattr(exc, "orig", None) or exc  # SQLAlchemy wraps the driver's error
    if target.path is None:
        return _explain_server_error(target, exc)
    path = target.path
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


def _explain_server_error(target: DbTarget, exc: BaseException) -> StoreError:
    text = str(exc).lower()
    where = f"the team database {target.display}"
    if "password authentication failed" in text or "no password supplied" in text:
        message = (
            f"{where} refused the login — put the password in PGPASSWORD or ~/.pgpass (or the URL), "
            "and check the user name"
        )
    elif "does not exist" in text and "database" in text:
        message = f"{where} does not exist on that server — create it (createdb) or fix the name in ACCELBENCH_DB"
    elif "read-only transaction" in text or "permission denied" in text:
        message = (
            f"{where} is read-only for this user — listing and export still work; to run or import, "
            "connect as a user with write access"
        )
    elif "could not translate host name" in text or "name or service not known" in text:
        message = f"cannot find the host of {where} — check the host name in ACCELBENCH_DB"
    elif "connection refused" in text or "timeout" in text or "could not connect" in text or "no such file" in text:
        message = f"cannot reach {where} (is the server running and reachable?) — check ACCELBENCH_DB and the network"
    elif "could not extend" in text or "no space" in text or "disk full" in text:
        message = f"the disk of {where} is full — nothing was written; ask its administrator to free space"
    elif "deadlock" in text or "lock timeout" in text:
        message = f"{where} was busy with another writer — nothing was written; try again"
    else:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        message = f"{where} answered with an error ({first[:200]}) — check ACCELBENCH_DB and the server's log"
    return StoreError(message)


def dispose_engines() -> None:
    """Close every pooled connection of this process and forget the engines (tests that drop a
    database; a process that forks)."""
    for target, read_only in list(_ENGINES):
        _ENGINES.pop((target, read_only)).dispose()
