"""Efficiency on the like-for-like footing: every row's rate of work (engine.compare.facts.likeforlike) per joule
and per dollar, with where the watts and the price came from.

Examples per joule = examples/s ÷ W (GFLOP/s ÷ W = GFLOP per joule for a microbenchmark); dollars per million
examples = USD/h ÷ 3600 × 10⁶ ÷ examples/s. The watts are, in this order of preference:

- a run's **measured** average power over its steady window (engine.runs.energy_row), never anything else
  passed off as measured;
- a **published** power measurement for that hardware (a `power_measured_w` reference row);
- an **estimate**: the source's own nominal board power (data/reference/source_power.csv, e.g. Lambda's
  watt-per-GPU table), a `tdp_w` reference row, or the hardware table's TDP — always labelled as one.

The price per hour is the run's own (the user's), else the price table's default per device × the row's devices
(engine.compare.rank.cost.hardware_price, the Cost tab's rule too), and `price_how` names which.
Pure Python + pandas; no streamlit.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from engine.catalog import hardware_table, prices
from engine.compare.facts import likeforlike as lfl
from engine.compare.rank.cost import HardwarePrice, hardware_price, hardware_prices
from engine.reference.units import same_family, units_between
from engine.settings import REFERENCE_DIR

SOURCE_POWER_CSV = REFERENCE_DIR / "source_power.csv"
NOT_MEASURED = "not measurable here"
BASE_UNIT = {"tpu": "core", "gpu": "die", "cpu": "host"}
COLUMNS = [
    "label", "origin", "id", "task", "workload", "device_type", "rate", "rate_unit", "examples_per_joule",
    "gflops_per_watt", "usd_per_million_examples", "power_w", "power_basis", "power_how", "price_usd_per_hour",
    "price_how", "derived", "doubtful",
]  # fmt: skip


@dataclass(frozen=True)
class Power:
    """The watts a row's whole hardware drew: basis "measured", "published" or "estimate", and how."""

    watts: float
    basis: str
    how: str


@dataclass(frozen=True)
class Efficiency:
    rate: lfl.Rate
    power: Power | None
    power_missing: str  # why there is no power figure ('' when there is one)
    price_usd_per_hour: float | None
    price_how: str

    @property
    def per_joule(self) -> float | None:
        """examples/J (training) or GFLOP/J = GFLOP/s per W (micro)."""
        return self.rate.value / self.power.watts if self.power and self.power.watts > 0 else None

    @property
    def usd_per_million_examples(self) -> float | None:
        if self.rate.task != "training" or not self.price_usd_per_hour or not self.rate.value > 0:
            return None
        return prices.usd_per_million_examples(self.rate.value, self.price_usd_per_hour)


def _num(v: Any) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if f == f and f > 0 else None


def load_source_power(path: Path | None = None) -> dict[str, dict[str, str]]:
    """Per-row watts a source states beside its figures (ref_id → row); a missing file is an empty table."""
    try:
        text = (path or SOURCE_POWER_CSV).read_text()
    except OSError:
        return {}
    return {r["ref_id"]: r for r in csv.DictReader(text.splitlines()) if _num(r.get("watts_per_unit"))}


def units_of(rate: lfl.Rate, unit: str, key: str | None = None) -> float | None:
    """How many `unit`s (gpu, chip, board …) the row's hardware was: its base devices converted."""
    if not rate.devices:
        return None
    per = units_between(key or rate.hardware_key, BASE_UNIT.get(rate.device_type, "die"), unit)
    return rate.devices * per if per else None


def _scaled(rate: lfl.Rate, watts: float, unit: str, basis: str, what: str, key: str | None = None) -> Power | None:
    n = units_of(rate, unit, key)
    if not n:
        return None
    return Power(watts * n, basis, f"{what}: {watts:g} W per {unit} × {n:g} = {watts * n:,.0f} W")


def run_power(run: Mapping[str, Any], rate: lfl.Rate) -> tuple[Power | None, str]:
    """A run's measured average power; else a TDP estimate labelled as one; else (None, why)."""
    source = str(run.get("energy_source") or "")
    watts = _num(run.get("avg_power_w"))
    if watts and source and source != NOT_MEASURED:
        return Power(watts, "measured", f"measured: {watts:,.1f} W average over the steady window ({source})"), ""
    why = f"energy {NOT_MEASURED}" if source else "no energy recorded with this run"
    dev = hardware_table.BY_KEY.get(rate.hardware_key)
    if dev is not None and dev.tdp_w:
        est = _scaled(rate, dev.tdp_w, dev.peak_unit, "estimate", f"TDP ESTIMATE, not measured ({why})")
        if est:
            return est, ""
    return None, why


def _ref_rows(ref: pd.DataFrame | None, metric: str, key: str) -> list[dict[str, Any]]:
    if ref is None or ref.empty:
        return []
    rows = ref[(ref["metric"] == metric) & ref["hardware_key"].isin(same_family(key))]
    return rows.sort_values("doubtful", kind="stable").to_dict("records")  # sound rows first, doubtful ones after


