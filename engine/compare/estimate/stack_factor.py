"""Software as well as silicon (issue 42 item 2): how much of its silicon's modelled speed each vendor's own stack
reaches beside NVIDIA's CUDA stack, learned from rounds where ONE benchmark suite ran the same benchmark on both.

The step model knows peaks and bandwidths; ROCm on an MI300X and XLA on a TPU reach other shares of theirs than
CUDA on an H100, and that share is the main unknown of a cross-vendor estimate. For every same-round pair of figures
one suite measured (per chip, slices at most MAX_SLICE_RATIO× apart) — MLPerf Training's steady state from the
result logs: AMD's MI300X/MI325X (CDNA 3) beside NVIDIA's B200/H200/H100 on Llama-2-70B LoRA (v5.0), Google's TPU
v5p/Trillium beside NVIDIA's H100/B200 on GPT-3 (v4.1); MosaicML's LLM Foundry of 2023: the MI250 (CDNA 2) beside
A100/H100 on MPT-7B, one stack on both — the pair's factor is what the vendor's chip did ÷ what the step model says
from the NVIDIA figure, the step model fitted WITHOUT any figure of that vendor (silicon alone). The vendor's factor
is the median over its pairs, its range their spread. An estimate of such a chip is then made the same way — the
step model without the vendor's figures, from a CUDA anchor — and × the factor, said in its basis; the TPUs that
hang from the root TPU (tpu_chain, tpu_family) inherit it.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.compare.estimate.estimate import Estimate, Request, estimate_batch
from engine.compare.estimate.points import Groups, Point, points_of
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.silicon import DEVICES, NONE, STACKS
from engine.compare.facts.workload import FAMILIES
from engine.reference.units import short_name

# vendor → (median |error| %, range held %, pairs) of the stack-factor path with the chip's silicon held out of the fit
# AND of its vendor's factor (engine.compare.estimate.path_check.stack_factor_check, bench_estimates --json by_path;
# tests/compare/test_path_check.py ties them): an AMD silicon's factor is the other one's (CDNA 3 ↔ CDNA 2)
STACK_CHECK = {"amd": (13.4, 87.5, 8), "google": (19.6, 90.9, 11)}
MAX_SLICE_RATIO = 8.0  # the two systems of a pair at most this far apart in chips (a chip's rate falls as it grows)
# one suite's round: the figures it measured together (MLPerf's round; MosaicML's LLM Foundry posts of one year)
_ROUND = re.compile(r"MLPerf Training v[\d.]+|MosaicML LLM Foundry \d{4}")
_CHIPS = re.compile(r"\((\d[\d,]*) (?:chips|GPUs)\)")


@dataclass(frozen=True)
class StackFactor:
    """One vendor's stack beside CUDA.

    Attributes:
      vendor: "amd" or "google"; factor: the median of its pairs' factors; low, high: their least and most;
      pairs: each pair in words ("MLPerf Training v5.0 llama2_70b: MI300X/H200 0.80, model 1.12 → 0.71").
    """

    vendor: str
    factor: float
    low: float
    high: float
    pairs: tuple[str, ...]
    on: str = ""  # which of its pairs: "on resnet50", "on its family (bert_large)", "on transformer models", ""

    @property
    def words(self) -> str:
        spread = f", {self.low:.2f}–{self.high:.2f}" if self.high / self.low > 1.01 else ""
        n = f"{len(self.pairs)} same-round pair{'s' if len(self.pairs) != 1 else ''}"
        return (
            f"× {self.factor:.2f}, the share of its silicon's modelled speed {STACKS[self.vendor]} reached beside "
            f"CUDA where one suite ran both (median of {n}{' ' + self.on if self.on else ''}{spread})"
        )


def vendor(key: str) -> str:
    return DEVICES.get(key, NONE).vendor


def _round(r: lfl.Rate) -> str | None:
    m = _ROUND.search(str(r.settings.get("source_title") or ""))
    return m.group(0) if m else None


def _chips(r: lfl.Rate) -> float:
    m = _CHIPS.search(str(r.settings.get("hardware_label") or ""))
    return float(m.group(1).replace(",", "")) if m else 1.0


def cross_vendor_pairs(rates: Sequence[lfl.Rate]) -> list[tuple[lfl.Rate, lfl.Rate, str]]:
    """(the other vendor's row, NVIDIA's row, the round) of every same-round, same-model, same-precision-class pair of
    steady-state training rates (not a time to train), per chip, slices at most MAX_SLICE_RATIO× apart; one pair per
    two chips of one round and model (each chip's middle figure over its submitters), so a chip that many partners
    submitted does not outvote the rest."""
    ok = [
        r for r in rates
        if r.task == "training" and r.basis == "published" and not r.doubtful and r.one is not None
        and _round(r) and not str(r.settings.get("metric") or "").endswith("time_s") and r.on_accelerator
    ]  # fmt: skip
    pairs: dict[tuple[str, str, str, str, str], list[tuple[lfl.Rate, lfl.Rate]]] = {}
    for x in ok:
        if vendor(x.hardware_key) in ("nvidia", "cpu"):
            continue
        for y in ok:
            same = (_round(x), x.shaped, x.precision_class) == (_round(y), y.shaped, y.precision_class)
            near = max(_chips(x), _chips(y)) / min(_chips(x), _chips(y)) <= MAX_SLICE_RATIO
            if same and near and vendor(y.hardware_key) == "nvidia":
                key = (str(_round(x)), x.shaped, x.precision_class, x.hardware_key, y.hardware_key)
                pairs.setdefault(key, []).append((x, y))
    return [(_middle([x for x, _ in ps]), _middle([y for _, y in ps]), k[0]) for k, ps in sorted(pairs.items())]


def _middle(rows: Sequence[lfl.Rate]) -> lfl.Rate:
    by_id = {r.id: r for r in rows}
    values = sorted((r.one.value if r.one else r.value, r.id) for r in by_id.values())
    return by_id[values[(len(values) - 1) // 2][1]]


def without_vendor(groups: Groups, v: str) -> Groups:
    """The points less every figure of vendor `v`'s devices: the step model fitted on silicon alone."""
    return {k: g for k, g in groups.items() if vendor(k[1]) != v}


def pair_requests(rates: Sequence[lfl.Rate], groups: Groups) -> list[tuple[lfl.Rate, lfl.Rate, str, Request]]:
    """Each cross-vendor pair with the estimate it needs: the other vendor's chip on the pair's model from NVIDIA's
    figure, on the step model fitted without any figure of that vendor."""
    pairs = [(x, y, rnd) for x, y, rnd in cross_vendor_pairs(rates) if x.one is not None and y.one is not None]
    starts = points_of([y.one for _, y, _ in pairs if y.one is not None])
    out = []
    for (x, y, rnd), start in zip(pairs, starts, strict=True):
        if start is not None:
            v = vendor(x.hardware_key)
            q: Request = (x.shaped, (x.hardware_key,), x.precision_class, without_vendor(groups, v), x.kind, (start,),
                          None, None)  # fmt: skip
            out.append((x, y, rnd, q))
    return out


def stack_factors(
    pairs: Sequence[tuple[lfl.Rate, lfl.Rate, str, Request]],
    made: Sequence[list[Estimate]],
    model: str = "",
    kind: str = "",
) -> dict[str, StackFactor]:
    """Each vendor's factor from its pairs (pair_requests) and the estimates made for them (estimate_batch): those of
    `model` where the vendor has some, else of its family (workload.FAMILIES), else of its `kind`, else all. A
    stack's share of its peak depends on the work: TensorFlow on TPU v3/v4 ran MLPerf v0.7's ResNet-50 and BERT at
    1.3–1.7× the silicon's modelled speed beside CUDA, MaxText ran v4.1's int8 GPT-3 at 0.63× on slices 2–8× the
    GPUs' — the same-model pairs say the most about the run's model."""
    per: dict[str, list[tuple[float, str, lfl.Rate]]] = {}
    for (x, y, rnd, _), got in zip(pairs, made, strict=True):
        xo, yo = x.one, y.one
        if not got or xo is None or yo is None or not got[0].examples_per_sec > 0:
            continue
        observed, modelled = xo.value / yo.value, got[0].examples_per_sec / yo.value
        words = (
            f"{rnd} {x.workload}: {short_name(x.hardware_key)}/{short_name(y.hardware_key)} "
            f"{observed:.2f}, model {modelled:.2f} → {observed / modelled:.2f}"
        )
        per.setdefault(vendor(x.hardware_key), []).append((observed / modelled, words, x))
    out = {}
    for v, got_v in sorted(per.items()):
        chosen, on = _on_the_work(got_v, model, kind)
        fs = [f for f, _, _ in chosen]
        out[v] = StackFactor(v, _geo_median(fs), min(fs), max(fs), tuple(sorted(w for _, w, _ in chosen)), on)
    return out


def _on_the_work(
    got: list[tuple[float, str, lfl.Rate]], model: str, kind: str
) -> tuple[list[tuple[float, str, lfl.Rate]], str]:
    """The pairs of the run's model, else of its family, else of its kind, else all; with words for which."""
    family = FAMILIES.get(model, ())
    same = [g for g in got if model and g[2].workload == model]
    kin = [g for g in got if g[2].workload in family]
    alike = [g for g in got if kind and g[2].kind == kind]
    if same:
        return same, f"on {model}"
    if kin:
        return kin, f"on its family ({', '.join(sorted({x.workload for *_, x in kin}))})"
    if alike:
        return alike, f"on {kind} models"
    return got, ""


def _geo_median(fs: Sequence[float]) -> float:
    return math.exp(statistics.median(math.log(f) for f in fs))


def with_stack(e: Estimate, s: StackFactor) -> Estimate:
    """The estimate × the vendor's factor, its range stretched to the factor's spread, said in its how (with the
    whole ratio to its anchor's figure)."""
    k, lo, hi = s.factor, s.low / s.factor, s.high / s.factor
    value = e.examples_per_sec * k
    whole = f" = × {value / e.anchor.examples_per_sec:.3g} in all" if e.anchor and e.anchor.examples_per_sec else ""
    return replace(
        e, examples_per_sec=value, low=e.low * k * min(lo, 1.0), high=e.high * k * max(hi, 1.0),
        how=f"{e.how}; {s.words}{whole}",
    )  # fmt: skip


def estimates_on_stacks(
    model: str,
    keys: Sequence[str],
    pc: str,
    groups: Groups,
    rates: Sequence[lfl.Rate],
    starts: Sequence[Point] | None,
    **kw: Any,
) -> tuple[list[Estimate], dict[str, StackFactor]]:
    """`estimates` of every key, those of a vendor with cross-vendor pairs (and no anchor of its own) made from the
    step model without the vendor's figures, × its factor; with the factor each such key took. The pairs' estimates
    and the answer's are made in ONE call (estimate_batch)."""
    pairs = pair_requests(rates, groups)
    own = {vendor(p.hardware_key) for p in starts or ()}
    paired = sorted({vendor(x.hardware_key) for x, *_ in pairs} - own)
    plain = tuple(k for k in keys if vendor(k) not in paired)
    by_vendor = {v: tuple(k for k in keys if vendor(k) == v) for v in paired}
    anchors = tuple(starts) if starts is not None else None
    kind, flops, shaped = kw.get("kind"), kw.get("flops_per_example"), kw.get("shaped")
    answer: list[Request] = [(model, plain, pc, groups, kind, anchors, flops, shaped)]
    answer += [(model, ks, pc, without_vendor(groups, v), kind, anchors, flops, shaped) for v, ks in by_vendor.items()]
    made = estimate_batch([*[q for *_, q in pairs], *answer])
    factors = stack_factors(pairs, made[: len(pairs)], model, str(kind or ""))  # the run's model's pairs first
    out = {e.hardware_key: e for e in made[len(pairs)]}
    took: dict[str, StackFactor] = {}
    for v, got in zip(by_vendor, made[len(pairs) + 1 :], strict=True):
        for e in got:
            f = factors.get(v)
            out[e.hardware_key] = with_stack(e, f) if f else e
            if f:
                took[e.hardware_key] = f
    return [out[k] for k in keys if k in out], took
