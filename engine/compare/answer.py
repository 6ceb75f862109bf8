"""The answer to "how much faster would that GPU or TPU be than this machine, for my model?": a baseline (the
user's run) against other rows as rates of work, under the one same-workload rule (engine.compare.facts.workload),
each graded (engine.compare.facts.grade) and seen as ONE device (engine.compare.facts.single), in one sentence with the
number and the cost per million examples — the same on the Run page, on Compare and from `engine compare`.

answer_for_run is one forward pipeline: the run, your store's runs and the reference table as rates, split by the
one rule (engine.compare.evidence.rates) → candidate figures per device (the pack, published rows, scaled rows and
estimates: picks) → grade → one device → sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from engine.compare.evidence.rates import evidence_of, split
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.compared import Compared, compared_rows
from engine.compare.facts.run import facts_of
from engine.compare.picks import answer_rows, reference_rates
from engine.compare.words.sentence import WORKLOAD_NAMES, headline, times, times_range


@dataclass(frozen=True)
class Answer:
    """The baseline, every comparable row (baseline first), the rows of other workloads with the reason (never
    in a ratio), rows in another unit, the sentence, and its first clause's number, range, basis and cost."""

    baseline: lfl.Rate
    rows: tuple[Compared, ...]
    left_out: tuple[str, ...]
    headline: str
    number: float | None
    low: float | None
    high: float | None
    other_workloads: tuple[tuple[str, str], ...] = ()
    basis: str | None = None
    usd_per_million_examples: float | None = None
    price_how: str = ""
    bound: str = ""
    evidence: str = ""


def rates_for_ids(ids: Iterable[str], ref: pd.DataFrame | None, precision: str = "float32") -> list[lfl.Rate]:
    """Rates for explicit ids: reference ref_ids, or "peak:<hardware_key>" for a datasheet peak.

    Raises:
      KeyError: an id that names no reference row or no known peak.
    """
    by_id = {r["ref_id"]: r for r in ref.to_dict("records")} if ref is not None else {}
    out = []
    for i in ids:
        rate = lfl.peak_rate(i.removeprefix("peak:"), precision) if i.startswith("peak:") else None
        if not i.startswith("peak:") and i in by_id:
            rate = lfl.rate_of_reference(by_id[i])
            if rate is None:
                raise KeyError(f"{i}: this reference publishes no rate or time that can be compared")
        if rate is None:
            raise KeyError(f"{i}: no such reference row or datasheet peak")
        out.append(rate)
    return out


def compare(baseline: lfl.Rate, others: Sequence[lfl.Rate], prices: Mapping[str, Any] | None = None) -> Answer:
    """The baseline against every row of the same workload in the same unit; rows of other workloads are
    listed apart with the reason and never enter a ratio. `prices`: the user's USD/h per hardware key."""
    return _answer(baseline, *split(baseline, others), prices)


def _answer(
    baseline: lfl.Rate,
    same: Sequence[lfl.Rate],
    other_work: Sequence[tuple[lfl.Rate, str]],
    prices: Mapping[str, Any] | None,
) -> Answer:
    """The answer from rows already split by the one rule: `same` of the baseline's workload, `other_work` with
    the reason they are not (listed apart)."""
    from engine.compare.rank.efficiency import prices_for  # the one price rule (user's, else the price table's)

    left_out, kept = [], []
    for r in same:
        if r.id == baseline.id:
            continue
        if r.unit != baseline.unit:
            left_out.append(f"{r.label}: {r.unit}, not {baseline.unit}")
            continue
        kept.append((r, r.one if r.origin != "peak" else None))
    other = [(r.label, why) for r, why in other_work if r.id != baseline.id and r.unit == baseline.unit]
    left_out += [f"{r.label}: {r.unit}, not {baseline.unit}" for r, _ in other_work if r.unit != baseline.unit]
    training = [(i, one, r) for i, (r, one) in enumerate(kept) if one is not None and r.task == "training"]
    got = prices_for([(one, (prices or {}).get(r.hardware_key)) for _, one, r in training])  # all rows at once
    price = dict(zip([i for i, _, _ in training], got, strict=True))
    rows = compared_rows(baseline, kept, price)  # the baseline's row first, each kept row against it
    rows[1:] = sorted(rows[1:], key=lambda c: -(c.per_device_speedup or c.speedup))
    h = headline(baseline, rows[1:])
    return Answer(
        baseline, tuple(rows), tuple(left_out), h.text, h.number, h.low, h.high, tuple(other), h.basis,
        h.usd_per_million_examples, h.price_how, h.bound, h.evidence,
    )  # fmt: skip


