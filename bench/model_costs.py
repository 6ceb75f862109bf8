"""Per-op FLOPs and bytes moved of one training step of each zoo model, from XLA, written as a small table.

Offline, once: every model is built with Keras 3 on the JAX backend, one training step (forward, gradient,
the model's own optimizer update) is traced at the model's usual GPU batch (catalog `gpu_batch_size`) and
lowered to HLO — no array is allocated and nothing runs. From the HLO:

- every convolution and dot (matmul) with its FLOPs (2 per multiply-accumulate) and the bytes of its operands
  and result, counted as many times as its computation runs (a recurrent layer's loop body once per time step);
- the whole step's "bytes accessed" from XLA's cost analysis of the compiled (fused) program; what the
  convolutions and dots do not account for is the memory-bound rest (element-wise, normalisation, the optimizer).

The convolutions and dots are summed into bins of arithmetic intensity (FLOPs per byte, powers of two), so
the estimator's Σ max(FLOPs ÷ compute, bytes ÷ bandwidth) runs per bin. Transformer shapes the zoo does not
build (BERT-large, BERT at 384/512 tokens, GPT-2 XL) are traced at 1 and 2 blocks and extrapolated per block
(cost = embedding and head + layers × one block). Costs are per training example at float32; the estimator
halves the bytes for a mixed-precision figure.

    KERAS_BACKEND=jax JAX_PLATFORMS=cpu .venv/bin/python bench/model_costs.py > engine/compare/facts/model_costs.py && .venv/bin/ruff format engine/compare/facts/model_costs.py
    KERAS_BACKEND=jax JAX_PLATFORMS=cpu .venv/bin/python bench/model_costs.py --shapes > engine/compare/facts/model_costs_shaped.py && .venv/bin/ruff format engine/compare/facts/model_costs_shaped.py

(--shapes: every image pairing of the catalog at an input shape that is not its model's own, keyed `resnet50@192x192x3`.)
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

os.environ.setdefault("KERAS_BACKEND", "jax")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import keras  # noqa: E402

from engine.catalog import catalog, transformer_shapes  # noqa: E402
from engine.worker import models  # noqa: E402

_BYTES = {"f64": 8, "f32": 4, "bf16": 2, "f16": 2, "s32": 4, "u32": 4, "s64": 8, "u64": 8, "s8": 1, "u8": 1, "pred": 1}
_INSTR = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+) = (\w+)\[([\d,]*)\]\S* (\w[\w\-]*)\((.*?)\)(.*)$")
_HEAD = re.compile(r"^(ENTRY\s+)?%?([\w.\-]+)(?: \(.*\))?(?: -> .*)? \{\s*$")
_CALLS = re.compile(r"(to_apply|calls|body|branch_computations)=\{?%?([\w.\-, %]+)\}?")


@dataclass(frozen=True)
class Op:
    """One convolution or dot of the traced step.

    Attributes:
      flops: FLOPs of one execution; bytes: its operands' and result's bytes; comp: the computation it sits in.
    """

    flops: float
    bytes: float
    comp: str


def _size(dtype: str, dims: str) -> tuple[int, float]:
    n = math.prod(int(d) for d in dims.split(",") if d) if dims else 1
    return n, n * _BYTES.get(dtype, 4)


def parse_hlo(text: str, loop_trips: int) -> list[tuple[float, float]]:
    """(FLOPs, bytes) of every convolution and dot, each × how often its computation runs per step."""
    shapes: dict[str, tuple[str, str]] = {}
    ops: list[Op] = []
    refs: dict[str, list[tuple[str, int]]] = {}  # callee → [(caller computation, times per caller run)]
    comp, entry = "", ""
    for line in text.splitlines():
        if h := _HEAD.match(line):
            comp = h.group(2)
            entry = comp if h.group(1) else entry
            continue
        for kind, callees in _CALLS.findall(line.split(" = ", 1)[-1]):
            for callee in re.split(r"[,\s%]+", callees):
                if callee:
                    # a while body runs once per time step of the scan that made it
                    refs.setdefault(callee, []).append((comp, loop_trips if kind == "body" else 1))
        m = _INSTR.match(line)
        if not m:
            continue
        name, dtype, dims, opcode, args, rest = m.groups()
        shapes[name] = (dtype, dims)
        if opcode not in ("convolution", "dot"):
            continue
        operands = [a.strip().lstrip("%") for a in args.split(",")][:2]
        out_n, out_b = _size(dtype, dims)
        in_b = sum(_size(*shapes[o])[1] for o in operands if o in shapes)
        if opcode == "dot":
            lhs = [int(d) for d in shapes[operands[0]][1].split(",") if d]
            contract = re.search(r"lhs_contracting_dims=\{([\d,]*)\}", rest)
            k = math.prod(lhs[int(i)] for i in contract.group(1).split(",") if i) if contract else 1
        else:  # per output element: kernel elements ÷ its output features (dim_labels: ..._01io->...)
            kernel = [int(d) for d in shapes[operands[1]][1].split(",") if d]
            labels = re.search(r"dim_labels=\w+_(\w+)->", rest)
            o_axis = labels.group(1).index("o") if labels else len(kernel) - 1
            k = math.prod(kernel) // max(kernel[o_axis], 1)
        ops.append(Op(2.0 * out_n * k, in_b + out_b, comp))
    memo: dict[str, float] = {}

    def runs(c: str, depth: int = 0) -> float:
        if c == entry or depth > 50:
            return 1.0
        if c not in memo:
            memo[c] = sum(runs(caller, depth + 1) * t for caller, t in refs.get(c, [])) or 1.0
        return memo[c]

    return [(o.flops * runs(o.comp), o.bytes * runs(o.comp)) for o in ops]


def step_costs(model: keras.Model, recipe: models.TrainingRecipe, batch: int, x_dtype: str, loop_trips: int):
    """(per-op [(FLOPs, bytes)], XLA's whole-step FLOPs, XLA's whole-step bytes accessed) of one training step."""
    opt = recipe.optimizer()
    opt.build(model.trainable_variables)
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=recipe.from_logits)

    def step(tv, ntv, ov, x, y):
        def of(tv):
            pred, ntv2 = model.stateless_call(tv, ntv, x, training=True)
            return loss(y, pred), ntv2

        (value, ntv2), grads = jax.value_and_grad(of, has_aux=True)(tv)
        tv2, ov2 = opt.stateless_apply(ov, grads, tv)
        return tv2, ntv2, ov2, value

    def spec(v):
        return jax.ShapeDtypeStruct(tuple(v.shape), v.dtype)

    x = jax.ShapeDtypeStruct((batch, *model.input_shape[1:]), x_dtype)
    y = jax.ShapeDtypeStruct((batch, *model.output_shape[1:-1]), "int32")
    args = ([spec(v) for v in model.trainable_variables], [spec(v) for v in model.non_trainable_variables],
            [spec(v) for v in opt.variables], x, y)  # fmt: skip
    lowered = jax.jit(step).lower(*args)
    ops = parse_hlo(lowered.as_text(dialect="hlo"), loop_trips)
    analysis = lowered.compile().cost_analysis()
    cost = (analysis[0] if isinstance(analysis, list) else analysis) or {}
    return ops, float(cost["flops"]), float(cost["bytes accessed"])


EDGES = [2.0**k for k in range(-2, 13)]  # intensity bins (FLOPs per byte at float32): 0.25 … 4096


def binned(ops: list[tuple[float, float]], per: float) -> dict[int, tuple[float, float]]:
    out: dict[int, tuple[float, float]] = {}
    for f, b in ops:
        k = sum(f / b >= e for e in EDGES) if b else len(EDGES)
        of, ob = out.get(k, (0.0, 0.0))
        out[k] = (of + f / per, ob + b / per)
    return out


@dataclass(frozen=True)
class Row:
    """One model's costs per training example (float32)."""

    model: str
    batch: int
    bins: dict[int, tuple[float, float]]
    other_bytes: float
    xla_flops: float
    how: str


