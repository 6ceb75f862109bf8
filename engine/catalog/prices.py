"""The one price table: a cloud on-demand list price per hour for ONE device of each kind (a GPU, a K80
die, a TPU v2-8/v3-8 board, a chip of later TPUs), each with its provider, offering, date and source
(data/reference/prices.csv; edit that file to add or change a price).

One device may have several prices (seed 003's $6.50/h and seed 001's $4.50/h for a Cloud TPU v2-8);
exactly one row per device is marked default, so a price is never used unnamed. `price_for_device` is the
only way the Compare page's Cost and Efficiency tabs, the Run card and the CLI pick a price.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from engine.settings import REFERENCE_DIR

PRICES_CSV = REFERENCE_DIR / "prices.csv"
SECONDS_PER_HOUR = 3600.0


@dataclass(frozen=True)
class Price:
    """One row of the price table.

    Attributes:
      hardware_key: the hardware table's key (engine.catalog.hardware_table).
      per_unit: what one price buys for an hour ("gpu", "die", "board", "chip").
      usd_per_hour: on-demand list price in USD per `per_unit` and hour.
      default: the row used unless the user gives a price (one per device).
      provider, offering: who sells it and which product ("AWS", "p5.48xlarge (8x H100 80GB) / 8").
      date: when the price was published or read ("2026-08", "undated").
      source: where the figure comes from, in words; source_url: its address ('' when none).
      host_vcpus: the offer's host vCPUs per `per_unit` (instance vCPUs ÷ its devices; None: not known), with
        host_vcpus_source saying where that count is from (engine.compare.words.input_cap: the host's input pipeline).
    """

    hardware_key: str
    per_unit: str
    usd_per_hour: float
    default: bool
    provider: str
    offering: str
    date: str
    source: str
    source_url: str = ""
    host_vcpus: float | None = None
    host_vcpus_source: str = ""

    @property
    def offer(self) -> str:
        """'Google Cloud TPU v5e', 'AWS p5.48xlarge (8x H100 80GB) / 8': the provider and the offering, a word they
        share said once (Google Cloud's offering is 'Cloud TPU v5e')."""
        return offer_text(self.provider, self.offering)

    def label(self) -> str:
        return f"${self.usd_per_hour:g}/h per {self.per_unit}: {self.offer}, {self.date} ({self.source})"


def offer_text(provider: str, offering: str) -> str:
    """The provider then the offering, the longest run of words ending the one and starting the other said once."""
    a, b = provider.split(), offering.split()
    overlap = next((n for n in range(min(len(a), len(b)), 0, -1) if a[-n:] == b[:n]), 0)
    return " ".join([*a, *b[overlap:]])


@dataclass(frozen=True)
class PriceChoice:
    """The price that applies to one device, and whose it is.

    Attributes:
      usd_per_hour: USD per hour for one `per_unit` (the table's), or the user's figure as given.
      per_unit: the unit the price is for ("gpu", "board", "chip"; "device" for a user's price with no table row).
      whose: "yours" (the user gave it) or "price table".
      text: the price with where it came from, e.g. "$6.88/h per gpu (price table: AWS p5.48xlarge … / 8, 2026)".
      row: the table row behind it (None for a user's price).
    """

    usd_per_hour: float
    per_unit: str
    whose: str
    text: str
    row: Price | None = None


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
                r.get("source_url") or "",
                _positive(r.get("host_vcpus")),
                r.get("host_vcpus_source") or "",
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


def _positive(v: object) -> float | None:
    try:
        f = float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return f if f == f and f > 0 else None


def price_for_device(
    hardware_key: str | None, user_usd_h: object = None, path: Path | None = None
) -> PriceChoice | None:
    """The user's price when one is given (> 0), else the table's default for one device; None when neither."""
    row = default_price(hardware_key, path)
    if (user := _positive(user_usd_h)) is not None:
        return PriceChoice(user, row.per_unit if row else "device", "yours", f"${user:g}/h (your price)")
    if row is None:
        return None
    text = f"${row.usd_per_hour:g}/h per {row.per_unit} (price table: {row.offer}, {row.date}; {row.source})"
    return PriceChoice(row.usd_per_hour, row.per_unit, "price table", text, row)


def usd_text(usd: float) -> str:
    """A dollar amount as a person reads it: '$1,234', '$0.52', '$0.0044' (two significant digits below $1)."""
    if usd >= 100:
        return f"${usd:,.0f}"
    if usd >= 1 or usd <= 0:
        return f"${usd:,.2f}"
    decimals = 1 - math.floor(math.log10(usd))  # two significant digits, never in e-notation
    return f"${usd:.{decimals}f}"


def usd_per_million_examples(examples_per_sec: float, usd_per_hour: float) -> float:
    """What a million examples cost at a steady `examples_per_sec` on hardware costing `usd_per_hour`."""
    if not examples_per_sec > 0:
        raise ValueError("examples_per_sec must be positive")
    if usd_per_hour < 0:
        raise ValueError("usd_per_hour must not be negative")
    return usd_per_hour / SECONDS_PER_HOUR * 1e6 / examples_per_sec
