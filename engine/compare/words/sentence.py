"""The answer's sentence, per single device: "On ResNet-50, one H100 (mixed bf16, measured by AccelBench) would
train about 68× faster than this CPU (TF, fp32), at $0.52 per million examples (price table); one A100 (fp32,
published) about 20×; …". A run in your store says where and when it measured ("measured on Tesla T4, run
2026-11-25, label colab-t4"); a scaled figure says what it was scaled from ("measured on H100 × Lambda's B200/H100
ratio"); an estimate always says "estimate" and its range; a system whose device count its source did not state
never enters it (it stays in the table as a system).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.catalog.prices import usd_text
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.compared import Compared

WORKLOAD_NAMES = {
    "fashion_cnn": "Fashion-MNIST CNN", "flowers_cnn": "flowers CNN", "bilstm": "BiLSTM", "resnet50": "ResNet-50",
    "resnet152v2": "ResNet152V2", "inceptionv3": "InceptionV3", "vgg19": "VGG19", "xception": "Xception",
    "tiny_cnn": "tiny CNN", "reuters_conv1d": "Reuters Conv1D",
}  # fmt: skip
BASIS_RANK = {"measured": 0, "scaled": 1, "published": 2, "estimate": 3, "peak": 4}
SOURCE_WORDS = {"measured": "measured by AccelBench", "published": "published", "estimate": "estimate"}


def source_words(r: lfl.Rate) -> str:
    """How a row's figure was found, in a few words: where and when a store run measured, what a scaled
    figure was scaled from, 'measured by AccelBench', 'published', 'estimate', 'imported'."""
    if r.origin == "imported":
        return "imported"
    given = r.settings.get("provenance") if r.origin == "store" else r.settings.get("scaled_words")
    return str(given or SOURCE_WORDS.get(r.basis, r.basis))


def evidence(r: lfl.Rate) -> str:
    """Where the figure came from, for the answer's JSON and captions."""
    if r.origin == "reference" and r.basis == "measured":
        return f"measured by AccelBench (reference pack {r.source_id})"
    if r.basis == "published":
        title = str(r.settings.get("source_title") or r.source_id)
        return f"published: {title}"
    if r.basis == "estimate":
        return r.how
    return source_words(r)


@dataclass(frozen=True)
class Headline:
    """text: the sentence ('' when nothing compares); number/low/high/basis/cost/bound: its first clause's
    (bound "at most": the number is a ceiling, e.g. an estimate held by engine.compare.estimate.step_floor)."""

    text: str
    number: float | None = None
    low: float | None = None
    high: float | None = None
    basis: str | None = None
    usd_per_million_examples: float | None = None
    price_how: str = ""
    bound: str = ""
    evidence: str = ""


def _name(r: lfl.Rate) -> str:
    """'H100', 'TPU v2-8', or 'this GPU' — the device without its source words."""
    if r.origin == "this machine":
        return r.label.split(" (")[0]
    return str(r.settings.get("hardware") or r.label.split(" (")[0])


def _device(c: Compared) -> str:
    r = c.rate
    if r.origin == "this machine":
        return _name(r)
    source = source_words(r)
    n = c.one.per_device_of if c.one is not None else None  # the system size it was divided from
    share = f", an {n:g}-device system ÷ {n:g}" if n else ""
    rough = ", rough" if r.basis == "estimate" and r.settings.get("rough") else ""
    return f"one {_name(r)} ({r.precision_words}, {source}{rough}{share})"


def _how_much(c: Compared) -> tuple[str, float, float, float]:
    mid = c.per_device_speedup or c.speedup
    lo = c.low if c.low is not None else mid
    hi = c.high if c.high is not None else mid
    word = {"at most": "up to about", "at least": "at least"}.get(c.rate.bound, "about")
    if lo >= 1 or mid >= 1 and lo == hi:
        return f"{word} {times_range(lo, hi)} faster", mid, lo, hi
    if hi <= 1:
        # a ceiling on the rate is a floor on how much slower ("at most" 0.5× = at least 2× slower)
        slower = {"at most": "at least about", "at least": "at most"}.get(c.rate.bound, "about")
        return f"{slower} {times_range(1 / hi, 1 / lo)} slower", mid, lo, hi
    return f"between {times(1 / lo)} slower and {times(hi)} faster", mid, lo, hi


def times(x: float) -> str:
    if x >= 10:
        return f"{x:,.0f}×"
    return f"{x:.1f}×" if x >= 2 else f"{x:.2f}×"


