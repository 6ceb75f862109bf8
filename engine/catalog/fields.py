"""Checking one field of a request: whole numbers, numbers, choices and booleans within bounds.

Each check raises `SpecError` naming the CLI flag (`--batch-size`) and what is allowed, in one line.
"""

from __future__ import annotations

import math
from dataclasses import asdict, fields
from typing import Any


class SpecError(ValueError):
    """An invalid request. `field` is the CLI-style name of the first bad field."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def whole(d: dict, key: str, bounds: dict[str, tuple[float, float]]) -> int:
    lo, hi = (int(b) for b in bounds[key])
    v = d[key]
    if isinstance(v, bool) or (isinstance(v, float) and not v.is_integer()):
        raise SpecError(flag(key), f"must be a whole number from {lo} to {hi}, got {v!r}")
    try:
        iv = int(v)
    except (TypeError, ValueError):
        raise SpecError(flag(key), f"must be a whole number from {lo} to {hi}, got {v!r}") from None
    if not lo <= iv <= hi:
        raise SpecError(flag(key), f"must be from {lo} to {hi}, got {iv}")
    return iv


def number(d: dict, key: str, bounds: dict[str, tuple[float, float]]) -> float:
    lo, hi = bounds[key]
    v = d[key]
    try:
        fv = float(v)
    except (TypeError, ValueError):
        raise SpecError(flag(key), f"must be a number from {lo:g} to {hi:g}, got {v!r}") from None
    if isinstance(v, bool) or not math.isfinite(fv) or not lo <= fv <= hi:
        raise SpecError(flag(key), f"must be a number from {lo:g} to {hi:g}, got {v!r}")
    return fv


def choice(d: dict, key: str, allowed: tuple[str, ...]) -> str:
    v = d[key]
    if not isinstance(v, str) or v not in allowed:
        raise SpecError(flag(key), f"must be one of {', '.join(allowed)}; got {v!r}")
    return v


def boolean(d: dict, key: str) -> bool:
    v = d[key]
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in ("true", "false", "1", "0", "yes", "no"):
        return v.lower() in ("true", "1", "yes")
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise SpecError(flag(key), f"must be true or false, got {v!r}")


def flag(key: str) -> str:
    return "--" + key.replace("_", "-")


def fill(cls, d: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(d) - names - {"kind"})
    if unknown:
        raise SpecError(flag(unknown[0]), f"is not a setting of a {cls.__name__} (allowed: {', '.join(sorted(names))})")
    defaults = asdict(cls())
    return {**defaults, **{k: v for k, v in d.items() if k in names and v is not None}}
