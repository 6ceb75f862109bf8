"""Where the engine finds its files, in a repository checkout and in an installed wheel: the one lookup.

A checkout keeps the reference data in data/reference/ and the results in data/ (beside app.py, so the
dashboard and the CLI share them). The wheel (`pip install accelbench`, issue 32) has no repository around
it: it carries the same reference CSVs inside the package (engine/_data/reference/, copied there by the
build step in setup.py) and keeps results in ~/.accelbench/, since site-packages is no place for a
database. Every module asks here instead of walking up from its own `__file__`, so the two layouts
cannot drift apart. No imports beyond the standard library: engine.settings reads this at import time.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
# The folder `engine` is imported from: the checkout's root, or site-packages. Workers start here.
CODE_ROOT = PACKAGE_DIR.parent
PACKAGED_REFERENCE_DIR = PACKAGE_DIR / "_data" / "reference"
CHECKOUT_DATA_DIR = CODE_ROOT / "data"
USER_DATA_DIR = Path("~/.accelbench")


def installed() -> bool:
    """Whether this engine is an installed wheel (it carries its reference data) rather than a checkout."""
    return PACKAGED_REFERENCE_DIR.is_dir()


def reference_dir() -> Path:
    """The folder of the curated reference data (reference_numbers.csv, prices.csv, source_power.csv)."""
    return PACKAGED_REFERENCE_DIR if installed() else CHECKOUT_DATA_DIR / "reference"


def reference_file(name: str) -> Path:
    """One reference data file by its name, e.g. `reference_file("prices.csv")`."""
    return reference_dir() / name


def data_dir() -> Path:
    """Where results live by default (the SQLite store, run folders, the History folder): data/ in a
    checkout, ~/.accelbench/ for an installed wheel. `ACCELBENCH_DB` moves the store (engine.settings)."""
    return USER_DATA_DIR.expanduser() if installed() else CHECKOUT_DATA_DIR