def measure(name: str, build: Callable[[], keras.Model], recipe, batch: int, x_dtype: str, trips: int, how: str) -> Row:
    keras.utils.clear_session()
    ops, flops, bytes_total = step_costs(build(), recipe, batch, x_dtype, trips)
    op_bytes, op_flops = sum(b for _, b in ops), sum(f for f, _ in ops)
    # XLA's totals count a loop body once: a recurrent model's ops (counted per time step) can exceed them
    rest = max(bytes_total - op_bytes, 0.0) / batch
    return Row(name, batch, binned(ops, batch), rest, max(flops, op_flops) / batch, how)


def zoo_row(m: str) -> Row:
    info = catalog.MODELS[m]
    d = catalog.DATASETS[info.native_dataset]
    x_dtype = "int32" if d.kind in ("text", "tokens") else "float32"
    trips = d.input_shape[0] if m == "bilstm" else 1  # the LSTM's scan runs once per token
    how = f"XLA, zoo model at {'×'.join(map(str, d.input_shape))}, batch {info.gpu_batch_size}"
    if trips > 1:
        how += f"; the LSTM loop's matmuls × {trips} steps, its element-wise gate bytes not counted"
    build = lambda: models.build_model(m, d.input_shape, d.num_classes)  # noqa: E731
    return measure(m, build, models.RECIPES[m], info.gpu_batch_size, x_dtype, trips, how)


