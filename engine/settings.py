"""Where things live and what demo mode allows; read from the environment, no Streamlit here."""

from __future__ import annotations

import os
import re
from pathlib import Path

from engine import paths

ROOT = paths.CODE_ROOT  # where `engine` is imported from: workers start here (a checkout or site-packages)
DATA_DIR = paths.data_dir()  # data/ in a checkout, ~/.accelbench for an installed wheel (engine.paths)
REFERENCE_DIR = paths.reference_dir()


DB_URL_SCHEMES = ("postgresql://", "postgresql+psycopg://", "postgres://")


def db_setting() -> str:
    """`ACCELBENCH_DB` as given: a SQLite file path or a PostgreSQL URL; "" when unset."""
    return os.environ.get("ACCELBENCH_DB", "").strip()


def is_db_url(value: str | Path | None) -> bool:
    """Whether a database setting names a PostgreSQL server rather than a SQLite file."""
    return isinstance(value, str) and value.strip().lower().startswith(DB_URL_SCHEMES)


# A scheme: a letter, then letters/digits/+.- and a colon. Two letters at least, so a Windows drive
# ("C:\\runs.db") still reads as a path.
_URL_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def looks_like_url(value: str | Path | None) -> bool:
    """Whether a database setting reads as a URL of some kind (`postgres:/x`, `mysql://…`, `sqlite:///…`):
    such a setting is never taken for a file name, so a typo cannot make a folder named `postgres:`."""
    return isinstance(value, str) and bool(_URL_LIKE.match(value.strip()))


def db_path() -> Path:
    """The SQLite results database: `ACCELBENCH_DB` when it is a path, else data/accelbench.db."""
    value = db_setting()
    if is_db_url(value) or looks_like_url(value):  # never a folder named "postgres:" (the Store refuses it)
        value = ""
    return Path(value or DATA_DIR / "accelbench.db").expanduser().resolve()


def runs_dir(db: Path | None = None) -> Path:
    """Per-run folders: beside a SQLite database (so a test's temporary DB gets its own runs); with a
    team database (a URL), `ACCELBENCH_RUNS_DIR`, else data/runs on this machine."""
    if db is not None:
        return db.parent / "runs"
    if is_db_url(db_setting()):
        return Path(os.environ.get("ACCELBENCH_RUNS_DIR") or DATA_DIR / "runs").expanduser().resolve()
    return db_path().parent / "runs"


def demo_mode() -> bool:
    """`ACCELBENCH_DEMO=1` turns on the public-demo caps (pages may also pass Streamlit secrets)."""
    return os.environ.get("ACCELBENCH_DEMO", "").strip().lower() in ("1", "true", "yes", "on")
