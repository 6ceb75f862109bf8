"""A training step's time on a device from its ops' FLOPs and bytes: the memory-aware model behind estimates.

One training example of a model costs, per intensity bin b of its convolutions and dots (engine.compare.
model_costs, from XLA) and for the memory-bound rest (element-wise ops, normalisation, the optimizer):

    t = Σ_b max(FLOPs_b ÷ (peak × e_c), bytes_b ÷ (bandwidth × e_m)) + bytes_rest ÷ (bandwidth × e_m) + overhead ÷ batch

A memory-bound model follows the bandwidth, not the FLOP/s: an L40S has 1.16× an A100's half-precision FLOP/s
and 0.56× its bandwidth, an H200 the H100's FLOP/s and 1.43× its bandwidth (a B200 has both ratios near 2.3× an
H100's, so there the two agree). Bytes are halved for a mixed-precision figure (16-bit activations and matmul
operands).

The efficiencies are fitted on the measured and published figures (engine.compare.estimate.step_fit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.compare.facts import model_costs
from engine.compare.facts.model_flops import TRAIN_FLOPS, train_flops_per_example
from engine.compare.facts.silicon import DEVICES, NONE
from engine.compare.facts.workload import model_kind

# the zoo model whose op mix stands in for a model of a kind without a count of its own (a user's model)
KIND_PROXY = {"conv": "resnet50", "transformer": "bert_base", "recurrent": "bilstm"}
MIXED_BYTES = 0.5  # a mixed-precision step moves 16-bit activations: half the float32 bytes


@dataclass(frozen=True)
class Cost:
    """One training example's work, float32.

    Attributes:
      flops: each intensity bin's convolution and dot FLOPs; bytes: their bytes (same order).
      rest_bytes: bytes of everything else; total_flops: XLA's count of the whole step.
      how: where the numbers came from (XLA trace, a stand-in model, a scaled count).
      stand_in: True where another model's op mix AND size stand in (a published-only model with no builder):
        its level then says nothing about its kind (its source may count examples in other units: WaveGlow's
        audio samples, GNMT's tokens).
    """

    flops: tuple[float, ...]
    bytes: tuple[float, ...]
    rest_bytes: float
    total_flops: float
    how: str
    stand_in: bool = False

    @property
    def total_bytes(self) -> float:
        return sum(self.bytes) + self.rest_bytes

    def scaled(self, k: float, how: str) -> Cost:
        return Cost(
            tuple(f * k for f in self.flops), tuple(b * k for b in self.bytes), self.rest_bytes * k,
            self.total_flops * k, how,
        )  # fmt: skip


def _traced(key: str) -> Cost | None:
    got = model_costs.COSTS.get(key)
    if got is None:
        return None
    _batch, bins, rest, flops, how = got
    ks = sorted(bins)
    return Cost(tuple(bins[k][0] for k in ks), tuple(bins[k][1] for k in ks), rest, flops, how)


def cost_of(model: str, flops_per_example: float | None = None, kind: str | None = None) -> Cost | None:
    """The model's per-example cost: traced (bench/model_costs.py); a zoo model at another sequence length
    scaled by its tokens; a published-only model through its stand-in; else, given a FLOPs count, the op mix of
    its kind's zoo model scaled to that count (None without one)."""
    if got := _traced(model):
        return got
    name, _, seq = model.partition("@")
    base = _traced(name)
    native = TRAIN_FLOPS.get(name, ((0,), 0.0))[0]
    if base is not None and seq.isdigit() and len(native) == 1 and native[0]:
        # as model_flops scales a count: by tokens (attention's share, which grows faster, is small up to 512)
        return base.scaled(int(seq) / native[0], f"{base.how}, scaled by tokens to {seq}")
    if name in model_costs.PROXIES and (proxy := _traced(model_costs.PROXIES[name])) is not None:
        how = f"op mix of {model_costs.PROXIES[name]}"
        return Cost(proxy.flops, proxy.bytes, proxy.rest_bytes, proxy.total_flops, how, stand_in=True)
    f = flops_per_example or train_flops_per_example(model)
    proxy = _traced(KIND_PROXY[kind or model_kind(model)])
    if f and proxy is not None:
        return proxy.scaled(
            f / proxy.total_flops, f"{f / 1e9:,.3g} GFLOP counted, op mix of {KIND_PROXY[kind or model_kind(model)]}"
        )
    return None


def sig(x: float) -> str:
    """Three significant digits, never in e-notation (people read 0.000264, not 2.64e-04)."""
    return f"{x:,.{max(0, 2 - math.floor(math.log10(abs(x))))}f}" if x else "0"


def pct(share: float) -> str:
    return f"{share * 100:.0f} %" if share >= 0.1 else f"{share * 100:.2g} %"


def byte_text(b: float) -> str:
    return f"{sig(b / 1e9)} GB" if b >= 1e9 else f"{sig(b / 1e6)} MB" if b >= 1e6 else f"{sig(b / 1e3)} kB"


def step_seconds(cost: Cost, key: str, pc: str, e_c: float, e_m: float, overhead_s: float = 0.0,
                 batch: float | None = None) -> float | None:  # fmt: skip
    """Modelled seconds per training example."""
    dev = DEVICES.get(key, NONE)
    peak, bw = dev.peak_flops[pc], dev.bandwidth
    if not peak or not bw:
        return None
    s = MIXED_BYTES if pc == "mixed" else 1.0
    t = sum(max(f / (peak * e_c), s * b / (bw * e_m)) for f, b in zip(cost.flops, cost.bytes, strict=True))
    return t + s * cost.rest_bytes / (bw * e_m) + (overhead_s / batch if batch else 0.0)


def bound_share(cost: Cost, key: str, pc: str, e_c: float, e_m: float) -> float:
    """Share of the modelled step held by memory traffic (0: all compute-bound)."""
    dev = DEVICES.get(key, NONE)
    peak, bw = dev.peak_flops[pc] or 1.0, dev.bandwidth or 1.0
    s = MIXED_BYTES if pc == "mixed" else 1.0
    mem = s * cost.rest_bytes / (bw * e_m)
    comp = 0.0
    for f, b in zip(cost.flops, cost.bytes, strict=True):
        tc, tm = f / (peak * e_c), s * b / (bw * e_m)
        mem, comp = (mem + tm, comp) if tm >= tc else (mem, comp + tc)
    return mem / (mem + comp) if mem + comp else 0.0
