"""The "Which device?" table (engine.compare.which) as a person reads it: durations, rates with their bound and
range, speedups, the plain-text table of `engine compare --device all`, its JSON and the page's frame."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from engine.catalog import hardware_table
from engine.compare.facts.which_rows import DeviceRow, WhichDevice
from engine.compare.words.input_cap import cap_json

BOUND_SIGN = {"at most": "≤", "at least": "≥", "about": "≈"}


def duration_text(seconds: float | None) -> str:
    """'4.2 ms', '12 s', '3.5 min', '2.1 h', '3.2 days'; '—' when unknown."""
    if seconds is None or not math.isfinite(seconds):
        return "—"
    for limit, div, unit in ((1, 1e-3, "ms"), (120, 1, "s"), (2 * 3600, 60, "min"), (3 * 86400, 3600, "h")):
        if seconds < limit:
            return f"{_n(seconds / div, 2)} {unit}"
    return f"{_n(seconds / 86400, 2)} days"


def _n(v: float, digits: int = 3) -> str:
    """Whole numbers from 10**digits/10 up (no e-notation), else `digits` significant digits."""
    return f"{v:,.0f}" if abs(v) >= 10 ** (digits - 1) else f"{v:,.{digits}g}"


def _compact(v: float) -> str:
    """'143k', '1.2M', '9,010': three significant digits with a k or M above 10,000."""
    return f"{v / 1e6:.3g}M" if abs(v) >= 1e6 else f"{v / 1e3:.3g}k" if abs(v) >= 1e4 else _n(v)


def rate_text(r: DeviceRow, width: int | None = None) -> str:
    """'4,805', '≤22,911', '≈9,010 (6,010–12,000)': the bound and, for an estimate, its range; over `width`
    characters the numbers in k and M ('≈143k (71.2k–290k)'), never cut."""
    sign = BOUND_SIGN.get(r.bound, "")
    for n in (_n, _compact):
        text = sign + n(r.rate_one_device)
        text = f"{text} ({n(r.low)}–{n(r.high)})" if r.has_range and r.low and r.high else text
        if width is None or len(text) <= width:
            return text
    return text


def speedup_text(r: DeviceRow) -> str:
    from engine.compare.words.sentence import times, times_range

    if r.has_range:  # the range says it all (its top end is the ceiling of an "at most")
        return times_range(r.speedup_low, r.speedup_high)
    return ("≤" if r.bound == "at most" else "≥" if r.bound == "at least" else "") + times(r.speedup)


def epoch_text(r: DeviceRow) -> str:
    """The user's epochs on this device; a range for an estimate; '≥' where the rate is a ceiling."""
    if r.epoch_time_s is None:
        return "—"
    if r.has_range and r.epoch_time_low_s and r.epoch_time_high_s:
        lo, hi = duration_text(r.epoch_time_low_s), duration_text(r.epoch_time_high_s)
        return lo if lo == hi else f"{lo} – {hi}"
    sign = {"at most": "≥", "at least": "≤", "about": "≈"}.get(r.bound, "")  # a ceiling on rate: a floor on time
    return sign + duration_text(r.epoch_time_s)


def usd_text(v: float | None) -> str:
    from engine.catalog.prices import usd_text as usd

    return usd(v) if v is not None else "—"


def basis_text(r: DeviceRow) -> str:
    """The basis as a person reads it: an estimate says so, with 'at most' where it is a ceiling."""
    if r.basis == "estimate":
        return "estimate, at most" if r.bound == "at most" else "estimate"
    return r.basis


def _scale_json(r: DeviceRow) -> dict[str, Any]:
    """A row's place on the answer's one scale: rate_one_device = the anchor row's × ratio."""
    return {
        "anchor": r.anchor, "anchor_model": r.anchor_model or None, "ratio": r.ratio,
        "ratio_source": r.ratio_source or None, "precision": r.precision, "precision_note": r.precision_note or None, "per": r.per, "devices_per_rental": r.devices_per_rental,
        "flag": r.flag or None, "beside_why": r.beside_why or None, "fed": r.fed or None,
    }  # fmt: skip


def to_json(w: WhichDevice) -> dict[str, Any]:
    """One object for `engine compare --device all --json`: the ranked devices (each on the one scale) and the
    figures listed beside them (other stacks or precisions, never ranked)."""
    return {
        "run_id": w.run_id,
        "workload": w.workload,
        "unit": w.unit,
        "scale": w.scale_note,
        "baseline": {"label": w.baseline_label, "rate": w.baseline_rate, "epoch_time_s": w.baseline_epoch_time_s},
        "work": {"examples_per_epoch": w.work.examples_per_epoch, "epochs": w.work.epochs, "text": w.work.text},
        "devices": [_device_json(r) for r in w.rows],
        "beside": [_device_json(r) for r in w.beside],
        "left_out": list(w.left_out),
    }


