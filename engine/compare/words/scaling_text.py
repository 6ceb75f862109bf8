"""Scaling over devices in a sentence: "8 H100 (published, Lambda PyTorch 2025, mixed fp16): 7.9× one H100 (99 % of
ideal, 98–103 %)", "2 processes (measured, …): 1.6× one process (80 % of ideal)", and beyond the largest published
count an estimate, named as one, with its range: "16 H100 (estimate, 2 nodes of 8, from Lambda PyTorch 2025 1–8 GPU
figures, mixed fp16): about 15–16× one H100 (98–99 % of ideal); the network between nodes is not in these figures".
Pure Python over engine.compare.evidence.scaling_refs series."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from engine.compare.evidence.scaling_refs import ABOVE_IDEAL, Point, Series, note
from engine.compare.facts.likeforlike import precision_text
from engine.compare.words.sentence import WORKLOAD_NAMES, times

NODE_DEVICES = 8  # GPUs in one server (an HGX/DGX board): a curve up to 8 is taken as one node's


def _pct(x: float) -> str:
    return f"{x * 100:.0f} %"


def _pct_range(lo: float, hi: float) -> str:
    a, b = f"{lo * 100:.0f}", f"{hi * 100:.0f}"
    return f"{a} %" if a == b else f"{a}–{b} %"


def sentence(
    count: float, what: str, one: str, basis: str, detail: str, efficiency: float, low: float, high: float
) -> str:
    """'8 H100 (published, Lambda PyTorch 2025, mixed fp16): 7.9× one H100 (99 % of ideal, 96–103 %)';
    `what` names `count` of them ('H100', 'processes'), `one` one of them ('H100', 'process')."""
    spread = _pct_range(low, high)
    spread = "" if spread == _pct(efficiency) else f", {spread}"
    return (
        f"{count:g} {what} ({basis}, {detail}): {times(count * efficiency)} one {one} "
        f"({_pct(efficiency)} of ideal{spread})"
    )


def published_sentence(s: Series, point: Point | None = None) -> str:
    """The sentence for one published count (default: the largest)."""
    p = point or s.points[-1]
    detail = f"{s.who}, {precision_text(s.key.precision)}"
    text = sentence(p.devices, s.device_name, s.device_name, "published", detail, p.efficiency, p.low, p.high)
    return text + (f"; {note(p)}" if p.efficiency > ABOVE_IDEAL else "")


def estimate(s: Series, count: float) -> tuple[float, float] | None:
    """An estimate of the efficiency at `count` devices beyond the series' largest published count m, as a range:
    high = the efficiency at m (no further loss), low = the loss per doubling seen up to m, continued to `count`.
    None for a series with a point above ideal (its figures are not a scaling curve to extend)."""
    last = s.points[-1]
    if count <= last.devices:
        raise ValueError(f"{count:g} devices are published; estimate only beyond {last.devices:g}")
    if any(p.efficiency > ABOVE_IDEAL for p in s.points):
        return None
    e = min(last.efficiency, 1.0)
    low = e ** (math.log2(count) / math.log2(last.devices))
    return low, e


def estimate_sentence(s: Series, count: float, nodes: int | None = None) -> str:
    """'16 H100 (estimate, 2 nodes of 8, from Lambda PyTorch 2025 1–8 GPU figures, mixed fp16): about 14–16× one H100
    (88–99 % of ideal); the network between nodes is not in these figures'. "" where estimate() gives none."""
    got = estimate(s, count)
    if got is None:
        return ""
    low, high = got
    unit = s.unit.upper() if s.unit in ("gpu",) else s.unit
    span = f"{s.points[0].devices:g}–{s.points[-1].devices:g} {unit}"
    where = f"{nodes} nodes of {count / nodes:g}, " if nodes and nodes > 1 else ""
    detail = f"{where}from {s.who} {span} figures, {precision_text(s.key.precision)}"
    lo_x, hi_x = times(count * low).rstrip("×"), times(count * high)
    between = hi_x if lo_x + "×" == hi_x else f"{lo_x}–{hi_x}"
    text = f"{count:g} {s.device_name} (estimate, {detail}): about {between} one {s.device_name} ({_pct_range(low, high)} of ideal)"
    return text + ("; the network between nodes is not in these figures" if nodes and nodes > 1 else "")


def nodes_clause(s: Series, nodes: int = 2) -> str:
    """A short estimate for `nodes` nodes of the largest published count, to follow the published sentence:
    'as 2 nodes of 8 (16 H100), estimate: about 15–16× one H100 (98–99 % of ideal)'; "" where none, and for a
    curve whose largest count is more than one server holds (NODE_DEVICES: its figures already span nodes)."""
    per = s.points[-1].devices
    if per > NODE_DEVICES:
        return ""
    got = estimate(s, nodes * per)
    if got is None:
        return ""
    low, high = got
    lo_x, hi_x = times(nodes * per * low).rstrip("×"), times(nodes * per * high)
    between = hi_x if lo_x + "×" == hi_x else f"{lo_x}–{hi_x}"
    return (
        f"as {nodes} nodes of {per:g} ({nodes * per:g} {s.device_name}), estimate: about {between} one "
        f"{s.device_name} ({_pct_range(low, high)} of ideal)"
    )


def model_name(model: str) -> str:
    """'ResNet-50', 'bert_base at sequence 384'."""
    base, _, seq = model.partition("@")
    name = WORKLOAD_NAMES.get(base, base)
    return f"{name} at sequence {seq}" if seq else name


def measured_sentence(row: Mapping[str, Any]) -> str:
    """A sweep's point (engine.sweep.summary.scaling) as a sentence: '2 processes (measured, resnet50 synthetic
    float32 torch cpu, global batch 8): 1.6× one process (80 % of ideal)'; a cell across Ray nodes says how many."""
    n, runs, nodes = float(row["processes"]), int(row.get("runs") or 1), int(row.get("nodes") or 1)
    detail = f"{row['cell']}, global batch {row['batch_size']}" + (f", over {nodes} Ray nodes" if nodes > 1 else "")
    text = sentence(n, "processes", "process", "measured", detail, row["efficiency"], row["low"], row["high"])
    return text + (f", {runs} runs" if runs > 1 else "")
