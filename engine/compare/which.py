"""Which device? Every GPU and TPU for a run's own training workload in one table, fastest first.

Built from the one answer (engine.compare.answer.answer_for_run with every device estimated): a row per device
kind — measured (by AccelBench or your store), published, or an estimate with its range — as ONE device, how many
times faster than the user's run, how long the user's own epochs would take there, and what a million examples
cost at the price used (the user's, else the price table's; the row says whose). A basis this module does not
know (a later "scaled" figure, say) is shown as the word it is. The Compare page's "Which device?" section and
`python -m engine compare --run ID --device all` both read this table. Pure Python; no streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pandas as pd

from engine.catalog import hardware_table
from engine.catalog.prices import price_for_device
from engine.compare.answer import answer_for_run
from engine.compare.estimate.error_case import with_error_cases
from engine.compare.facts.compared import Compared
from engine.compare.facts.likeforlike import FRAMEWORK_TEXT, Rate
from engine.compare.facts.silicon import DEVICES, NONE
from engine.compare.facts.which_rows import DeviceRow, WhichDevice, Work
from engine.reference.feed import fed
from engine.reference.normalize import is_missing
from engine.reference.units import same_family, units_between

BASIS_ORDER = {"measured": 0, "scaled": 1, "published": 2, "estimate": 3}  # within a family: the best evidence kept


def _num(v: Any) -> float | None:
    if is_missing(v):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) and f > 0 else None


def work_of(run: Mapping[str, Any], examples_per_epoch: float | None = None, epochs: float | None = None) -> Work:
    """The run's examples per epoch (steps per epoch × global batch) and epochs, unless the caller gives them."""
    per = _num(examples_per_epoch)
    if per is None:
        steps, batch = _num(run.get("steps_per_epoch")), _num(run.get("global_batch_size") or run.get("batch_size"))
        per = steps * batch if steps and batch else None
    return Work(per, _num(epochs) or _num(run.get("epochs")))


def _price_whose(c: Compared) -> str:
    if c.usd_per_million_examples is None:
        return ""
    return "yours" if c.price_how.startswith("user:") else "price table"


def per_chip(r: Rate) -> Rate:
    """A TPU row per chip (a v2-8 board's figure ÷ its 4 chips, the count said); any other row as it is."""
    chips = (
        units_between(r.hardware_key, DEVICES.get(r.hardware_key, NONE).unit, "chip")
        if r.device_type == "tpu"
        else None
    )
    if not chips or chips == 1:
        return r
    return replace(
        r, value=r.value / chips, low=r.low / chips if r.low else None, high=r.high / chips if r.high else None,
        label=f"{r.label} ÷ {chips:g} chips", how=f"{r.how}; ÷ {chips:g} chips = one chip's share of the board",
    )  # fmt: skip


def devices_per_rental(key: str) -> float:
    """What one rents, in devices of the row (GPUs, TPU chips): the price table's unit (a v2-8 board = 4)."""
    tpu = key in hardware_table.BY_KEY and hardware_table.BY_KEY[key].device_type == "tpu"
    for k in [key, *sorted(same_family(key) - {key})]:
        choice = price_for_device(k)
        if choice is not None:
            return units_between(k, choice.per_unit, "chip" if tpu else DEVICES.get(k, NONE).unit) or 1.0
    return 1.0


