"""One scale for one answer (issue 36): every device row of "Which device?" is an anchor × a ratio, where the
anchor is a row measured on one stack at the run's precision class (the user's store first, then AccelBench's
pack) and the ratio comes from ONE source that measured both devices on one stack and precision, or from the
step model. A published figure of another stack never stands in the ranking as it is: it is listed beside.

Also the saturation rule: a source whose figures for one model stay within ±10 % across devices whose compute
AND bandwidth differ by ≥ 1.5× measured its input pipeline, not the devices (Lambda's PyTorch ResNet-50 tops
out near 2,800–3,100 img/s on H100, GH200, H200 and B200 alike). Its ratios are not used for scaling and its
figures carry the flag. Pure Python over engine.compare.likeforlike rates.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.compare import likeforlike as lfl
from engine.compare.scaled import stack
from engine.compare.single import one_device
from engine.compare.step_model import bandwidth, peak_flops
from engine.compare.workload import precision_class
from engine.reference.units import HARDWARE

PLATEAU = 0.10  # figures within ±10 % of their middle: a plateau
DISTINCT = 1.5  # devices whose compute and bandwidth both differ by at least this much should not share one
TPU_FLOAT32 = "float32 on a TPU runs its matmuls as bf16 passes (XLA's default precision)"


def _distinct(a: str, b: str, pc: str) -> bool:
    """True when devices a and b differ by ≥ DISTINCT in peak compute (at `pc`) AND in memory bandwidth."""
    fa, fb, ba, bb = peak_flops(a, pc), peak_flops(b, pc), bandwidth(a), bandwidth(b)
    if not (fa and fb and ba and bb):
        return False
    return max(fa, fb) / min(fa, fb) >= DISTINCT and max(ba, bb) / min(ba, bb) >= DISTINCT


def _plateaus(by_device: dict[str, float], pc: str) -> set[str]:
    """Devices of every window of figures within ±PLATEAU of its middle that holds two distinct devices."""
    order = sorted(by_device, key=by_device.__getitem__)
    flagged: set[str] = set()
    for i, lo_key in enumerate(order):
        top = by_device[lo_key] * (1 + PLATEAU) / (1 - PLATEAU)
        window = [k for k in order[i:] if by_device[k] <= top]
        if any(_distinct(a, b, pc) for a in window for b in window if a < b):
            flagged |= set(window)
    return flagged


def saturated(rates: Sequence[lfl.Rate]) -> dict[str, str]:
    """{rate id: why} for the published rates of a pipeline-bound source (per source, model and precision
    class: each device's middle one-device figure; see the module's rule)."""
    groups: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    for r in rates:
        o = one_device(r)
        if r.basis != "published" or o is None or r.bound in ("at most", "at least"):
            continue
        k = (r.source_id, r.workload, precision_class(r.precision))
        groups.setdefault(k, {}).setdefault(r.hardware_key, []).append(o.value)
    flagged = _flagged(groups)
    out = {}
    for r in rates:
        got = flagged.get((r.source_id, r.workload, precision_class(r.precision)))
        if got is not None and r.hardware_key in got[0] and r.basis == "published":
            out[r.id] = got[1]
    return out


def _flagged(
    groups: dict[tuple[str, str, str], dict[str, list[float]]],
) -> dict[tuple[str, str, str], tuple[set[str], str]]:
    """Per (source, model, precision class) with a plateau: its devices and why, in words."""
    flagged = {}
    for k, figures in groups.items():
        mids = {d: statistics.median_low(v) for d, v in figures.items()}
        devices = _plateaus(mids, k[2])
        if devices:
            names = ", ".join(HARDWARE[d].short if d in HARDWARE else d for d in sorted(devices, key=lambda d: mids[d]))
            lo, hi = min(mids[d] for d in devices), max(mids[d] for d in devices)
            why = (
                f"pipeline-bound: this source's {k[1]} figures stay within ±10 % ({lo:,.0f}–{hi:,.0f}) on {names}, "
                f"devices whose compute and bandwidth differ by ≥ {DISTINCT:g}×, so its ratios are not used"
            )
            flagged[k] = (devices, why)
    return flagged


def pipeline_bound_rows(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The saturation rule over History's rows (imported tables: `source`, `model`, `precision`, `hardware_key`,
    `examples_per_sec` and `device_count`): one sentence per source and model whose figures are flagged."""
    groups: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    for r in rows:
        key, rate, n = r.get("hardware_key"), _num(r.get("examples_per_sec")), _num(r.get("device_count")) or 1.0
        if not isinstance(key, str) or key not in HARDWARE or rate is None:
            continue
        k = (str(r.get("source") or ""), str(r.get("model") or ""), precision_class(r.get("precision")))
        groups.setdefault(k, {}).setdefault(key, []).append(rate / n)
    return [f"{k[0].removeprefix('file:')}: {why}" for k, (_, why) in _flagged(groups).items()]


def _num(v: Any) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if f > 0 else None


def flag_saturated(rates: Sequence[lfl.Rate]) -> list[lfl.Rate]:
    """The rates with a pipeline-bound source's figures flagged (settings["saturated"]: why)."""
    why = saturated(rates)
    return [replace(r, settings={**r.settings, "saturated": why[r.id]}) if r.id in why else r for r in rates]


@dataclass(frozen=True)
class Scale:
    """The measured rows one answer is expressed on.

    Attributes:
      anchors: one-device rows measured at the run's precision class on one stack (one per device).
      stack: that stack's name ('PyTorch'); own_stack: whether it is the run's own.
      precision_class: the run's ("float32" or "mixed").
    """

    anchors: tuple[lfl.Rate, ...]
    stack: str
    own_stack: bool
    precision_class: str

    @property
    def keys(self) -> set[str]:
        return {a.hardware_key for a in self.anchors}

    @property
    def note(self) -> str:
        """The one line at the top of the table saying which scale every row is on."""
        if not self.anchors:
            return (
                "No device was measured for this model at this precision: each estimate is on the scale of the "
                "figure it starts from."
            )
        names = ", ".join(HARDWARE[a.hardware_key].short if a.hardware_key in HARDWARE else a.label
                          for a in self.anchors)  # fmt: skip
        where = "your run's stack" if self.own_stack else "the nearest measured stack: yours has no measured row"
        return (
            f"One scale: every row is a row measured on {names} ({self.stack or 'stack not stated'}, {where}) × a "
            f"ratio that one source measured on one stack, or the step model's."
        )


def scale_of(base: lfl.Rate, measured: Sequence[lfl.Rate]) -> Scale:
    """The anchors: the measured one-device rows at the run's precision class, on the run's own stack where any
    is, else on the stack with the most such rows (the fastest first between equals)."""
    pc = precision_class(base.precision)
    ones = [o for r in measured if r.basis == "measured" and (o := one_device(r)) is not None]
    ones = [o for o in ones if precision_class(o.precision) == pc]
    mine = stack(base)
    stacks: dict[str, list[lfl.Rate]] = {}
    for o in ones:
        stacks.setdefault(stack(o), []).append(o)
    if not stacks:
        return Scale((), mine, True, pc)
    chosen = mine if mine in stacks else max(stacks, key=lambda s: (len(stacks[s]), max(o.value for o in stacks[s])))
    best: dict[str, lfl.Rate] = {}
    for o in stacks[chosen]:
        if o.hardware_key not in best or o.value > best[o.hardware_key].value:
            best[o.hardware_key] = o
    return Scale(tuple(best.values()), chosen, chosen == mine, pc)