def answer_for_run(
    run: Mapping[str, Any],
    ref: pd.DataFrame | None,
    ids: Sequence[str] | None = None,
    prices: Mapping[str, Any] | None = None,
    device: str | None = None,
    all_devices: bool = False,
    store_runs: Iterable[Mapping[str, Any]] | None = None,
) -> Answer | None:
    """A finished run against "auto" (one row per device kind for its workload: a run in your store, else
    measured by AccelBench, else published — anchored on a measured device where one source published both —
    else estimated) or the given ids; `device` keeps one hardware key; `all_devices` estimates every GPU and TPU
    with a datasheet peak, not only the rentable few (engine.compare.which). `store_runs`: result rows of the
    store (engine.compare.evidence.rates.runs_of), the first evidence for a device. None when the run measured no
    rate (failed, cancelled)."""
    ev = evidence_of(run, ref, store_runs)  # the run, your store's runs, the reference table: rates, made once
    if ev is None:
        return None
    base = ev.base
    precision = str(run.get("dtype") if base.task == "micro" else run.get("precision") or "float32")
    ids = list(ids or ["auto"])
    same: list[lfl.Rate] = []
    other: list[tuple[lfl.Rate, str]] = []
    if "auto" in ids:  # all_devices: every GPU/TPU with a peak estimated where nothing was measured (issue 29/7)
        facts = facts_of(base)  # the run's facts, read once and carried through every stage
        same, other = answer_rows(ev, ref, facts, device, all_devices), list(ev.other_shapes)
    if named := rates_for_ids([i for i in ids if i != "auto"], ref, precision):  # the user's own picks
        named_same, named_other = split(base, named)  # checked by the same rule
        same, other = same + named_same, other + named_other
    user = dict(prices or {})
    if run.get("price_per_hour_usd") and base.hardware_key not in user:
        user[base.hardware_key] = run["price_per_hour_usd"]
    from engine.compare.words.input_cap import with_input_caps  # each device against its host's input pipeline (38/4)

    return with_input_caps(_answer(base, same, other, user), run)


def to_json(a: Answer) -> dict[str, Any]:
    """One object: the baseline, every row (rate, how it was found, speedup, grade, cost) and the headline."""

    from engine.compare.words.input_cap import cap_json, cap_of, headline_cap

    def row(c: Compared) -> dict[str, Any]:
        r = c.rate
        return cap_json(cap_of(c)) | {
            "id": r.id, "label": r.label, "origin": r.origin, "basis": r.basis, "hardware_key": r.hardware_key,
            "precision": r.precision, "rate": r.value, "unit": r.unit, "devices": r.devices,
            "rate_one_device": c.one.value if c.one else None, "derivation": r.derivation, "how": r.how,
            "bound": r.bound or "exact", "speedup": c.speedup, "per_device_speedup": c.per_device_speedup,
            "range": [c.low, c.high] if c.low is not None else None, "time_ratio": c.time_ratio,
            "usd_per_million_examples": c.usd_per_million_examples, "price": c.price_how or None,
            "grade": c.grade.grade if c.grade else "baseline",
            "differences": list(c.grade.top) if c.grade else [], "details": list(c.grade.details) if c.grade else [],
            "doubtful": r.doubtful, "doubt_reason": r.doubt_reason,
            "provenance": r.settings.get("provenance") or r.settings.get("scaled_words"),
            "run_label": r.settings.get("run_label"), "created_at": r.settings.get("created_at"),
            "device_name": r.settings.get("device_name"),
        }  # fmt: skip

    return {
        "baseline": a.baseline.id,
        "unit": a.baseline.unit,
        "headline": a.headline,
        "speedup": a.number,
        "range": [a.low, a.high] if a.low is not None else None,
        "basis": a.basis,  # measured | scaled | published | estimate | peak
        "evidence": a.evidence or None,  # where the headline's figure came from, in words
        "bound": a.bound or "exact",  # "at most": the speedup is a ceiling
        "usd_per_million_examples": a.usd_per_million_examples,
        "price": a.price_how or None,
        "rows": [row(c) for c in a.rows],
        "other_workloads": [{"label": label, "reason": why} for label, why in a.other_workloads],
        "left_out": list(a.left_out),
        **cap_json(headline_cap(a.rows[1:], a.baseline)),  # the headline device's host (issue 38)
    }


def table(a: Answer) -> pd.DataFrame:
    """The normalised table, one row per compared rate (baseline first), for pages and the CLI."""
    recs = []
    for c in a.rows:
        r = c.rate
        recs.append(
            {
                "row": r.label, "origin": r.origin, "basis": r.basis, "rate": r.value, "unit": r.unit,
                "one_device": c.one.value if c.one else None, "how": r.how, "speedup": c.speedup,
                "per_device_speedup": c.per_device_speedup, "usd_per_million_examples": c.usd_per_million_examples,
                "grade": c.grade.grade if c.grade else "baseline",
                "differences": ", ".join(c.grade.top) if c.grade else "", "id": r.id,
            }
        )  # fmt: skip
    return pd.DataFrame(recs)


auto_references = reference_rates  # every reference row of the same workload

__all__ = [
    "auto_references",
    "WORKLOAD_NAMES",
    "Answer",
    "Compared",
    "answer_for_run",
    "compare",
    "times",
    "times_range",
    "to_json",
]
