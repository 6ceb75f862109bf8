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
from typing import Any

import pandas as pd

from engine.compare.answer import answer_for_run
from engine.compare.compared import Compared
from engine.compare.input_cap import cap_of
from engine.compare.likeforlike import FRAMEWORK_TEXT, Rate, precision_text
from engine.compare.which_rows import DeviceRow, WhichDevice, Work
from engine.reference.normalize import is_missing
from engine.reference.units import same_family
from engine.spec import hardware_table

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


def _row(c: Compared, base_one: float, work: Work) -> DeviceRow | None:
    one = c.one
    if one is None or not one.value > 0:
        return None
    dev = hardware_table.BY_KEY.get(one.hardware_key)
    low = one.low if one.low is not None and one.low > 0 else None
    high = one.high if one.high is not None and one.high > 0 else None
    ex = work.examples
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
        method=str(c.rate.settings.get("method") or ""), input_cap=cap_of(c),
    )  # fmt: skip


def setting_text(r: Rate) -> str:
    """'mixed fp16 · PyTorch', 'fp32 · Keras-JAX', 'mixed bf16' (an estimate has no stack of its own)."""
    fw = str(r.settings.get("framework") or "")
    stack = "" if r.basis == "estimate" or fw in ("", "unknown") else FRAMEWORK_TEXT.get(fw, fw)
    return " · ".join(x for x in (precision_text(r.precision), stack) if x)


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
    `store_runs`: the results store's runs, the first evidence for a device (engine.compare.store_rows). None
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
    rows = sorted(_one_per_family(rows), key=sort_key)
    return WhichDevice(
        str(run.get("run_id") or ""), answer.baseline.workload, answer.baseline.unit, base.rate.label, base_one,
        work, tuple(rows), tuple(left_out), setting_text(base.rate),
    )  # fmt: skip


# the table as text, JSON and a frame (engine.compare.which_text), read through this module by its callers
from engine.compare.which_text import (  # noqa: E402
    basis_text,
    duration_text,
    epoch_text,
    frame,
    lines,
    rate_text,
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
    "sort_key",
    "speedup_text",
    "to_json",
    "usd_text",
    "which_device",
    "work_of",
]
