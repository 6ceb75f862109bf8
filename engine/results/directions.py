"""Which way is better for a History metric column: AccelBench's own columns know (the metric registry);
an imported column named `Metric (unit)` says it by its unit, or by a mark the user's mapping added
(" · lower is better"). Shared by History (engine.results.history) and the import mapping
(engine.imports.facts.import_mapping), which names the columns. Pure Python.
"""

from __future__ import annotations

import re

# Units whose better direction is plain; anything per second is a rate (higher is better).
_LOWER_UNITS = {
    "ms", "s", "sec", "seconds", "min", "minutes", "h", "hours", "us", "µs", "ns", "w", "kw", "usd", "$", "c",
    "°c", "usd/h", "j", "kj", "mj", "uj", "µj", "wh", "kwh", "mw", "uw", "µw",  # energy and power at any prefix
}  # fmt: skip
_HIGHER_UNITS = {"x", "×", "mhz", "ghz", "tflops", "gflops", "gflop/s", "tflop/s"}
LOWER_MARK, HIGHER_MARK = " · lower is better", " · higher is better"


def unit_direction(unit: str) -> bool | None:
    """True when more is better in this unit (a rate), False for times, power, prices; None when unclear."""
    low = unit.strip().lower()
    if low in _LOWER_UNITS:
        return False
    if low in _HIGHER_UNITS or low.endswith(("/s", "/sec", "per second")):
        return True
    return None


def direction_of(column: str) -> bool | None:
    """Higher-is-better for a column `metric_column` named: its mark, else its unit; None when unknown."""
    if column.endswith(LOWER_MARK):
        return False
    if column.endswith(HIGHER_MARK):
        return True
    m = re.search(r"\(([^()]+)\)\s*$", column)
    return unit_direction(m.group(1)) if m else None
