"""The answer to "how much faster would that GPU or TPU be than this machine?": a run against
references as rates of work (engine.compare.likeforlike), each graded (engine.compare.grade), and
one sentence with the number — the same on the Run page, on Compare and from `python -m engine compare`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from engine.compare import likeforlike as lfl
from engine.compare.grade import Grade, grade

# The seed articles by source id, as the project names them.
ARTICLES = {
    "SEED-COLAB-CONV": "article 000",
    "SEED-COLAB-FMNIST": "article 000",
    "SEED-VN-FLOWERS": "article 001",
    "SEED-TF-GPU-SETTINGS": "article 002",
    "SEED-RISEML": "article 003",
}
WORKLOAD_NAMES = {"fashion_cnn": "Fashion-MNIST CNN", "flowers_cnn": "flowers CNN", "bilstm": "BiLSTM"}


@dataclass(frozen=True)
class Compared:
    """One row of the answer: its rate, how many times faster than the baseline, its grade."""

    rate: lfl.Rate
    speedup: float
    per_device_speedup: float | None
    time_ratio: float | None
    grade: Grade | None  # None for the baseline itself


@dataclass(frozen=True)
class Answer:
    """The baseline (the user's run by default), every compared row (baseline first), the sentence,
    its number and the range of the matching references' speedups."""

    baseline: lfl.Rate
    rows: tuple[Compared, ...]
    left_out: tuple[str, ...]
    headline: str
    number: float | None
    low: float | None
    high: float | None


def times(x: float) -> str:
    """'355×', '12×', '3.2×', '1.15×' — a speedup for people."""
    if x >= 10:
        return f"{x:,.0f}×"
    return f"{x:.1f}×" if x >= 2 else f"{x:.2f}×"


def times_range(lo: float, hi: float) -> str:
    return times(lo) if times(lo) == times(hi) else f"{times(lo).rstrip('×')}–{times(hi)}"


def auto_references(rate: lfl.Rate, ref: pd.DataFrame | None) -> list[lfl.Rate]:
    """Every reference row of the same model (training) or operation (micro) that yields a rate."""
    if ref is None or ref.empty:
        return []
    rows = ref[(ref["model"] == rate.workload) & (ref["task"] == rate.task)]
    return [r for r in (lfl.rate_of_reference(x) for x in rows.to_dict("records")) if r is not None]


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


def compare(baseline: lfl.Rate, others: Sequence[lfl.Rate]) -> Answer:
    """The baseline against every other rate in the same unit; the rest are named in `left_out`."""
    rows = [Compared(baseline, 1.0, 1.0 if baseline.devices else None, None, None)]
    left_out = []
    for r in others:
        if r.id == baseline.id:
            continue
        if r.unit != baseline.unit:
            left_out.append(f"{r.label}: {r.unit}, not {baseline.unit}")
            continue
        g = grade(baseline.settings, r.settings, r.derivation)
        rows.append(
            Compared(r, lfl.speedup(r, baseline), lfl.per_device_speedup(r, baseline), lfl.time_ratio(r, baseline), g)
        )
    rows[1:] = sorted(rows[1:], key=lambda c: -c.speedup)
    text, number, lo, hi = _headline(baseline, rows[1:])
    return Answer(baseline, tuple(rows), tuple(left_out), text, number, lo, hi)


def _article(label: str) -> str:
    if label[:1] == "8" or label[:2] in ("11", "18") and not label[2:3].isdigit():
        return "an"  # "an 8× H100", "an 11× …"
    return "an" if label[:1].lower() in "aeiou" or label[:2] in ("H1", "L4") else "a"


def _clause(group: list[Compared], base: lfl.Rate) -> tuple[str, float, float]:
    r = group[0].rate
    speeds = [c.speedup for c in group]
    lo, hi = min(speeds), max(speeds)
    bounds = {c.rate.bound for c in group}
    word = (
        {"at most": "up to about", "at least": "at least"}.get(bounds.pop(), "about") if len(bounds) == 1 else "about"
    )
    verb = "trains" if base.task == "training" else "computes"
    if lo >= 1:
        return f"{_article(r.label)} {r.label} {verb} {word} {times_range(lo, hi)} faster than {base.label}", lo, hi
    if hi <= 1:
        return f"{base.label} {verb} about {times_range(1 / hi, 1 / lo)} faster than {r.label}", lo, hi
    return f"{_article(r.label)} {r.label} {verb} between {times(1 / lo)} slower and {times(hi)} faster", lo, hi


def _headline(base: lfl.Rate, rows: list[Compared]) -> tuple[str, float | None, float | None, float | None]:
    """'On article 000's Fashion-MNIST CNN a TPU v2-8 (published) trains about 355× faster than this CPU …'."""
    if base.origin == "peak":
        return "", None, None, None
    usable = [c for c in rows if c.rate.origin != "peak" and not (c.grade and "doubtful figure" in c.grade.top)]
    usable = usable or [c for c in rows if c.rate.origin != "peak"] or rows
    if not usable:
        return "", None, None, None
    groups: dict[str, list[Compared]] = {}
    for c in usable:
        groups.setdefault(c.rate.label, []).append(c)
    clauses = [_clause(g, base) for g in list(groups.values())[:3]]
    verb = "trains" if base.task == "training" else "computes"
    if all(c.rate.origin == "peak" for c in usable):
        r, s = usable[0].rate, usable[0].speedup
        text = f"{r.label} is {times(s)} the rate {base.label} measured ({base.value:,.3g} {base.unit}); a peak, not measured."
        return text, s, s, s
    sources = {ARTICLES.get(c.rate.source_id, c.rate.source_id) for c in usable}
    what = WORKLOAD_NAMES.get(base.workload, base.workload)
    source = sources.pop() if len(sources) == 1 else None
    if source is None:
        where = f"On {what} (several sources)"
    elif source.startswith("file:"):  # rows imported on History: the file is where, not whose
        where = f"On {what} in {source.removeprefix('file:')},"
    else:
        where = f"On {source}'s {what}"
    basis = "per example" if base.task == "training" else "per FLOP"
    if any(c.rate.derivation == "derived" for c in usable):
        basis += ", derived from the published workload"
    top = [t for t in (usable[0].grade.top if usable[0].grade else ()) if not t.endswith("not stated")][:2]
    text = f"{where} {clauses[0][0]}"
    for clause, _, _ in clauses[1:]:
        short = clause.split(" faster than ")[0].replace(f" {verb} ", " ")
        text += f"; {short}" if clause.endswith(f" faster than {base.label}") else f"; {clause}"
    text += f" ({basis}{'; ' + ', '.join(top) if top else ''})."
    lo, hi = clauses[0][1], clauses[0][2]
    return text, math.sqrt(lo * hi), lo, hi


def answer_for_run(run: Mapping[str, Any], ref: pd.DataFrame | None, ids: Sequence[str] | None = None) -> Answer | None:
    """A finished run against its references ("auto": same model/operation) or the given ids; None when
    the run measured no rate (failed, cancelled)."""
    base = lfl.rate_of_run(run)
    if base is None:
        return None
    precision = str(run.get("dtype") if base.task == "micro" else run.get("precision") or "float32")
    ids = list(ids or ["auto"])
    others = auto_references(base, ref) if "auto" in ids else []
    others += rates_for_ids([i for i in ids if i != "auto"], ref, precision)
    return compare(base, others)


def to_json(a: Answer) -> dict[str, Any]:
    """One object: the baseline, every row (rate, how it was derived, speedup, grade) and the headline."""

    def row(c: Compared) -> dict[str, Any]:
        r = c.rate
        return {
            "id": r.id, "label": r.label, "origin": r.origin, "hardware_key": r.hardware_key,
            "rate": r.value, "unit": r.unit, "devices": r.devices, "rate_per_device": r.per_device,
            "derivation": r.derivation, "how": r.how, "bound": r.bound or "exact",
            "speedup": c.speedup, "per_device_speedup": c.per_device_speedup, "time_ratio": c.time_ratio,
            "grade": c.grade.grade if c.grade else "baseline",
            "differences": list(c.grade.top) if c.grade else [], "details": list(c.grade.details) if c.grade else [],
            "doubtful": r.doubtful, "doubt_reason": r.doubt_reason,
        }  # fmt: skip

    return {
        "baseline": a.baseline.id,
        "unit": a.baseline.unit,
        "headline": a.headline,
        "speedup": a.number,
        "range": [a.low, a.high] if a.low is not None else None,
        "rows": [row(c) for c in a.rows],
        "left_out": list(a.left_out),
    }


def table(a: Answer) -> pd.DataFrame:
    """The normalised table, one row per compared rate (baseline first), for pages and the CLI."""
    recs = []
    for c in a.rows:
        r = c.rate
        recs.append(
            {
                "row": r.label, "origin": r.origin, "rate": r.value, "unit": r.unit, "per_device": r.per_device,
                "how": r.how, "speedup": c.speedup, "grade": c.grade.grade if c.grade else "baseline",
                "differences": ", ".join(c.grade.top) if c.grade else "", "id": r.id,
            }
        )  # fmt: skip
    return pd.DataFrame(recs)