def _device_json(r: DeviceRow) -> dict[str, Any]:
    return _scale_json(r) | {
        "hardware_key": r.hardware_key,
        "device": r.device,
        "label": r.label,
        "rate_one_device": r.rate_one_device,
        "basis": r.basis,
        "setting": r.setting,
        "bound": r.bound,
        "range": [r.low, r.high] if r.low is not None and r.high is not None else None,
        "speedup": r.speedup,
        "speedup_range": [r.speedup_low, r.speedup_high],
        "epoch_time_s": r.epoch_time_s,
        "epoch_time_range_s": [r.epoch_time_low_s, r.epoch_time_high_s] if r.epoch_time_low_s else None,
        "usd_per_million_examples": r.usd_per_million_examples,
        "usd_per_hour": r.usd_per_hour,
        "price": r.price,
        "price_whose": r.price_whose or None,
        "how": r.how,
        "error_case": r.error_case or None,
        **cap_json(r.input_cap),
    }  # fmt: skip


def frame(w: WhichDevice) -> pd.DataFrame:
    """The table as the page shows it (numbers stay numbers; text columns carry bounds and ranges)."""
    recs = [
        {
            "hardware_key": r.hardware_key, "device": r.device, "basis": basis_text(r), "rate": r.rate_one_device,
            "rate_text": rate_text(r), "low": r.low, "high": r.high, "speedup": r.speedup,
            "speedup_text": speedup_text(r), "epoch_time_s": r.epoch_time_s, "epoch_text": epoch_text(r),
            "usd_per_million_examples": r.usd_per_million_examples, "price": r.price, "price_whose": r.price_whose,
            "how": r.how, "setting": r.setting, "estimate": r.is_estimate, "bound": r.bound, "device_type": r.device_type,
            "anchor": r.anchor, "ratio": r.ratio, "ratio_source": r.ratio_source, "precision": r.precision,
            "precision_note": r.precision_note, "per": r.per, "devices_per_rental": r.devices_per_rental,
        }
        for r in w.rows
    ]  # fmt: skip
    return pd.DataFrame(recs)


def lines(w: WhichDevice) -> list[str]:
    """The plain-text table of `engine compare --device all`."""
    epochs = w.work.text or "per epoch: not recorded"
    head = (
        f"{'device':<11} {'basis':<18} {'precision · stack':<22} {'examples/s (one device)':>28} {'× faster':>11} "
        f"{'your epochs':>17} {'USD/M ex':>9}  price · how"
    )
    out = [
        f"Which device? {w.workload}, {w.unit} per one device, fastest first; "
        f"'your epochs' = {epochs} (this run: {_n(w.baseline_rate)} {w.unit}, "
        f"{duration_text(w.baseline_epoch_time_s)}); one device = one GPU or one TPU chip",
        w.scale_note,
        head,
    ]
    for r in w.rows:
        price = r.price_short if r.price_whose else "no price in the table: pass --price KEY=USD"
        out.append(
            f"{r.device:<11} {basis_text(r):<18} {r.setting:<22} {rate_text(r):>28} {speedup_text(r):>11} {epoch_text(r):>17} "
            f"{usd_text(r.usd_per_million_examples):>9}  {price} · {scale_text(r)} · {r.how}"
        )
    out += beside_lines(w)
    out += [f"left out ({why})" for why in w.left_out]
    return out


def scale_text(r: DeviceRow) -> str:
    """'measured (the anchor)', '= H100 × 0.584 (Lambda, PyTorch (mixed fp16))', '= H200 × 1.14 (step model)'."""
    if r.ratio is None:
        return "on its own figure's scale"
    if r.anchor is None:
        return "measured (an anchor of this scale)"
    dev = hardware_table.BY_KEY.get(r.anchor)
    if r.anchor_model:
        return f"= {r.anchor_model} measured on {dev.short if dev else r.anchor} × {r.ratio:.3g} ({r.ratio_source})"
    return f"= {dev.short if dev else r.anchor} × {r.ratio:.3g} ({r.ratio_source or 'step model'})"


def beside_lines(w: WhichDevice) -> list[str]:
    """Figures of other stacks or precisions, listed beside the ranking with their own words, never in it."""
    return [f"beside (not ranked): {r.device} {rate_text(r)} {w.unit} per {r.per}, {r.setting} — {r.beside_why}"
            + (f"; flagged {r.flag}" if r.flag else "") + (f"; {r.fed}" if r.fed else "") for r in w.beside]  # fmt: skip
