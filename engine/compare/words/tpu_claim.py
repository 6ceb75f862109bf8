"""Article 000's claim — TPUs 30–80× more efficient per watt than CPUs and GPUs — against what the chosen
rows can support.

The claim comes from Jouppi et al. 2017 (TPU v1, datacenter *inference*, TOPS/W against a Haswell CPU and
a K80; reference rows JOUPPI-2017-03/04). What the data here can say is narrower: for one workload, the
work per joule of a TPU row ÷ that of a CPU or GPU row (engine.compare.rank.efficiency), naming both rows and
whether each side's watts were measured, published or estimated. Pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.compare.rank.efficiency import Efficiency
from engine.compare.words.sentence import times_range

CLAIM = "Article 000 says TPUs are 30–80× more efficient per watt than CPUs and GPUs"
CLAIM_SOURCE = "Jouppi et al. 2017: TPU v1, inference, TOPS/W vs a Haswell CPU and a K80 (JOUPPI-2017-03/04)"
CLAIM_LOW, CLAIM_HIGH = 30.0, 80.0


@dataclass(frozen=True)
class ClaimCheck:
    """checked: a TPU and a CPU/GPU row of one workload both had watts; low/high: the ratios' range;
    text: the sentence, naming the rows (or saying what is missing)."""

    checked: bool
    low: float | None
    high: float | None
    text: str


def _named(e: Efficiency) -> str:
    """A row as the sentence cites it: its label, with a reference's full ref_id (not the short suffix)."""
    r = e.rate
    label = r.label.removesuffix(f" ({r.id[-6:]})")
    return f"{label} ({r.id})" if r.origin == "reference" else label


def _pairs(rows: Sequence[Efficiency]) -> list[tuple[float, Efficiency, Efficiency]]:
    """(TPU per-joule ÷ other per-joule, TPU row, other row) for every pair of one task and workload."""
    tpus = [e for e in rows if e.rate.device_type == "tpu" and e.per_joule]
    others = [e for e in rows if e.rate.device_type in ("cpu", "gpu") and e.per_joule]
    return [
        (t.per_joule / o.per_joule, t, o)  # type: ignore[operator]
        for t in tpus
        for o in others
        if (t.rate.task, t.rate.workload) == (o.rate.task, o.rate.workload)
    ]


def _missing(rows: Sequence[Efficiency]) -> str:
    tpu = [e for e in rows if e.rate.device_type == "tpu"]
    other = [e for e in rows if e.rate.device_type in ("cpu", "gpu")]
    if not tpu:
        return "no TPU row is chosen (add a TPU reference row above, e.g. one of RiseML's TPU v2-8 ResNet-50 rates)"
    if not any(e.per_joule for e in tpu):
        return "no chosen TPU row has a power figure (" + "; ".join(e.power_missing for e in tpu[:2]) + ")"
    if not other:
        return "no CPU or GPU row is chosen"
    if not any(e.per_joule for e in other):
        why = "; ".join(sorted({e.power_missing for e in other if e.power_missing}))
        return f"no chosen CPU or GPU row has a power figure ({why or 'none recorded'})"
    return "no TPU row and CPU/GPU row with power figures share a workload"


def _basis(e: Efficiency) -> str:
    return e.power.basis if e.power else "none"


def check_claim(rows: Sequence[Efficiency]) -> ClaimCheck:
    """The ratio range the chosen rows support, from the pair(s) at its ends, or why it cannot be checked."""
    pairs = sorted(_pairs(rows), key=lambda p: p[0])
    if not pairs:
        return ClaimCheck(False, None, None, f"{CLAIM}; the chosen rows cannot check it: {_missing(rows)}.")
    (lo, lt, lo_o), (hi, ht, hi_o) = pairs[0], pairs[-1]
    unit = "examples" if lt.rate.task == "training" else "GFLOP"
    ends = f"{_named(lt)} vs {_named(lo_o)}"
    if (ht, hi_o) != (lt, lo_o):
        ends = f"lowest {ends}; highest {_named(ht)} vs {_named(hi_o)}"
    bases = sorted({_basis(e) for _, t, o in pairs for e in (t, o)})
    caveat = "" if bases == ["measured"] else f" Watts: {', '.join(bases)} — not all measured, so this is indicative."
    inside = hi >= CLAIM_LOW and lo <= CLAIM_HIGH
    verdict = "within" if inside else "below" if hi < CLAIM_LOW else "above"
    text = (
        f"The data here supports {times_range(lo, hi)} for TPU vs CPU/GPU ({lt.rate.workload or lt.rate.task}, "
        f"{unit} per joule; {ends}): {verdict} the claimed 30–80× ({CLAIM_SOURCE}).{caveat}"
    )
    return ClaimCheck(True, lo, hi, text)
