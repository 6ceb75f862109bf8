"""The saturation rule (issue 36): a source whose figures for one model stay within ±10 % across devices whose
compute AND bandwidth differ by ≥ 1.5× measured its input pipeline, not the devices (Lambda's PyTorch ResNet-50
tops out near 2,800–3,100 img/s on H100, GH200, H200 and B200 alike). Its ratios are not used for scaling
(engine.compare.scale.scaled) and its figures carry the flag on Compare ("Which device?") and History.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.plateau import DISTINCT, plateau_devices
from engine.compare.facts.workload import EIGHT_BIT, precision_class
from engine.reference.units import HARDWARE


def saturated(rates: Sequence[lfl.Rate]) -> dict[str, str]:
    """{rate id: why} for the published rates of a pipeline-bound source (per source, model and precision
    class: each device's middle one-device figure; see the module's rule)."""
    groups: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    for r in rates:
        o = r.one
        if r.basis != "published" or o is None or r.bound in ("at most", "at least"):
            continue
        if r.precision in EIGHT_BIT:  # fast at 8-bit peaks the rule does not see: never "pipeline-bound" for that
            continue
        k = (r.source_id, r.workload, r.precision_class)
        groups.setdefault(k, {}).setdefault(r.hardware_key, []).append(o.value)
    flagged = _flagged(groups)
    out = {}
    for r in rates:
        got = flagged.get((r.source_id, r.workload, r.precision_class))
        if got is not None and r.hardware_key in got[0] and r.basis == "published":
            out[r.id] = got[1]
    return out


def _flagged(
    groups: dict[tuple[str, str, str], dict[str, list[float]]],
) -> dict[tuple[str, str, str], tuple[set[str], str]]:
    """Per (source, model, precision class) with a plateau: its devices and why, in words."""
    flagged = {}
    for k, devices in plateau_devices(groups).items():  # every group's plateau in one call
        mids = {d: statistics.median_low(v) for d, v in groups[k].items()}
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
    """The rates with a pipeline-bound source's figures flagged: doubtful, and settings["saturated"] saying why
    (so no headline and no ratio takes them, and the grade shows the flag)."""
    why = saturated(rates)
    return [
        replace(r, doubtful=True, doubt_reason=why[r.id], settings={
            **r.settings, "saturated": why[r.id], "doubtful": True, "doubt_reason": why[r.id]})  # the grade reads these
        if r.id in why else r
        for r in rates
    ]  # fmt: skip