def _cited(row: Mapping[str, Any]) -> str:
    doubt = f"; doubtful: {row['doubt_reason']}" if row.get("doubtful") else ""
    return f"{row['ref_id']}{doubt}; not measured"


def reference_power(rate: lfl.Rate, ref: pd.DataFrame | None, stated: Mapping[str, Mapping[str, str]]) -> Power | None:
    """Watts for a reference row: a published measurement, else the source's nominal figure or a TDP (estimates)."""
    for row in _ref_rows(ref, "power_measured_w", rate.hardware_key):
        what = f"published measured power ({_cited(row)} here)"
        if got := _scaled(
            rate, float(row["value"]), str(row["count_unit"]), "published", what, str(row["hardware_key"])
        ):
            return got
    if (own := stated.get(rate.id)) is not None:
        what = f"ESTIMATE: the source's nominal board power ({own['source']}; not measured)"
        if got := _scaled(rate, float(own["watts_per_unit"]), own["per_unit"], "estimate", what):
            return got
    for row in _ref_rows(ref, "tdp_w", rate.hardware_key):
        what = f"TDP ESTIMATE ({_cited(row)})"
        if got := _scaled(
            rate, float(row["value"]), str(row["count_unit"]), "estimate", what, str(row["hardware_key"])
        ):
            return got
    dev = hardware_table.BY_KEY.get(rate.hardware_key)
    if dev is not None and dev.tdp_w:
        return _scaled(rate, dev.tdp_w, dev.peak_unit, "estimate", "TDP ESTIMATE (hardware table; not measured)")
    return None


def price_for(rate: lfl.Rate, user_usd_h: Any = None) -> tuple[float | None, str]:
    """(USD per hour for the row's hardware, which price applies): the run's own price ("user: …"), else the price
    table's default per device × the row's devices — the same rule as the Cost tab (engine.compare.rank.cost)."""
    unit = BASE_UNIT.get(rate.device_type, "die")
    return _price_words(hardware_price(rate.hardware_key, rate.devices, unit, user_usd_h))


def _price_words(got: HardwarePrice | None) -> tuple[float | None, str]:
    if got is None:
        return None, "no price: none given and none in the price table for this device"
    return got.usd_per_hour, ("user: " if got.choice.whose == "yours" else "") + got.text


def prices_for(rows: Sequence[tuple[lfl.Rate, Any]]) -> list[tuple[float | None, str]]:
    """price_for each (one-device rate, the user's USD/h or None), in one pass for a whole answer."""
    got = hardware_prices([(r.hardware_key, r.devices, BASE_UNIT.get(r.device_type, "die"), u) for r, u in rows])
    return [_price_words(p) for p in got]


def efficiencies(
    rates: Sequence[lfl.Rate], runs: Sequence[Mapping[str, Any]], ref: pd.DataFrame | None
) -> list[Efficiency]:
    """Each rate (not datasheet peaks: a peak is not a rate of work) with its power and price."""
    by_id = {r.id: run for run in runs if (r := lfl.rate_of_run(run)) is not None}
    stated = load_source_power()
    out = []
    for rate in rates:
        if rate.origin == "peak":
            continue
        run = by_id.get(rate.id)
        if run is not None:
            power, missing = run_power(run, rate)
            usd_h, price_how = price_for(rate, run.get("price_per_hour_usd"))
        else:
            power = reference_power(rate, ref, stated)
            missing = "" if power else "the source gives no power and no TDP is known for this hardware"
            usd_h, price_how = price_for(rate)
        out.append(Efficiency(rate, power, missing, usd_h, price_how))
    return out


def frame(rows: Sequence[Efficiency]) -> pd.DataFrame:
    """One row per efficiency, in COLUMNS (examples_per_joule for training, gflops_per_watt for micro)."""
    recs = []
    for e in rows:
        r = e.rate
        training = r.task == "training"
        recs.append(
            {
                "label": r.label, "origin": r.origin, "id": r.id, "task": r.task, "workload": r.workload,
                "device_type": r.device_type, "rate": r.value, "rate_unit": r.unit,
                "examples_per_joule": e.per_joule if training else None,
                "gflops_per_watt": None if training else e.per_joule,
                "usd_per_million_examples": e.usd_per_million_examples,
                "power_w": e.power.watts if e.power else None,
                "power_basis": e.power.basis if e.power else "none",
                "power_how": e.power.how if e.power else e.power_missing,
                "price_usd_per_hour": e.price_usd_per_hour, "price_how": e.price_how,
                "derived": r.derivation != "measured" or bool(e.power and e.power.basis != "measured"),
                "doubtful": r.doubtful,
            }
        )  # fmt: skip
    return pd.DataFrame(recs).reindex(columns=COLUMNS)