def shaped_row(m: str, dataset: str) -> Row:
    """A zoo image model traced at another dataset's input shape (a run on flowers JPEGs at 192×192, say): the
    answer rescales the model's figures at its native shape to the run's by this cost (engine.compare.facts.cost)."""
    info, d = catalog.MODELS[m], catalog.DATASETS[dataset]
    how = f"XLA, zoo model at {'×'.join(map(str, d.input_shape))} ({dataset}), batch {info.gpu_batch_size}"
    build = lambda: models.build_model(m, d.input_shape, d.num_classes)  # noqa: E731
    return measure(shaped_key(m, d.input_shape), build, models.RECIPES[m], info.gpu_batch_size, "float32", 1, how)


def shaped_key(m: str, shape: tuple[int, ...]) -> str:
    return f"{m}@{'x'.join(map(str, shape))}"


def shaped_pairings() -> list[tuple[str, str]]:
    """Every image pairing of the catalog whose input shape is not the model's native one, one per shape."""
    out: dict[str, tuple[str, str]] = {}
    for m, d in catalog.valid_pairings():
        info = catalog.MODELS[m]
        if d == catalog.SYNTHETIC or info.kind != "image":
            continue
        shape = catalog.DATASETS[d].input_shape
        if shape != catalog.DATASETS[info.native_dataset].input_shape:
            out.setdefault(shaped_key(m, shape), (m, d))
    return list(out.values())


def transformer_row(key: str, base: str, shape: transformer_shapes.TransformerShape, seq: int, batch: int) -> Row:
    """A transformer the zoo does not build: traced at 1 and 2 blocks, extrapolated to shape.layers blocks."""
    rows = []
    for n in (1, 2):
        transformer_shapes.SHAPES[key] = replace(shape, layers=n)
        if base == "gpt":
            build = lambda: models.transformers.gpt(key, (seq,), shape.vocab)  # noqa: E731
        else:
            build = lambda: models.transformers.bert(key, (seq,), 2)  # noqa: E731
        recipe = models.RECIPES["gpt2_small" if base == "gpt" else "bert_base"]
        rows.append(measure(key, build, recipe, batch, "int32", 1, ""))
    one, two, n = rows[0], rows[1], shape.layers
    bins = {}
    for k in set(one.bins) | set(two.bins):
        f1, b1 = one.bins.get(k, (0.0, 0.0))
        f2, b2 = two.bins.get(k, (0.0, 0.0))
        bins[k] = (max(f1 + (n - 1) * (f2 - f1), 0.0), max(b1 + (n - 1) * (b2 - b1), 0.0))
    other = max(one.other_bytes + (n - 1) * (two.other_bytes - one.other_bytes), 0.0)
    flops = one.xla_flops + (n - 1) * (two.xla_flops - one.xla_flops)
    how = f"XLA at 1 and 2 blocks, extrapolated to {n} (d {shape.d_model}, seq {seq}), batch {batch}"
    return Row(key, batch, {k: v for k, v in bins.items() if v[0] or v[1]}, other, flops, how)


