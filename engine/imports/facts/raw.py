"""A foreign file as read: its text cells, how it was read, a first mapping and its digest — what the read stage
hands on and every later stage reads."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping


@dataclass
class Raw:
    """A foreign file read as text cells (`frame`, with `_row`), how it was read, a first mapping, and the
    digest of the file's bytes (with a mapping's `key()`, what a mapped result may be cached by)."""

    frame: pd.DataFrame
    how: str
    guess: ImportMapping
    sidecar: dict[str, str] = field(default_factory=dict)
    digest: str = ""
