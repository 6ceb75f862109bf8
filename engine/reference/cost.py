"""Cost and energy from a price per hour and a power draw: per run, per epoch, per million examples.

Article 003's point: a Cloud TPU at $6.50/h can be cheaper per result than a cheaper-per-hour GPU,
so compare cost per unit of work, not price per hour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


def energy_kwh(duration_s: float, power_w: float) -> float:
    """Energy drawn over `duration_s` at a constant `power_w` (TDP is an upper bound, not a measurement)."""
    return duration_s * power_w / JOULES_PER_KWH


def energy_per_example_j(examples_per_s: float, power_w: float) -> float:
    """Joules per example at a steady `examples_per_s` drawing `power_w`."""
    if examples_per_s <= 0:
        raise ValueError("examples_per_s must be positive")
    return power_w / examples_per_s


@dataclass(frozen=True)
class CostEstimate:
    """What a run costs.

    Attributes:
      price_per_hour_usd: the rate used.
      duration_s: the billed time.
      cost_per_run_usd: duration × rate.
      cost_per_epoch_usd: per epoch, when the epoch count is known.
      cost_per_million_examples_usd: from the steady throughput, when known.
      energy_kwh: at `power_w`, when known.
      energy_per_example_j: at `power_w` and the steady throughput, when both are known.
    """

    price_per_hour_usd: float
    duration_s: float
    cost_per_run_usd: float
    cost_per_epoch_usd: float | None = None
    cost_per_million_examples_usd: float | None = None
    energy_kwh: float | None = None
    energy_per_example_j: float | None = None


def estimate_cost(
    duration_s: float,
    price_per_hour_usd: float,
    epochs: int | None = None,
    examples_per_s: float | None = None,
    power_w: float | None = None,
) -> CostEstimate:
    """Cost per run, per epoch and per million examples; energy when a power figure is given."""
    return CostEstimate(
        price_per_hour_usd=price_per_hour_usd,
        duration_s=duration_s,
        cost_per_run_usd=cost_usd(duration_s, price_per_hour_usd),
        cost_per_epoch_usd=cost_usd(duration_s / epochs, price_per_hour_usd) if epochs else None,
        cost_per_million_examples_usd=(
            cost_per_million_examples_usd(examples_per_s, price_per_hour_usd) if examples_per_s else None
        ),
        energy_kwh=energy_kwh(duration_s, power_w) if power_w else None,
        energy_per_example_j=energy_per_example_j(examples_per_s, power_w) if power_w and examples_per_s else None,
    )


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


def reference_power_w(
    ref: pd.DataFrame, hardware_key: str, per: str = "chip", metric: str = "tdp_w"
) -> tuple[float, str] | None:
    """(watts per `per` unit, ref_id) from the first non-doubtful `metric` row of the family
    (tdp_w = provisioned; power_measured_w = measured — keep them apart in one chart)."""
    rows = ref[(ref["metric"] == metric) & ref["hardware_key"].isin(same_family(hardware_key))]
    rows = pd.concat([rows[~rows["doubtful"]], rows[rows["doubtful"]]])
    for r in rows.itertuples():
        conv = per_unit(r.value, metric, r.hardware_key, r.hardware_count, r.count_unit, per)
        if conv is not None:
            return conv.value, r.ref_id
    return None


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
