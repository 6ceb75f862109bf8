"""Where things live and what demo mode allows; read from the environment, no Streamlit here."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = ROOT / "data"
REFERENCE_DIR = DATA_DIR / "reference"


def db_path() -> Path:
    """The results database: `ACCELBENCH_DB`, else data/accelbench.db."""
    return Path(os.environ.get("ACCELBENCH_DB") or DATA_DIR / "accelbench.db").expanduser().resolve()


def runs_dir(db: Path | None = None) -> Path:
    """Per-run folders live beside the database, so a test's temporary DB gets its own runs."""
    return (db or db_path()).parent / "runs"


def demo_mode() -> bool:
    """`ACCELBENCH_DEMO=1` turns on the public-demo caps (pages may also pass Streamlit secrets)."""
    return os.environ.get("ACCELBENCH_DEMO", "").strip().lower() in ("1", "true", "yes", "on")