S = transformer_shapes.TransformerShape
EXTRA = [  # (key, builder, shape, sequence length, batch)
    ("bert_base@384", "bert", transformer_shapes.SHAPES["bert_base"], 384, 32),
    ("bert_base@512", "bert", transformer_shapes.SHAPES["bert_base"], 512, 32),
    ("bert_large@128", "bert", S(24, 1024, 16, 4096, 30_522, 512), 128, 32),
    ("bert_large@384", "bert", S(24, 1024, 16, 4096, 30_522, 512), 384, 16),
    ("bert_large@512", "bert", S(24, 1024, 16, 4096, 30_522, 512), 512, 16),
    ("gpt2_xl@1024", "gpt", S(48, 1600, 25, 6400, 50_257, 1024), 1024, 8),
]
# published-only models with no Keras builder here: the zoo model whose op mix stands in (only the balance of
# compute and memory traffic matters where the estimate scales the model's own figure; the level does not)
PROXIES = {
    "resnet152": "resnet152v2",  # the same bottleneck blocks (v1 ordering), at 224 instead of 192
    "ssd": "resnet50",  # SSD300's ResNet-34 backbone: convolutions at similar intensity
    "waveglow": "resnet50",  # flows of 1-D convolutions (WaveNet-like), convolution-bound
    "gnmt": "bilstm",  # stacked LSTMs
    "tacotron2": "bilstm",  # LSTM decoder with convolutional pre/post-nets
}


def main() -> int:
    shapes = "--shapes" in sys.argv  # the image pairings at another shape: their own module (model_costs_shaped.py)
    only = [a for a in sys.argv[1:] if a != "--shapes"]
    if shapes:
        pairs = [(m, d) for m, d in shaped_pairings() if not only or shaped_key(m, catalog.DATASETS[d].input_shape) in only]
        rows = [shaped_row(m, d) for m, d in pairs]
    else:
        rows = [zoo_row(m) for m in catalog.MODEL_NAMES if not only or m in only]
        rows += [transformer_row(k, b, s, q, n) for k, b, s, q, n in EXTRA if not only or k in only]
    target = "model_costs_shaped.py" if shapes else "model_costs.py"
    what = "at the other input shapes of the catalog's image pairings (a run on flowers JPEGs at 192×192, say)" if shapes else "(float32)"
    print(f'"""Per-op FLOPs and bytes of one training step per example {what}, from XLA: bench/model_costs.py.\n')
    print(
        f"Written by:\n\n    KERAS_BACKEND=jax JAX_PLATFORMS=cpu .venv/bin/python bench/model_costs.py{' --shapes' * shapes} "
        f"> engine/compare/facts/{target} && .venv/bin/ruff format engine/compare/facts/{target}"
    )
    print(
        f"\non {date.today().isoformat()} with Keras {keras.__version__}, JAX {jax.__version__} (HLO traced on CPU; nothing runs)."
    )
    print('Do not edit by hand; re-run the command."""\n\nfrom __future__ import annotations\n')
    if not shapes:
        print(
            "# intensity bin edges (FLOPs per byte): a bin k holds the convolutions and dots with EDGES[k-1] ≤ intensity < EDGES[k]"
        )
        print(f"EDGES = {EDGES!r}\n")
    print(
        "# model → (batch traced, {bin: (FLOPs, bytes)} of its convolutions and dots, bytes of the rest, XLA's whole-step"
    )
    print("# FLOPs, how it was counted); all per training example")
    print(f"{'SHAPED_COSTS' if shapes else 'COSTS'}: dict[str, tuple[int, dict[int, tuple[float, float]], float, float, str]] = {{")
    for r in rows:
        bins = ", ".join(f"{k}: ({f:.4g}, {b:.4g})" for k, (f, b) in sorted(r.bins.items()))
        print(f"    {r.model!r}: ({r.batch}, {{{bins}}}, {r.other_bytes:.4g}, {r.xla_flops:.4g}, {r.how!r}),")
    print("}")
    if not shapes:
        print("\n# published-only models without a builder: the zoo model whose op mix stands in for theirs")
        print(f"PROXIES: dict[str, str] = {PROXIES!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
