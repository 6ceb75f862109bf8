"""A run's energy and cost columns from its telemetry, its result row and a price (pure).

Measured figures come only from engine.runs.telemetry.steady_energy; a TDP-based figure goes in its
own column (`energy_tdp_estimate_j`) and its note says it is an estimate. The price that applies is
the user's (`price_per_hour_usd`) when given, else the price table's default for the device, and
`price_source` always names which one was used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.runs.telemetry import NOT_MEASURABLE, Sample, steady_energy, thermal_notes


@dataclass(frozen=True)
class AppliedPrice:
    usd_per_hour: float
    source: str


def applied_price(
    user_usd_h: float | None, table_usd_h: float | None, table_label: str, units: int
) -> AppliedPrice | None:
    """The user's price per hour, else the table's price per unit × units; None when neither exists."""
    if user_usd_h and user_usd_h > 0:
        return AppliedPrice(float(user_usd_h), "user: price per hour given with the run")
    if table_usd_h and table_usd_h > 0:
        n = max(1, units)
        return AppliedPrice(table_usd_h * n, f"price table: {table_label}" + (f" × {n}" if n > 1 else ""))
    return None


def _positive(row: Mapping[str, Any], key: str) -> float | None:
    v = row.get(key)
    return float(v) if isinstance(v, (int, float)) and v > 0 else None


def energy_columns(
    samples: Sequence[Sample],
    meta: Mapping[str, Any],
    window: tuple[float, float] | None,
    row: Mapping[str, Any],
    device: str,
    tdp_w: float | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """(columns, notes): energy_source and — where measured — energy_j, avg_power_w, joules_per_example,
    examples_per_joule, gflops_per_watt; a labelled TDP estimate; thermal and clock notes."""
    energy = steady_energy(samples, window, device, meta)
    cols: dict[str, Any] = {"energy_source": energy.source}
    notes: list[str] = []
    eps, gflops = _positive(row, "examples_per_sec"), _positive(row, "gflops")
    watts = energy.avg_power_w
    if energy.source != NOT_MEASURABLE and energy.energy_j is not None and watts:
        cols |= {"energy_j": energy.energy_j, "avg_power_w": watts}
        if eps:
            cols |= {"joules_per_example": watts / eps, "examples_per_joule": eps / watts}
        if gflops:
            cols["gflops_per_watt"] = gflops / watts
        notes.append(f"energy over the steady window ({energy.seconds:.2f} s) from {energy.what}")
    else:
        notes.append(f"energy {NOT_MEASURABLE} ({energy.what})")
    if tdp_w and window:
        seconds = window[1] - window[0]
        cols["energy_tdp_estimate_j"] = tdp_w * seconds
        notes.append(f"TDP-based ESTIMATE, not measured: {tdp_w:.0f} W × {seconds:.2f} s = {tdp_w * seconds:.1f} J")
    notes.extend(thermal_notes(samples, window, meta))
    return cols, notes


def cost_columns(
    row: Mapping[str, Any], price: AppliedPrice | None, wall_s: float, epoch_examples: int = 0
) -> dict[str, Any]:
    """cost_usd for the run, cost_usd_per_million_examples at its steady rate (and per epoch of a dataset
    of `epoch_examples`, when given), and price_source."""
    if price is None:
        return {}
    seconds = _positive(row, "total_s") or wall_s
    cols: dict[str, Any] = {"cost_usd": price.usd_per_hour * seconds / 3600.0, "price_source": price.source}
    eps = _positive(row, "examples_per_sec")
    if eps:
        cols["cost_usd_per_million_examples"] = price.usd_per_hour / 3600.0 * 1e6 / eps
        if epoch_examples > 0:
            cols["cost_usd_per_epoch"] = price.usd_per_hour / 3600.0 * epoch_examples / eps
    return cols
