"""A row as ONE device: the headline answers "one <device> vs this machine", so a multi-device row enters it
only as a per-device share, and only when its source states how many devices it used.

Dividing a system's rate by its device count gives each device's share of the system, which is a little
below what one device alone reaches (scaling is rarely perfect): the label and the arithmetic say so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.compare.facts.silicon import DEVICES, NONE

# `rate` below is an engine.compare.facts.likeforlike.Rate, which makes its one-device view (Rate.one) with
# one_device when it is made; likeforlike imports this module, so this one cannot name the type (no import cycle).


def devices_of(rate: Any) -> float | None:
    """How many devices (workload.device_unit) the row used; None when its source did not say."""
    if rate.origin == "this machine" and rate.device_type == "cpu":
        return 1.0
    return rate.device_units


def one_device(rate: Any) -> Any:
    """The row as one device: itself when it used one, a labelled per-device share of a system whose count is
    stated, else None (it stays a system, never in a per-device headline)."""
    n = devices_of(rate)
    if n is None or n <= 0:
        return None
    if n == 1:
        return rate
    unit = DEVICES.get(rate.hardware_key, NONE).unit
    how = (
        f"{rate.how}; ÷ {n:g} {unit}s = one {unit}'s share of the system (one {unit} alone is usually a little faster)"
    )
    return replace(
        rate,
        id=f"{rate.id}/1",
        label=f"{rate.label} ÷ {n:g}",
        value=rate.value / n,
        low=rate.low / n if rate.low is not None else None,
        high=rate.high / n if rate.high is not None else None,
        devices=rate.devices / n if rate.devices else None,
        work=None,
        time_s=None,
        how=how,
        settings={**rate.settings, "hardware_count": 1, "count_unit": unit, "per_device_of": n},
    )