def _row(c: Compared, base_one: float, work: Work) -> DeviceRow | None:
    if c.one is None or not c.one.value > 0:
        return None
    one = per_chip(c.one)
    dev = hardware_table.BY_KEY.get(one.hardware_key)
    low = one.low if one.low is not None and one.low > 0 else None
    high = one.high if one.high is not None and one.high > 0 else None
    ex = work.examples
    s = one.settings
    usd_h = c.usd_per_million_examples * one.value * 3600 / 1e6 if c.usd_per_million_examples is not None else None
    return DeviceRow(
        hardware_key=one.hardware_key, device=dev.short if dev else one.hardware_key, label=one.label,
        rate_one_device=one.value, basis=str(one.basis or c.rate.basis or "—"), bound=one.bound or "exact",
        low=low, high=high, speedup=one.value / base_one, speedup_low=(low or one.value) / base_one,
        speedup_high=(high or one.value) / base_one, epoch_time_s=ex / one.value if ex else None,
        epoch_time_low_s=ex / high if ex and high else None, epoch_time_high_s=ex / low if ex and low else None,
        usd_per_million_examples=c.usd_per_million_examples, usd_per_hour=usd_h,
        price=c.price_how if c.usd_per_million_examples is not None else "no price: give yours",
        price_whose=_price_whose(c), how=one.how, device_type=one.device_type, setting=setting_text(one),
        method=str(c.rate.settings.get("method") or ""), beyond=float(c.rate.settings.get("beyond") or 0.0),
        law_beyond=float(c.rate.settings.get("law_beyond") or 0.0),
        input_cap=c.input_cap, anchor=s.get("anchor_key"),
        anchor_model=str(s.get("anchor_model") or ""), ratio=s.get("conversion_ratio"),
        conversion=str(s.get("conversion_class") or ""),
        ratio_source=str(s.get("ratio_source") or ""), precision=one.precision_words,
        precision_note=str(s.get("precision_note") or ""), per="chip" if one.device_type == "tpu" else "gpu",
        devices_per_rental=devices_per_rental(one.hardware_key), flag=str(s.get("saturated") or ""),
        beside_why=str(s.get("beside_why") or "") if s.get("scale_role") == "beside" else "",
        fed=fed(s) if one.origin == "reference" else "",
    )  # fmt: skip


def setting_text(r: Rate) -> str:
    """'mixed fp16 · PyTorch', 'fp32 · Keras-JAX', 'mixed bf16' (an estimate has no stack of its own)."""
    fw = str(r.settings.get("framework") or "")
    stack = "" if r.basis == "estimate" or fw in ("", "unknown") else FRAMEWORK_TEXT.get(fw, fw)
    xla = " → bf16 (XLA)" if r.settings.get("precision_note") else ""  # one_scale.TPU_FLOAT32: bf16 passes
    return " · ".join(x for x in (r.precision_words + xla, stack) if x)


def _one_per_family(rows: list[DeviceRow]) -> list[DeviceRow]:
    """A chip counted two ways (TPU v2 chips, a v2-8 board) is one device: its best-evidenced row stays."""
    best: dict[frozenset[str], DeviceRow] = {}
    for r in rows:
        fam = frozenset(same_family(r.hardware_key))
        old = best.get(fam)
        if old is None or BASIS_ORDER.get(r.basis, 9) < BASIS_ORDER.get(old.basis, 9):
            best[fam] = r
    return list(best.values())


def sort_key(r: DeviceRow) -> tuple[float, float, float]:
    """Fastest first; between equal rates the surer (higher low end), then the cheaper."""
    return (-r.rate_one_device, -(r.low or r.rate_one_device), r.usd_per_million_examples or math.inf)


