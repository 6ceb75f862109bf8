"""Answers that know the host (issue 38 item 4): what this run's input pipeline would deliver on the host of
the offer that prices each device, beside what the device alone would train.

A run on real data measured its pipeline alone (`input_examples_per_sec`, with `input_workers` of
`input_cores`). Its rate per core × the offer's host vCPUs per device (the price table's `host_vcpus`) is an
ESTIMATE of the examples/s that host can feed one device: it assumes the pipeline scales with cores and that
a host core is as fast as this machine's. Where the device alone would outrun it, the device would wait for
input there: its row is capped at the pipeline's rate (ranked and priced by the lower of the two) and says
what would lift the cap. Synthetic runs (no pipeline measured) are left as they are.

`with_input_caps` is the one hook (engine.compare.answer.answer_for_run); every capped or checked row keeps
its HostCap in its one-device rate's settings ("input_cap"), so the Which-device table, the JSON and the pages
read the same figure. Pure Python; no streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.catalog import hardware_table
from engine.catalog.prices import Price, default_price
from engine.compare.facts.compared import Compared
from engine.compare.words.sentence import headline, headline_order

SETTINGS_KEY = "input_cap"
LIFTS = (
    "more input workers (--input-workers)",
    "caching the decoded set (--cache)",
    "pre-decoded data (resized arrays, not JPEGs)",
    "GPU decode (NVIDIA DALI / nvJPEG)",
)
ESTIMATE_WORDS = (
    "an estimate: this run's pipeline rate per core × the host's vCPUs per device, assuming the pipeline "
    "scales with cores and a host core is as fast as this machine's"
)


def finite_number(v: Any) -> float | None:
    """A stored field as a float; None for a missing, non-numeric, NaN or infinite one."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _num(v: Any) -> float | None:
    f = finite_number(v)
    return f if f is not None and f > 0 else None


@dataclass(frozen=True)
class HostCap:
    """One device's host: its vCPUs per device, the pipeline's estimated rate there and the device alone's.

    Attributes:
      hardware_key: the device; host: the offer whose host it is ("AWS p5.48xlarge (8x H100 80GB) … / 8").
      host_vcpus: that host's vCPUs per device; host_vcpus_source: where the count is from.
      per_core_examples_per_sec: this run's pipeline alone ÷ the cores it used.
      input_cap_examples_per_sec: per core × host_vcpus (an estimate).
      device_alone_examples_per_sec: what the answer says one device alone would train.
    """

    hardware_key: str
    host: str
    host_vcpus: float
    host_vcpus_source: str
    per_core_examples_per_sec: float
    input_cap_examples_per_sec: float
    device_alone_examples_per_sec: float

    @property
    def waits_for_input(self) -> bool:
        return self.device_alone_examples_per_sec > self.input_cap_examples_per_sec

    @property
    def delivered_examples_per_sec(self) -> float:
        """The lower of the two: what this run would train at there."""
        return min(self.device_alone_examples_per_sec, self.input_cap_examples_per_sec)

    @property
    def device(self) -> str:
        known = hardware_table.BY_KEY.get(self.hardware_key)
        return known.short if known else self.hardware_key

    def short_text(self) -> str:
        """'H100: alone ≈1,345 ex/s; its host's pipeline ≈480 ex/s (24 vCPUs) → would wait for input'."""
        verdict = "would wait for input" if self.waits_for_input else "input keeps up"
        return (
            f"{self.device}: alone ≈{self.device_alone_examples_per_sec:,.0f} ex/s; its host's pipeline "
            f"≈{self.input_cap_examples_per_sec:,.0f} ex/s ({self.host_vcpus:g} vCPUs) → {verdict}"
        )

    def text(self, device: str = "") -> str:
        """One sentence: the host's pipeline rate, the device alone, and whether it would wait."""
        dev = device or self.device
        feed = (
            f"On the {dev}'s host ({self.host}: {self.host_vcpus:g} vCPUs per device), this run's input pipeline "
            f"would deliver about {self.input_cap_examples_per_sec:,.0f} examples/s "
            f"({self.per_core_examples_per_sec:,.3g} per core × {self.host_vcpus:g}; {ESTIMATE_WORDS})"
        )
        if self.waits_for_input:
            return (
                f"{feed}, below the {self.device_alone_examples_per_sec:,.0f} the {dev} alone would train: it would "
                f"wait for input there, so the answer is the pipeline's rate; {', '.join(LIFTS[:-1])} or "
                f"{LIFTS[-1]} would lift it."
            )
        return (
            f"{feed}, above the {self.device_alone_examples_per_sec:,.0f} the {dev} alone would train: input keeps up."
        )


