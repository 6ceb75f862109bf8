"""The run row's telemetry columns, computed in the worker once the work is done: energy over the
steady window (engine.runs.energy_row), thermal and clock notes, and the run's cost at the price
that applies (the user's, else the price table's default for the device)."""

from __future__ import annotations

from typing import Any

from engine.catalog import hardware_table
from engine.catalog.catalog import DATASETS
from engine.catalog.prices import default_price
from engine.runs.energy_row import applied_price, cost_columns, energy_columns
from engine.runs.progress import STEADY_WINDOW, TELEMETRY, Reporter
from engine.runs.telemetry import NOT_MEASURABLE, steady_window
from engine.worker.telemetry import Sampler


def _units(result: dict[str, Any], device_type: str, samples: list[dict[str, Any]]) -> int:
    if device_type == "gpu":
        gpus = {k.split("_")[0] for s in samples[:1] for k in s if k.startswith("gpu") and k.endswith("_power_w")}
        return int(result.get("replicas") or len(gpus) or 1)
    return 1


def telemetry_columns(
    sampler: Sampler, report: Reporter, device: str, user_price: float | None, result: dict[str, Any], wall_s: float
) -> dict[str, Any]:
    """The columns to add to `result` (notes joined onto its own). Telemetry never fails a run: an
    error here leaves the energy "not measurable here" and says why."""
    try:
        return _columns(sampler, report, device, user_price, result, wall_s)
    except Exception as exc:  # noqa: BLE001
        own = result.get("notes")
        note = f"energy {NOT_MEASURABLE} (telemetry failed: {exc.__class__.__name__}: {exc})"
        return {"energy_source": NOT_MEASURABLE, "notes": f"{own}; {note}" if own else note}


def _columns(
    sampler: Sampler, report: Reporter, device: str, user_price: float | None, result: dict[str, Any], wall_s: float
) -> dict[str, Any]:
    device_type = device.split(":")[0]
    window = steady_window(report.series, report.times)
    key = hardware_table.key_for_name(str(result.get("device_name") or ""), device_type)
    dev = hardware_table.BY_KEY.get(key or "")
    units = _units(result, device_type, sampler.samples)
    tdp = dev.tdp_w * units if dev is not None and dev.tdp_w else None
    cols, notes = energy_columns(sampler.samples, sampler.meta, window, result, device_type, tdp)
    table = default_price(key)
    price = applied_price(user_price, table.usd_per_hour if table else None, table.label() if table else "", units)
    data = DATASETS.get(str(result.get("dataset") or ""))
    cols |= cost_columns(result, price, wall_s, data.train_examples if data is not None else 0)
    if price is not None and table is not None and user_price:
        notes.append(f"user's price applied, not the table's {table.label()}")
    own = result.get("notes")
    cols["notes"] = "; ".join([own, *notes] if own else notes)
    return cols


def telemetry_series(sampler: Sampler, report: Reporter) -> dict[str, list[dict[str, Any]]]:
    """What is stored beside the run's step/epoch/repeat series: the samples, and the steady window
    (unix start/end) the energy covers, so the Run page can shade the warm-up on the same time axis."""
    out: dict[str, list[dict[str, Any]]] = {TELEMETRY: sampler.stop()}
    window = steady_window(report.series, report.times)
    if window is not None:
        out[STEADY_WINDOW] = [{"start": window[0], "end": window[1]}]
    return out