def which_device(
    run: Mapping[str, Any],
    ref: pd.DataFrame | None,
    prices: Mapping[str, Any] | None = None,
    work: Work | None = None,
    store_runs: Iterable[Mapping[str, Any]] | None = None,
) -> WhichDevice | None:
    """Every device for `run`'s training workload, fastest first. `prices`: the user's USD/h for one device per
    hardware key (they override the price table's); `work`: the epochs to time (default: the run's own);
    `store_runs`: the results store's runs, the first evidence for a device (engine.compare.evidence.rates). None
    for a run with no rate or one that is not training (a microbenchmark measures GFLOP/s, not examples)."""
    answer = answer_for_run(run, ref, prices=prices, all_devices=True, store_runs=store_runs)
    if answer is None or answer.baseline.task != "training":
        return None
    base = answer.rows[0]
    base_one = (base.one or base.rate).value
    work = work or work_of(run)
    rows, left_out = [], []
    for c in answer.rows[1:]:
        if c.rate.device_type not in ("gpu", "tpu") or c.rate.origin == "peak":
            continue
        got = _row(c, base_one, work)
        if got is None:
            left_out.append(f"{c.rate.label}: a system whose source does not say how many devices it used")
            continue
        rows.append(got)
    beside = [r for r in rows if r.beside_why]
    ranked = sorted(_one_per_family(on_one_scale([r for r in rows if not r.beside_why])), key=sort_key)
    fitted = {k for c in answer.rows for k in c.rate.settings.get("fit_devices", ())}  # what the step model saw
    ranked = with_error_cases(ranked, beside, fitted)  # each estimate's own error (issue 36 item 6)
    note = next((str(c.rate.settings["scale_note"]) for c in answer.rows if c.rate.settings.get("scale_note")), "")
    return WhichDevice(
        str(run.get("run_id") or ""), answer.baseline.workload, answer.baseline.unit, base.rate.label, base_one,
        work, tuple(ranked), tuple(left_out), setting_text(base.rate), tuple(sorted(beside, key=sort_key)),
        note or SCALE_NOTE_NONE,
    )  # fmt: skip


SCALE_NOTE_NONE = "No device was measured for this model at this precision: each row is on the scale of its own figure."


def on_one_scale(rows: list[DeviceRow]) -> list[DeviceRow]:
    """Each row's ratio to its anchor row of the same table (a measured anchor's own ratio: 1); a row whose
    anchor is not a measured row of this table has none (it is on its own figure's scale) — except a scaled row
    hanging from another row that is itself on the scale (a TPU from the root TPU: engine.compare.estimate.tpu_chain and
    tpu_family). A converted anchor (another model measured on this device, engine.compare.scale.converted) is a root
    with its conversion's ratio."""
    # the roots: measured anchors, or another model measured and converted by traced cost (scale.converted)
    measured = {r.hardware_key: r.rate_one_device for r in rows if _is_root(r)}
    out = [_on_measured(r, measured) for r in rows]
    placed = {r.hardware_key: r.rate_one_device for r in out if r.ratio is not None}
    for i, r in enumerate(rows):
        chained = r.basis in ("scaled", "estimate")  # a TPU from the root TPU: a source's ratio or the TPU law
        if out[i].ratio is None and chained and r.anchor in placed and r.anchor != r.hardware_key:
            out[i] = replace(r, ratio=r.rate_one_device / placed[r.anchor])
    return out


def _is_root(r: DeviceRow) -> bool:
    return (r.basis == "measured" and r.anchor is None) or bool(r.anchor_model)


def _on_measured(r: DeviceRow, measured: Mapping[str, float]) -> DeviceRow:
    if r.anchor_model:  # its ratio is the conversion's: anchor = the other model's measured row on this device
        return r
    if r.basis == "measured" and r.anchor is None:
        return replace(r, ratio=1.0)
    if r.anchor is not None and r.anchor in measured:
        return replace(r, ratio=r.rate_one_device / measured[r.anchor])
    return replace(r, anchor=None, ratio=None)


# the table as text, JSON and a frame (engine.compare.words.which_text), read through this module by its callers
from engine.compare.words.which_text import (  # noqa: E402
    basis_text,
    duration_text,
    epoch_text,
    frame,
    lines,
    rate_text,
    scale_text,
    speedup_text,
    to_json,
    usd_text,
)

__all__ = [
    "DeviceRow",
    "WhichDevice",
    "Work",
    "basis_text",
    "duration_text",
    "epoch_text",
    "frame",
    "lines",
    "rate_text",
    "scale_text",
    "sort_key",
    "speedup_text",
    "to_json",
    "usd_text",
    "which_device",
    "work_of",
]