def per_core_examples_per_sec(run: Mapping[str, Any]) -> float | None:
    """The run's pipeline alone per host core it used (fields contract: input_eps ÷ min(workers or cores, cores));
    None for a synthetic run or one that did not record its pipeline."""
    eps = _num(run.get("input_examples_per_sec"))
    cores, workers = _num(run.get("input_cores")), _num(run.get("input_workers"))
    used = min(workers or cores or 0.0, cores) if cores else workers
    return eps / used if eps and used else None


def host_of(hardware_key: str) -> Price | None:
    """The price table's default offer for the device, when it states its host's vCPUs per device."""
    row = default_price(hardware_key)
    return row if row is not None and row.host_vcpus else None


def cap_for(hardware_key: str, per_core: float, device_alone: float) -> HostCap | None:
    """The host cap of one device of `hardware_key`; None when its offer's vCPUs are not known."""
    row = host_of(hardware_key)
    if row is None or row.host_vcpus is None:
        return None
    host = row.offer
    cap = per_core * row.host_vcpus
    return HostCap(hardware_key, host, row.host_vcpus, row.host_vcpus_source, per_core, cap, device_alone)


def _capped(c: Compared, per_core: float, base_value: float) -> Compared:
    """The row with its HostCap in its one-device settings; capped at the pipeline's rate where it would wait."""
    one = c.one
    if one is None or c.rate.device_type not in ("gpu", "tpu") or c.rate.origin == "peak":
        return c
    cap = cap_for(one.hardware_key, per_core, one.value)
    if cap is None:
        return c
    settings = {**one.settings, SETTINGS_KEY: cap}
    if not cap.waits_for_input:
        return replace(c, one=replace(one, settings=settings), input_cap=cap)
    v = cap.input_cap_examples_per_sec
    how = f"{one.how}; capped at this run's input pipeline on its host (≈{v:,.0f} examples/s, an estimate)"
    low = min(one.low, v) if one.low is not None else None
    high = min(one.high, v) if one.high is not None else None
    capped_one = replace(one, value=v, low=low, high=high, how=how, settings=settings)
    usd = c.usd_per_million_examples * one.value / v if c.usd_per_million_examples is not None else None
    per = v / base_value
    return replace(
        c, one=capped_one, input_cap=cap, per_device_speedup=per, low=min(c.low if c.low is not None else per, per),
        high=min(c.high if c.high is not None else per, per), usd_per_million_examples=usd,
    )  # fmt: skip


def cap_of(c: Compared) -> HostCap | None:
    """The HostCap a row carries (None: synthetic run, or the offer's host vCPUs are not known)."""
    cap = c.one.settings.get(SETTINGS_KEY) if c.one is not None else None
    return cap if isinstance(cap, HostCap) else None


def headline_cap(rows: Sequence[Compared], baseline: Any) -> HostCap | None:
    """The cap of the device the headline names first."""
    ordered = headline_order(rows, baseline)
    return cap_of(ordered[0]) if ordered else None


def with_input_caps(answer: Any, run: Mapping[str, Any]) -> Any:
    """`answer`: an engine.compare.answer.Answer (not imported: answer.py calls this). The answer with every device row checked against its host's input pipeline (module doc); unchanged for
    a run with no measured pipeline (synthetic data)."""
    per_core = per_core_examples_per_sec(run)
    base = answer.rows[0]
    base_value = (base.one or base.rate).value
    if per_core is None or not base_value > 0:
        return answer
    rows = [base, *(_capped(c, per_core, base_value) for c in answer.rows[1:])]
    rows[1:] = sorted(rows[1:], key=lambda c: -(c.per_device_speedup or c.speedup))
    h = headline(answer.baseline, rows[1:])
    cap = headline_cap(rows[1:], answer.baseline)
    text = f"{h.text} {cap.text()}" if cap and h.text else h.text
    return replace(
        answer, rows=tuple(rows), headline=text, number=h.number, low=h.low, high=h.high, basis=h.basis,
        usd_per_million_examples=h.usd_per_million_examples, price_how=h.price_how, bound=h.bound,
        evidence=h.evidence,
    )  # fmt: skip


def cap_json(cap: HostCap | None) -> dict[str, Any]:
    """The JSON keys every real-data answer carries (None where the host's vCPUs are not known)."""
    return {
        "input_cap_examples_per_sec": cap.input_cap_examples_per_sec if cap else None,
        "host_vcpus": cap.host_vcpus if cap else None,
        "device_alone_examples_per_sec": cap.device_alone_examples_per_sec if cap else None,
        "waits_for_input": cap.waits_for_input if cap else None,
        "input_cap_host": cap.host if cap else None,
    }
