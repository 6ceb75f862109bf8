"""TPUs from TPU figures (issue 36 item 5): where ONE source measured two TPU chips on one stack and precision for
the run's model (Google's MLPerf Training logs: one round is one stack), a TPU row is the other TPU chip's row of
the same table × that source's ratio — TPU v3 = the TPU v4 row × 2,004 / 3,478 (MLPerf v0.7, per chip) — instead
of a second step-model estimate from a GPU. The root TPU, the one the step model places from a GPU anchor, is the
chip with the most such ratios; the others hang from it, so their order among themselves is Google's, not the
model's. Never a ratio of a pipeline-bound source (engine.compare.evidence.saturation), nor between figures of different
rounds, precisions or slices more than 4× apart in chips (a chip's rate falls as its slice grows).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from engine.compare.estimate.tpu_family import along_law
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.source import publisher
from engine.compare.scale.scaled import BASIS
from engine.reference.units import short_name

MAX_SLICE_RATIO = 4.0  # chips of the two slices of one ratio at most this far apart


def _round(r: lfl.Rate) -> str:
    """'MLPerf Training v0.7' (the round is the stack: one code drop, one software release) or the title."""
    title = str(r.settings.get("source_title") or "")
    m = re.search(r"(MLPerf \w+ v[\d.]+)", title)
    return m.group(1) if m else title


def _chips(r: lfl.Rate) -> float | None:
    """The chips of the slice a per-chip figure came from ('… (8 chips), per chip'), None when not said."""
    m = re.search(r"\((\d[\d,]*) chips\)", str(r.settings.get("hardware_label") or ""))
    return float(m.group(1).replace(",", "")) if m else None


Pair = tuple[str, str, float, str]  # (target key, anchor key, target / anchor, the source's words)


def tpu_pairs(published: Sequence[lfl.Rate], pc: str) -> list[Pair]:
    """Every same-source, same-round, same-stack ratio between two TPU chips at precision class `pc`."""
    ones = [
        r for r in published
        if r.device_type == "tpu" and "saturated" not in r.settings and not r.doubtful and r.bound not in ("at most", "at least")
        and r.precision_class == pc and _chips(r) and r.value > 0
    ]  # fmt: skip
    out = []
    for t in ones:
        for a in ones:
            same = (t.source_id, _round(t), t.stack, t.precision) == (a.source_id, _round(a), a.stack, a.precision)
            if not same or t.hardware_key == a.hardware_key:
                continue
            chips_t, chips_a = _chips(t) or 1.0, _chips(a) or 1.0
            if max(chips_t, chips_a) / min(chips_t, chips_a) > MAX_SLICE_RATIO:
                continue
            words = f"{_who(t)}, {_round(t)} ({t.stack or 'stack not stated'} on TPU), per chip"
            how = (f"{short_name(t.hardware_key)} {t.value:,.4g} / {short_name(a.hardware_key)} {a.value:,.4g} per chip "
                   f"({t.id}, {a.id}; slices of {chips_t:g} and {chips_a:g} chips)")  # fmt: skip
            out.append((t.hardware_key, a.hardware_key, t.value / a.value, f"{words}|{how}"))
    return out


def _who(r: lfl.Rate) -> str:
    """Who measured both chips: Google for its MLPerf submissions (the suite is not the submitter)."""
    return "Google" if "google" in str(r.settings.get("source_title") or "").lower() else publisher(r)


def chained(
    rows: Sequence[lfl.Rate], published: Sequence[lfl.Rate], pc: str, kin: Sequence[lfl.Rate] = ()
) -> list[lfl.Rate]:
    """`rows` (the answer's estimates) with each TPU that one source measured beside the root TPU re-expressed as
    the root's row × that source's ratio (basis "scaled", anchor the root), the TPUs no pair reached placed from
    the root by the model's TPU law (engine.compare.estimate.tpu_family); every other row as it is. Where no source
    measured the model on two TPU chips, the law of its kind: the pairs of `kin` (published rows of other models of
    the run's model's kind), whose ratios never stand as scaled rows — only their α carries."""
    est = {r.hardware_key: r for r in rows if r.device_type == "tpu" and r.basis == "estimate"}
    pairs, note = _pairs_of(published, pc, est), ""
    if not pairs and kin:  # the model's kind: BERT-large's and GPT-3's TPU pairs give a transformer's α
        pairs, note = _pairs_of(kin, pc, est), " — pairs of other models of its kind: their law, not their ratio"
    law_only = bool(note) or not _pairs_of(published, pc, est, fallback=False)
    if not pairs:
        return list(rows)
    root, chosen = _root_and_ratios(pairs)
    bf16 = " — bf16 figures: a float32 run on a TPU runs bf16 passes" if pc == "float32" and law_only else ""
    # the model's own pairs with the root; of its kind, every pair (each model's law speaks for the kind)
    law = [(t, a, r, w + note + bf16) for t, a, r, w in (pairs if note else chosen.values())]
    if law_only:
        chosen = {}  # another precision's or another model's ratio never stands as a scaled row; only its law carries
    rows = along_law(rows, est[root], law, pc, skip=set(chosen))  # the chips no pair reached
    return [_from_root(r, est[root], chosen[r.hardware_key]) if r.hardware_key in chosen else r for r in rows]


def _pairs_of(rates: Sequence[lfl.Rate], pc: str, est: dict[str, lfl.Rate], fallback: bool = True) -> list[Pair]:
    """The TPU pairs at `pc` between chips that have an estimate row; a float32 run falls back on the bf16 pairs (a
    float32 run on a TPU runs bf16 passes: one_scale.TPU_FLOAT32)."""
    pairs = [p for p in tpu_pairs(rates, pc) if p[0] in est and p[1] in est]
    if not pairs and fallback and pc == "float32":
        pairs = [p for p in tpu_pairs(rates, "mixed") if p[0] in est and p[1] in est]
    return pairs


def _root_and_ratios(pairs: Sequence[Pair]) -> tuple[str, dict[str, Pair]]:
    """The root TPU (the most ratios; between equals the faster chip, the newer silicon nearest the GPUs the step
    model starts from) and, per chip measured beside it, the source's ratio nearest 1 (the least carried)."""
    partners: dict[str, set[str]] = {}
    faster: dict[str, float] = {}  # Σ log(this chip / its partner) in the source's own figures
    for t, a, ratio, _ in pairs:
        partners.setdefault(a, set()).add(t)
        faster[a] = faster.get(a, 0.0) - math.log(ratio)
    root = max(sorted(partners), key=lambda k: (len(partners[k]), faster[k]))
    by_target: dict[str, list[Pair]] = {}
    for p in pairs:
        if p[1] == root:
            by_target.setdefault(p[0], []).append(p)
    return root, {k: min(ps, key=lambda p: (abs(math.log(p[2])), p[3])) for k, ps in by_target.items()}


def _from_root(row: lfl.Rate, root: lfl.Rate, pair: Pair) -> lfl.Rate:
    _, _, ratio, text = pair
    words, detail = text.split("|", 1)
    name, root_name = short_name(row.hardware_key), short_name(root.hardware_key)
    how = (
        f"the {root_name} row ({root.value:,.0f} {root.unit}, {root.basis}) × {ratio:.3g} = {name}/{root_name} as "
        f"{words}: {detail}; one source, one round, one stack, so the stack cancels"
    )
    settings = {
        **row.settings, "source_kind": BASIS, "anchor_key": root.hardware_key, "ratio_source": words,
        "method": "", "scaled_words": f"the {root_name} row × {words.split(',')[0]}'s {name}/{root_name} ratio",
    }  # fmt: skip
    return replace(
        row, id=f"scaled:{row.hardware_key}:{root.id}", label=f"{name} (scaled from {root_name}, "
        f"{row.precision_words})", origin=BASIS, derivation=BASIS, how=how, bound=root.bound,
        source_id=row.source_id, settings=settings, basis=BASIS, value=root.value * ratio,
        low=root.low * ratio if root.low else None, high=root.high * ratio if root.high else None,
    )  # fmt: skip