def times_range(lo: float, hi: float) -> str:
    return times(lo) if times(lo) == times(hi) else f"{times(lo).rstrip('×')}–{times(hi)}"


def headline_order(rows: Sequence[Compared], baseline: lfl.Rate) -> list[Compared]:
    """Rows that may be a headline (one device, not a peak), best evidence first: measured, then scaled (a
    measured device × one source's ratio), then published, then estimated; the baseline's precision class before
    others; your store's runs before AccelBench's pack; then the faster first."""
    usable = [c for c in rows if c.one is not None and c.rate.origin != "peak"]
    trusted = [
        c for c in usable
        if not (c.grade and "doubtful figure" in c.grade.top) and not c.rate.settings.get("saturated")  # issue 36
        and c.rate.settings.get("scale_role") != "beside"  # another stack's own figure: beside the scale, never its answer
    ]  # fmt: skip
    mine = baseline.precision_class
    return sorted(
        trusted or usable,
        key=lambda c: (
            BASIS_RANK.get(c.rate.basis, 9),
            c.rate.precision_class != mine,
            c.rate.origin != "store",
            -(c.per_device_speedup or 0),
        ),
    )


def _cost(c: Compared) -> str:
    if c.usd_per_million_examples is None:
        return ""
    whose = "your price" if c.price_how.startswith("user") else "price table"
    return f", at {usd_text(c.usd_per_million_examples)} per million examples ({whose})"


def headline(base: lfl.Rate, rows: Sequence[Compared]) -> Headline:
    """The sentence for up to three devices, best evidence first (answer.headline_order)."""
    if base.origin == "peak" or not rows:
        return Headline("")
    verb = "train" if base.task == "training" else "compute"
    what = WORKLOAD_NAMES.get(base.workload, base.workload)
    ordered = headline_order(rows, base)
    if not ordered:
        return _peaks_or_systems(base, rows, what, verb)
    seen: set[str] = set()
    clauses: list[str] = []
    first: tuple[Compared, float, float, float] | None = None
    for c in ordered:
        key = c.rate.hardware_key or c.rate.label
        if key in seen or len(clauses) == 3:
            continue
        seen.add(key)
        phrase, mid, lo, hi = _how_much(c)
        if first is None:
            first = (c, mid, lo, hi)
            clauses.append(f"{_device(c)} would {verb} {phrase} than {base.label}{_cost(c)}")
        else:
            clauses.append(f"{_device(c)} {phrase}")
    assert first is not None
    files = {c.rate.source_id for c, *_ in [first]} | {c.rate.source_id for c in ordered[: len(clauses)]}
    where = f"On {what}"
    if len(files) == 1 and (f := files.pop()).startswith("file:"):
        where += f" in {f.removeprefix('file:')}"
    basis = "per example" if base.task == "training" else "per FLOP"
    c0 = first[0]
    top = [t for t in (c0.grade.top if c0.grade else ()) if not t.endswith("not stated")][:2]
    text = f"{where}, " + "; ".join(clauses) + f" ({basis}{'; ' + ', '.join(top) if top else ''})."
    if c0.rate.basis == "estimate":
        text += " An estimate, not a measurement: " + c0.rate.how.rstrip(".") + "."
    if c0.rate.basis == "scaled":
        text += " Scaled, not measured on that device: " + c0.rate.how.rstrip(".") + "."
    return Headline(
        text,
        first[1],
        first[2],
        first[3],
        c0.rate.basis,
        c0.usd_per_million_examples,
        c0.price_how,
        c0.rate.bound,
        evidence(c0.rate),
    )


def _peaks_or_systems(base: lfl.Rate, rows: Sequence[Compared], what: str, verb: str) -> Headline:
    systems = [c for c in rows if c.rate.origin != "peak"]
    if systems:  # whole systems of unstated size: said as systems, never as one device
        c = max(systems, key=lambda x: x.speedup)
        phrase = f"about {times(c.speedup)} faster" if c.speedup >= 1 else f"about {times(1 / c.speedup)} slower"
        text = (
            f"On {what}, no single-device figure: as a whole system, {c.rate.label} would {verb} {phrase} than "
            f"{base.label} (its source does not say how many devices)."
        )
        return Headline(text, c.speedup, c.speedup, c.speedup, c.rate.basis)
    c = rows[0]
    text = f"{c.rate.label} is {times(c.speedup)} the rate {base.label} measured ({base.value:,.3g} {base.unit}); a peak, not measured."
    return Headline(text, c.speedup, c.speedup, c.speedup, "peak")
