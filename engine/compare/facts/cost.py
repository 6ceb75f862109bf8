"""What one training example of a model costs (FLOPs and bytes per op class, from XLA: engine.compare.facts.
model_costs) and its modelled step time on a device: the facts the shape conversion (engine.compare.evidence.reshape)
and the step model (engine.compare.estimate.step_model) both read.

A model key may carry the input shape it ran at (engine.compare.facts.workload.shaped_model): `bert_base@384` (a
sequence length), `resnet50@192x192x3` (an image size). A traced cost at that shape is used where the tracer has
one (bench/model_costs.py traces every image pairing of the catalog); else the model's own cost is scaled by its
tokens or its pixels, said so.

    t = Σ_b max(FLOPs_b ÷ (peak × e_c), bytes_b ÷ (bandwidth × e_m)) + bytes_rest ÷ (bandwidth × e_m) + overhead ÷ batch
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.catalog import catalog
from engine.compare.facts import model_costs, model_costs_shaped
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
    def traced(self) -> bool:
        """Traced by XLA at this model's own layers (not another model's op mix scaled to a count)."""
        return self.how.startswith("XLA")

    @property
    def total_bytes(self) -> float:
        return sum(self.bytes) + self.rest_bytes

    def scaled(self, k: float, how: str) -> Cost:
        return Cost(
            tuple(f * k for f in self.flops), tuple(b * k for b in self.bytes), self.rest_bytes * k,
            self.total_flops * k, how,
        )  # fmt: skip


def _traced(key: str) -> Cost | None:
    got = model_costs.COSTS.get(key) or model_costs_shaped.SHAPED_COSTS.get(key)
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
    if base is not None and (pixels := _pixel_ratio(name, seq)) is not None:
        # a convolution's FLOPs and activations grow with the pixels; the weights' bytes do not (a small share)
        return base.scaled(pixels, f"{base.how}, scaled by pixels to {seq.replace('x', '×')}")
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


def _pixel_ratio(model: str, shape: str) -> float | None:
    """Pixels at `shape` ('192x192x3') ÷ pixels at the zoo model's native shape; None where either is unknown."""
    dims = shape.split("x")
    if len(dims) != 3 or not all(d.isdigit() for d in dims) or model not in catalog.MODELS:
        return None
    native = catalog.resolve_dataset(model, catalog.SYNTHETIC).input_shape
    if len(native) != 3:
        return None
    return (int(dims[0]) * int(dims[1])) / (native[0] * native[1])


def shape_words(model: str) -> str:
    """'192×192×3' of `resnet50@192x192x3`, '384 tokens' of `bert_base@384`, the native shape of a bare key."""
    name, _, shape = model.partition("@")
    if not shape and name in catalog.MODELS:
        native = catalog.resolve_dataset(name, catalog.SYNTHETIC).input_shape
        shape = "x".join(map(str, native))
    return f"{shape} tokens" if shape.isdigit() else shape.replace("x", "×")


def cost_ratio(frm: str, to: str, key: str, pc: str) -> float | None:
    """cost_ratio_of two model keys whose costs are known by name."""
    return cost_ratio_of(frm, to, key, pc)


def cost_ratio_of(
    frm: str, to: str, key: str, pc: str, to_flops: float | None = None, to_kind: str | None = None
) -> float | None:
    """How many times faster one device runs `to` than `frm` (modelled step time of `frm` ÷ of `to`, at the
    device's peak and bandwidth), from their traced costs: the stated conversion of a figure at one input shape
    to another (rescaled from 224×224 by cost 0.73). A device without a peak or bandwidth: the FLOPs ratio.
    None where either cost is unknown. `to_flops`, `to_kind`: a user model's own count and kind (its cost is its
    kind's op mix scaled to that count)."""
    a, b = cost_of(frm), cost_of(to, to_flops, to_kind)
    if a is None or b is None or not a.total_flops or not b.total_flops:
        return None
    t_a, t_b = step_seconds(a, key, pc, 1.0, 1.0), step_seconds(b, key, pc, 1.0, 1.0)
    if t_a and t_b:
        return t_a / t_b
    return a.total_flops / b.total_flops if math.isfinite(a.total_flops / b.total_flops) else None


def sig(x: float) -> str:
    """Three significant digits, never in e-notation (people read 0.000264, not 2.64e-04)."""
    return f"{x:,.{max(0, 2 - math.floor(math.log10(abs(x))))}f}" if x else "0"


def pct(share: float) -> str:
    return f"{share * 100:.0f} %" if share >= 0.1 else f"{share * 100:.2g} %"


def byte_text(b: float) -> str:
    return f"{sig(b / 1e9)} GB" if b >= 1e9 else f"{sig(b / 1e6)} MB" if b >= 1e6 else f"{sig(b / 1e3)} kB"
