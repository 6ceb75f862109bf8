"""Cost and energy from a price per hour and a power draw: per run, per epoch, per million examples.

Article 003's point: a Cloud TPU at $6.50/h can be cheaper per result than a cheaper-per-hour GPU,
so compare cost per unit of work, not price per hour.
"""

from __future__ import annotations

import math

import pandas as pd

from engine.reference.normalize import per_unit
from engine.reference.units import METRICS, THROUGHPUT_METRICS, same_family

SECONDS_PER_HOUR = 3600.0
JOULES_PER_KWH = 3.6e6


def cost_usd(duration_s: float, price_per_hour_usd: float) -> float:
    """What `duration_s` of a machine at `price_per_hour_usd` costs."""
    if duration_s < 0 or price_per_hour_usd < 0:
        raise ValueError("duration and price must not be negative")
    return duration_s / SECONDS_PER_HOUR * price_per_hour_usd


def cost_per_million_examples_usd(examples_per_s: float, price_per_hour_usd: float) -> float:
    """USD to process one million examples at a steady `examples_per_s`."""
    if examples_per_s <= 0:
        raise ValueError("examples_per_s must be positive")
    return cost_usd(1e6 / examples_per_s, price_per_hour_usd)


def reference_prices(ref: pd.DataFrame, hardware_key: str | None = None, per: str | None = None) -> pd.DataFrame:
    """Price rows (USD/h), optionally for one hardware family, with the price per `per` unit
    (e.g. per gpu: an 8×V100 instance at $24.48/h → $3.06 per GPU-hour) in `price_per_unit_usd_h`."""
    rows = ref[ref["metric"] == "price_usd_per_h"]
    if hardware_key:
        rows = rows[rows["hardware_key"].isin(same_family(hardware_key))]
    rows = rows.copy()
    if per:
        conv = [
            per_unit(r.value, r.metric, r.hardware_key, r.hardware_count, r.count_unit, per) for r in rows.itertuples()
        ]
        rows["price_per_unit_usd_h"] = [c.value if c else math.nan for c in conv]
    return rows


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
