"""Quantities written with their unit ('32KiB', '16GiB', '250 ms'): the unit families files mix in one column, and the
order a person reads labels that hold them in (by magnitude, not as text). Pure Python; no pandas.
"""

from __future__ import annotations

import re

# Units of one quantity, each as a multiple of the first: a cell in another unit of its column's family converts
# (nccl-tests and all_reduce_bench print sizes 32KiB … 16GiB in one column; a log may mix ms and s).
UNIT_FAMILIES: tuple[dict[str, float], ...] = (
    {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12},
    {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0},
    {"GBps": 1.0, "GB/s": 1.0, "MB/s": 1e-3, "TB/s": 1e3},
)
_SCALE = {unit: factor for family in UNIT_FAMILIES for unit, factor in family.items()}
# A number, optionally followed at once (or after one space) by a unit of a family; longest units first so that
# 'KiB' is not read as 'K' + 'iB'. A unit must end the word ('8 heads' keeps 'h' out of 'heads').
_QUANTITY = re.compile(
    r"(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s?("
    + "|".join(sorted(map(re.escape, _SCALE), key=len, reverse=True))
    + r")?(?![\w/])"
)

NaturalKey = tuple[tuple[int, float | str], ...]


def natural_key(label: object) -> NaturalKey:
    """A sort key that reads numbers as numbers and a quantity in its unit's base ('128KiB' < '1MiB' < '16GiB',
    'batch 8' < 'batch 64'); the text around them compares case-blind. Every part is (kind, value) so that keys of
    any two labels compare."""
    text = str(label)
    parts: list[tuple[int, float | str]] = []
    end = 0
    for m in _QUANTITY.finditer(text):
        if m.start() > end:
            parts.append((1, text[end : m.start()].strip().lower()))
        parts.append((0, float(m.group(1)) * _SCALE.get(m.group(2) or "", 1.0)))
        end = m.end()
    if end < len(text):
        parts.append((1, text[end:].strip().lower()))
    return tuple(parts)
