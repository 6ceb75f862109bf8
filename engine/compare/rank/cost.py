"""Cost and energy from a price per hour and a power draw: per run, per epoch, per million examples.

Article 003's point: a Cloud TPU at $6.50/h can be cheaper per result than a cheaper-per-hour GPU,
so compare cost per unit of work, not price per hour.

Every price comes from engine.catalog.prices.price_for_device (the user's, else the price table's default for one
device); `hardware_price` scales it to a row's device count, so the Cost tab, the Efficiency tab, the Run card
and `python -m engine compare` charge the same device the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from engine.catalog import prices
from engine.catalog.prices import PriceChoice
from engine.reference.normalize import is_missing
from engine.reference.units import METRICS, THROUGHPUT_METRICS, same_family, units_between

SECONDS_PER_HOUR = prices.SECONDS_PER_HOUR
JOULES_PER_KWH = 3.6e6


@dataclass(frozen=True)
class HardwarePrice:
    """What a row's whole hardware costs per hour.

    Attributes:
      usd_per_hour: for all the row's devices (the user's figure is taken as given, for the whole row).
      choice: the one-device price it was built from (engine.catalog.prices.PriceChoice).
      devices: how many of `choice.per_unit` the row used (None for a user's price).
      text: where the price came from, with "× n" when several devices are charged.
    """

    usd_per_hour: float
    choice: PriceChoice
    devices: float | None
    text: str


def hardware_prices(rows: Sequence[tuple[str, Any, Any, Any]]) -> list[HardwarePrice | None]:
    """hardware_price for each (key, count, unit, the user's USD/h), in one pass."""
    return [hardware_price(*r) for r in rows]


def hardware_price(key: str, count: Any, unit: Any, user_usd_h: Any = None) -> HardwarePrice | None:
    """The user's price, else the price table's default per device × the row's devices (`count` `unit`s,
    e.g. 8 cores of a TPU v2 = 1 board). A chip-level key without a row of its own uses its family's
    (tpu_v2 chips are priced through the v2-8 board). None when there is no price or no device count."""
    user = prices.price_for_device(key, user_usd_h) if user_usd_h is not None else None
    if user is not None and user.whose == "yours":
        return HardwarePrice(user.usd_per_hour, user, None, user.text)
    if is_missing(count) or is_missing(unit) or not str(unit):
        return None
    for k in [key, *sorted(same_family(key) - {key})]:
        choice = prices.price_for_device(k)
        per = units_between(k, str(unit), choice.per_unit) if choice else None
        if choice is None or not per:
            continue
        n = float(count) * per
        return HardwarePrice(choice.usd_per_hour * n, choice, n, choice.text + (f" × {n:g}" if n != 1 else ""))
    return None


def row_price(row: Mapping[str, Any], user_usd_h: Any = None) -> HardwarePrice | None:
    """`hardware_price` for a Compare row (a run's or a reference's), from its hardware_key and device count."""
    key = row.get("hardware_key")
    key = "" if is_missing(key) else str(key)
    return hardware_price(key, row.get("hardware_count"), row.get("count_unit"), user_usd_h)


def starting_prices(rows: pd.DataFrame, own_usd_h: Mapping[str, Any]) -> dict[str, HardwarePrice]:
    """The Cost tab's starting price per label: the run's own price (`own_usd_h[label]`), else the price
    table's for the row's devices; labels with neither are left out."""
    out = {}
    for r in rows.drop_duplicates("label").to_dict("records"):
        if (got := row_price(r, own_usd_h.get(r["label"]))) is not None:
            out[str(r["label"])] = got
    return out


def cost_usd(duration_s: float, price_per_hour_usd: float) -> float:
    """What `duration_s` of a machine at `price_per_hour_usd` costs."""
    if duration_s < 0 or price_per_hour_usd < 0:
        raise ValueError("duration and price must not be negative")
    return duration_s / SECONDS_PER_HOUR * price_per_hour_usd


def cost_per_million_examples_usd(examples_per_s: float, price_per_hour_usd: float) -> float:
    """USD to process one million examples at a steady `examples_per_s`."""
    return prices.usd_per_million_examples(examples_per_s, price_per_hour_usd)


def cost_table(rows: pd.DataFrame, price_per_hour_usd: dict[str, float], label_col: str = "hardware") -> pd.DataFrame:
    """Cost columns for throughput and time rows, given a price per hour for each label.

    Throughput rows get `usd_per_million_examples`; time rows (train_time_s, op_time_s, epoch_time_s,
    first_epoch_s) get `usd_per_run` (for that row's span of work). Labels without a price are left out.
    """
    out = []
    for r in rows.to_dict("records"):
        price = price_per_hour_usd.get(r[label_col])
        if price is None or not price > 0:
            continue
        rec = {
            "label": r[label_col],
            "ref_id": r["ref_id"],
            "metric": r["metric"],
            "value": r["value"],
            "price_per_hour_usd": price,
        }
        if r["metric"] in THROUGHPUT_METRICS:
            rec["usd_per_million_examples"] = cost_per_million_examples_usd(float(r["value"]), price)
        elif METRICS[r["metric"]].kind == "time":
            rec["usd_per_run"] = cost_usd(float(r["value"]), price)
        else:
            continue
        out.append(rec)
    cols = ["label", "ref_id", "metric", "value", "price_per_hour_usd", "usd_per_million_examples", "usd_per_run"]
    return pd.DataFrame(out).reindex(columns=cols)
