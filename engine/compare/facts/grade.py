"""How like for like two rows are, once both are rates of work: a grade (same / close / different)
with the few differences that matter most, and the full list for an expander.

The one comparability engine: Compare, the Run card, the CLI, References and History all ask it.
Differences the normalisation removes — epochs, steps per epoch, the size of the workload — are
not warnings any more (they are listed as "normalised" in the full list only).
Rows are reference-schema dicts (reference rows, or a run's `normalize.local_settings`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.reference.normalize import global_batch, is_missing

MAJOR, MINOR, NORMALISED = 2, 1, 0
GRADES = ("same", "close", "different")


@dataclass(frozen=True)
class Difference:
    """One setting on which two rows differ. weight: MAJOR, MINOR or NORMALISED; short: a few words
    for the headline ("batch 64 vs 1024"); long: the sentence for the full list."""

    setting: str
    weight: int
    short: str
    long: str


@dataclass(frozen=True)
class Grade:
    """grade: "same", "close" or "different"; top: the 1–3 differences that matter most (short form);
    details: every difference (long form)."""

    grade: str
    top: tuple[str, ...]
    details: tuple[str, ...]


def _v(row: Mapping[str, Any], key: str) -> Any:
    v = row.get(key)
    return None if is_missing(v) or v == "unknown" else v


def _version(row: Mapping[str, Any]) -> str | None:
    ver = _v(row, "framework_version")
    m = re.match(r"(\d+\.\d+)", str(ver or ""))
    return m.group(1) if m else None


def _batch(row: Mapping[str, Any]) -> int | None:
    b = global_batch(row)
    if b is None and not is_missing(row.get("batch_size")):
        return int(row["batch_size"])  # scope not stated: the number still says something
    return b


def _cmp_batch(a: Any, b: Any) -> int:
    return MAJOR if max(a, b) / min(a, b) > 4 else MINOR


@dataclass(frozen=True)
class Setting:
    name: str
    get: Callable[[Mapping[str, Any]], Any]
    weight: int | Callable[[Any, Any], int]
    short: Callable[[Any, Any], str]
    why: str


SETTINGS: tuple[Setting, ...] = (
    Setting("model", lambda r: _v(r, "model"), MAJOR, lambda a, b: f"{a} vs {b}", "different models do different work"),
    Setting("task", lambda r: _v(r, "task"), MAJOR, lambda a, b: f"{a} vs {b}", "inference is not training"),
    Setting(
        "dataset", lambda r: _v(r, "dataset"), MAJOR, lambda a, b: f"{a} vs {b} data", "image size changes the work"
    ),
    Setting(
        "data",
        lambda r: _v(r, "data_kind"),
        MINOR,
        lambda a, b: f"{a} data here",
        "synthetic data skips reading and decoding, so it usually runs faster",
    ),
    Setting(
        "batch",
        _batch,
        _cmp_batch,
        lambda a, b: f"batch {a} vs {b}",
        "larger batches keep accelerators busier and raise examples/s",
    ),
    Setting(
        "precision",
        lambda r: _v(r, "precision"),
        MAJOR,
        lambda a, b: f"{a} vs {b}",
        "reduced precision uses tensor cores/MXUs and can be several times faster",
    ),
    Setting(
        "XLA",
        lambda r: None if is_missing(r.get("xla")) else bool(r.get("xla")),
        MINOR,
        lambda a, b: "XLA " + ("on" if a else "off") + " here",
        "XLA fuses ops and can change speed",
    ),  # fmt: skip
    Setting("framework", lambda r: _v(r, "framework"), MINOR, lambda a, b: f"{a} vs {b}", "kernels differ"),
    Setting("TF version", _version, MINOR, lambda a, b: f"TF {a} vs {b}", "kernels and defaults change"),
)
NORMALISED_SETTINGS = {
    "epochs": "compared per example, so the number of epochs does not matter",
    "steps_per_epoch": "compared per example, so the steps per epoch do not matter",
    "shape": "compared per FLOP, so the size of the operation is normalised (small shapes reach fewer GFLOP/s)",
}


def differences(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[Difference]:
    """Settings on which `theirs` differs from `mine`, most important first (unstated ones are MINOR)."""
    out: list[Difference] = []
    for s in SETTINGS:
        a, b = s.get(mine), s.get(theirs)
        if a is None and b is None or a == b:
            continue
        if a is None or b is None:
            out.append(Difference(s.name, MINOR, f"{s.name} not stated", f"{_cap(s.name)} not stated ({a or b})."))
            continue
        weight = s.weight(a, b) if callable(s.weight) else s.weight
        out.append(Difference(s.name, weight, s.short(a, b), f"{_cap(s.name)}: {a} here, {b} there — {s.why}."))
    for key, why in NORMALISED_SETTINGS.items():
        a, b = _v(mine, key), _v(theirs, key)
        if a is not None and b is not None and a != b:
            out.append(Difference(key, NORMALISED, "", f"{key.replace('_', ' ').capitalize()}: {a} vs {b} — {why}."))
    return sorted(out, key=_rank)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _rank(d: Difference) -> tuple[int, bool]:
    """Heavier first; among equals, a stated difference before a setting a source did not state."""
    return -d.weight, d.short.endswith("not stated")


def _quality(theirs: Mapping[str, Any], derivation: str) -> list[Difference]:
    out = []
    kind = theirs.get("value_kind")
    if theirs.get("doubtful"):
        # doubt about how precise a figure is (approximate, a bound) is minor; doubt about what it measured is not
        imprecise = kind in ("approx", "lower_bound", "upper_bound")
        short = "approximate figure" if imprecise else "doubtful figure"
        reason = theirs.get("doubt_reason") or ""
        out.append(Difference("doubtful", MINOR if imprecise else MAJOR, short, f"Flagged doubtful: {reason}."))
    if kind in ("lower_bound", "upper_bound") and not theirs.get("doubtful"):
        out.append(Difference("bound", MINOR, "a bound", f"The published figure is a {kind.replace('_', ' ')}."))
    if derivation == "estimate":
        out.append(
            Difference(
                "estimate", MINOR, "estimated, not measured",
                "An estimate for this run's model and batch on that device from other figures (its range beside "
                "it; the how-text says from which), not a measurement.",
            )
        )  # fmt: skip
    if derivation == "scaled":
        out.append(
            Difference(
                "scaled", MINOR, "scaled from another device",
                "A measured figure of another device × the ratio of the two devices that one source published "
                "with one software stack (the how-text names both), not a measurement on this device.",
            )
        )  # fmt: skip
    if derivation == "peak":
        out.append(
            Difference("peak", MAJOR, "datasheet peak", "A datasheet peak, not a measurement: no run reaches it.")
        )
    return out


def grade(mine: Mapping[str, Any], theirs: Mapping[str, Any], derivation: str = "measured") -> Grade:
    """The grade of `theirs` against `mine`: "same" (nothing that changes speed differs), "close" (only
    minor differences), "different" (a model, dataset, precision, big batch gap, or a doubtful figure)."""
    diffs = differences(mine, theirs)
    if derivation == "peak":  # a datasheet states no model, data or batch: "batch not stated" is no gap in it
        diffs = [d for d in diffs if not d.short.endswith("not stated")]
    if derivation == "estimate":
        # an estimate is for the user's own run (its model, batch and stack) on another device: only its precision
        # can differ — whatever settings the row it starts from carries (a sibling model's measured row, converted)
        diffs = [d for d in diffs if d.setting == "precision"]
    diffs = sorted(diffs + _quality(theirs, derivation), key=_rank)
    counted = [d for d in diffs if d.weight > NORMALISED]
    worst = max((d.weight for d in counted), default=0)
    return Grade(GRADES[worst], tuple(d.short for d in counted[:3]), tuple(d.long for d in diffs))


def grades(mine: Mapping[str, Any], rows: Iterable[tuple[Mapping[str, Any], str]]) -> list[Grade]:
    """grade for each (settings, derivation) against `mine`, in one call (an answer's rows at once)."""
    return [grade(mine, theirs, derivation) for theirs, derivation in rows]


def differing(rows: Iterable[Mapping[str, Any]], label: Callable[[Mapping[str, Any]], str]) -> list[str]:
    """For many rows (History's selection, a References chart): one line per speed setting on which they
    disagree, e.g. 'Batch differs: 32 (a, b) vs 128 (c)'. Empty when they are like for like."""
    items = list(rows)
    out = []
    for s in SETTINGS:
        values: dict[str, list[str]] = {}
        for r in items:
            v = s.get(r)
            values.setdefault("not stated" if v is None else str(v), []).append(label(r))
        if len(values) > 1:
            shown = " vs ".join(f"{v} ({', '.join(dict.fromkeys(ls))})" for v, ls in values.items())
            out.append(f"{_cap(s.name)} differs: {shown} — {s.why}.")
    return out
