"""A metric's name from its unit and its header's words (rates are throughput, times latency or time), read by
every stage that names a measurement. Pure Python."""

from __future__ import annotations

import re

from engine.results.directions import unit_direction


def metric_for(unit: str, name: str) -> str:
    """A metric name from the unit (and the header's words): rates are throughput, times latency or time."""
    low = name.lower()
    split = _split(name)  # train/validation/test accuracy stay separate series
    if "latency" in low:  # a report's stats stay apart: Latency median, Latency p90, Latency spread
        stat = next((w for w in ("median", "mean", "p50", "p90", "p95", "p99", "spread", "min", "max")
                     if w in re.split(r"[^a-z0-9]+", low)), "")  # fmt: skip
        section = re.match(r"^([a-z_]+) latency", low)  # a report's other sections: "Load latency", "Decode …"
        name = f"{section.group(1).capitalize()} latency" if section else "Latency"
        return f"{name} {stat}" if stat else name
    if "accuracy" in low or "acc" in re.split(r"[_/. ]", low):
        metric = "Top-1 accuracy" if "top1" in low.replace("-", "") else "Accuracy"
        return f"{split} {metric.lower()}" if split else metric
    if "loss" in low:
        return f"{split} loss" if split else "Loss"
    if unit_direction(unit) and unit.endswith("/s"):
        return "Bandwidth" if "bandwidth" in low or unit.endswith("B/s") else "Throughput"
    if unit in ("ms", "s", "min", "h"):
        if unit in ("ms", "s") and re.search(r"step|iter", low):
            return "Time per step"  # with the batch known, also examples/s (units.step_rates)
        return "Time to train" if unit in ("min", "h") else "Time"
    return {"%": "Utilization", "MiB": "Memory used", "GiB": "Memory used", "C": "Temperature", "°C": "Temperature",
            "W": "Power draw", "MHz": "Clock"}.get(unit, "")  # fmt: skip


_SPLITS = {"train": "Train", "training": "Train", "val": "Validation", "valid": "Validation",
           "validation": "Validation", "eval": "Eval", "test": "Test"}  # fmt: skip


def _split(name: str) -> str:
    """The data split a metric column is about ('validation/accuracy' → 'Validation'), or ""."""
    words = re.split(r"[^a-z]+", name.lower())
    return next((_SPLITS[w] for w in words if w in _SPLITS), "")
