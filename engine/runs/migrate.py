"""Schema versions of the results store: which revision a database is at, and upgrading it in place.

Revisions are Alembic migrations in engine/runs/migrations/versions. A database made before
migrations existed (no `alembic_version` table) is taken from the idempotent baseline, which keeps
every row. Alembic is imported only when an upgrade is due, so opening an up-to-date store stays cheap.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

# The newest revision this code knows, and every one it knows (oldest first). A test checks these
# against the migration scripts, so a new migration must be added here too.
HEAD_REVISION = "0009"
KNOWN_REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009")
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# Concurrent upgraders of one PostgreSQL database queue on this advisory lock (SQLite: BEGIN IMMEDIATE).
_UPGRADE_LOCK_KEY = 0x0ACCE1BE


def current_revision(conn: Connection) -> str | None:
    """The database's revision; None for an empty database or one made before migrations."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def is_newer_than_code(revision: str | None) -> bool:
    return revision is not None and revision not in KNOWN_REVISIONS


def upgrade(engine: Engine, to: str = "head") -> tuple[str | None, str]:
    """Bring the database to `to` (default: the newest revision) in one transaction; returns
    (revision before, revision after). A failure rolls everything back."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.execution_options(immediate=True).begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _UPGRADE_LOCK_KEY})
        before = current_revision(conn)
        config.attributes["connection"] = conn
        command.upgrade(config, to)
        after = current_revision(conn)
    return before, after or ""


def script_revisions() -> list[str]:
    """Every revision in the migration scripts, oldest first (for the test that keeps the constants honest)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    scripts = ScriptDirectory.from_config(config)
    return [s.revision for s in reversed(list(scripts.walk_revisions()))]
