"""The small editable price table beside the hardware table: cloud on-demand list prices per hour,
each with its source and date (data/reference/prices.csv; edit that file to add or change a price).

One device may have several prices (seed 003's $6.50/h and seed 001's $4.50/h for a Cloud TPU v2-8);
`default_price` picks the row marked default and says which it is, so a price is never used unnamed.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from engine.settings import REFERENCE_DIR

PRICES_CSV = REFERENCE_DIR / "prices.csv"


@dataclass(frozen=True)
class Price:
    hardware_key: str
    per_unit: str
    usd_per_hour: float
    default: bool
    provider: str
    offering: str
    date: str
    source: str

    def label(self) -> str:
        return f"${self.usd_per_hour:g}/h per {self.per_unit}: {self.provider} {self.offering}, {self.date} ({self.source})"


def load_prices(path: Path | None = None) -> list[Price]:
    """Every price row; a missing file is an empty table."""
    try:
        text = (path or PRICES_CSV).read_text()
    except OSError:
        return []
    out = []
    for r in csv.DictReader(text.splitlines()):
        try:
            usd = float(r["usd_per_hour"])
        except (KeyError, TypeError, ValueError):
            continue
        out.append(
            Price(
                r["hardware_key"],
                r.get("per_unit") or "unit",
                usd,
                (r.get("default") or "").lower() == "yes",
                r.get("provider") or "",
                r.get("offering") or "",
                r.get("date") or "undated",
                r.get("source") or "",
            )
        )
    return out


def default_price(hardware_key: str | None, path: Path | None = None) -> Price | None:
    """The price that applies to one unit of `hardware_key`: its default row, else its only row."""
    rows = [p for p in load_prices(path) if p.hardware_key == hardware_key]
    marked = [p for p in rows if p.default]
    if marked:
        return marked[0]
    return rows[0] if len(rows) == 1 else None
