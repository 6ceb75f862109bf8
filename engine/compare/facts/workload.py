"""The one same-workload rule: a ratio is taken only between two rows that did the same work — the same
model (or the same operation and shape) on the same input shape. Everything else that changes speed
(batch, precision, backend, XLA, data, device count, framework version) is named by the grade instead.

Also the small vocabularies the rule, the answer and the estimate share: the input shape of a dataset key,
a precision's class (float32 or mixed/half), a model's kind (conv, transformer, recurrent), and what one
rented "device" is for a hardware key. Pure Python; rows are reference-schema mappings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.catalog import catalog
from engine.catalog.micro_presets import REFERENCE_SHAPES
from engine.reference.normalize import is_missing
from engine.reference.units import HARDWARE, units_between

# Reference dataset keys that are not catalog names; None: the source did not state the shape.
_DATASET_SHAPES: dict[str, tuple[int, ...] | None] = {
    "imagenet": (224, 224, 3),
    "text_unnamed": None,
}
# Which way a model's work leans: the device ratio observed on one model of a kind carries best to
# another model of that kind (convolutions, big matmuls/attention, sequential recurrences).
MODEL_KINDS: dict[str, str] = {
    "fashion_cnn": "conv",
    "tiny_cnn": "conv",
    "flowers_cnn": "conv",
    "vgg19": "conv",
    "xception": "conv",
    "resnet152v2": "conv",
    "resnet152": "conv",
    "resnet50": "conv",
    "inceptionv3": "conv",
    "reuters_conv1d": "conv",
    "bilstm": "recurrent",
    "gpt_tiny": "transformer",
    "gpt2_small": "transformer",
    "bert_base": "transformer",
    "bert_tiny": "transformer",
    "bert_large": "transformer",  # published references only (data/reference/transformer_refs.py)
    "gpt2_xl": "transformer",
    # published references only (data/reference/modern_refs.py: Lambda's v2 suite, MaxText's TPU tables)
    "ssd": "conv",
    "waveglow": "conv",
    "gnmt": "recurrent",
    "tacotron2": "recurrent",
    "llama2_70b": "transformer",
    "llama31_8b": "transformer",
    "llama31_70b": "transformer",
    "gpt3_175b": "transformer",  # Google's MLPerf TPU logs (data/reference/tpu_refs.py)
    "mpt_7b": "transformer",  # MosaicML's LLM Foundry figures (data/reference/mosaic_refs.py)
    "stable_diffusion_v2": "conv",  # a U-Net (attention blocks inside); tpu_refs.py too
    "matmul": "transformer",
    "conv2d": "conv",
}
# Larger or smaller members of one architecture (issue 42 item 3): a device ratio one source measured on a member
# carries to the others with a family term (engine.compare.scale.scaled.FAMILY_MARGIN, checked in
# engine.compare.scale.family_check) — BERT-large's MLPerf ratios for bert_base, the GPT-3/Llama decoders' for GPT-2.
FAMILIES: dict[str, tuple[str, ...]] = {
    "bert_base": ("bert_large",),
    "bert_tiny": ("bert_base", "bert_large"),
    "bert_large": ("bert_base",),
    "gpt2_small": ("gpt2_xl", "gpt3_175b", "llama2_70b", "llama31_8b", "llama31_70b"),
    "gpt_tiny": ("gpt2_small", "gpt2_xl"),
    "gpt2_xl": ("gpt2_small", "gpt3_175b"),
    "resnet50": ("resnet152",),
}
_SEQ = re.compile(r"seq (\d+)")
EIGHT_BIT = ("fp8", "int8")  # 8-bit training (MLPerf's LLM rows): runs at 8-bit peaks the mixed class does not model
HALF = {"mixed_float16", "mixed_bfloat16", "float16", "bfloat16", "bf16_fp16", "fp8", "int8"}


def model_kind(model: str) -> str:
    """'conv', 'transformer' or 'recurrent' (an unknown user model counts as 'conv', the zoo's majority); a
    shape-qualified key (`bert_base@384`, see shaped_model) is its model's kind."""
    return MODEL_KINDS.get(model.split("@")[0], "conv")


def precision_class(precision: Any) -> str:
    """'float32' (float32, tf32, or not stated — the frameworks' default) or 'mixed' (any 16-bit policy)."""
    p = "" if is_missing(precision) else str(precision)
    return "mixed" if p in HALF else "float32"


def input_shape(row: Mapping[str, Any]) -> tuple[int, ...] | None:
    """The per-example input shape a training row used, from its dataset key (None when not stated)."""
    dataset, model = str(row.get("dataset") or ""), str(row.get("model") or "")
    if seq := _SEQ.fullmatch(str(row.get("shape") or "")):  # a published transformer figure's sequence length
        return (int(seq.group(1)),)
    if dataset in _DATASET_SHAPES:
        return _DATASET_SHAPES[dataset]
    if dataset in catalog.DATASETS:
        return catalog.DATASETS[dataset].input_shape
    if dataset == catalog.SYNTHETIC and model in catalog.MODELS:
        return catalog.resolve_dataset(model, dataset).input_shape
    return None


def shaped_model(row: Mapping[str, Any]) -> str:
    """The model key, qualified with the input shape where a training row ran at one that is not its zoo model's
    own: a stated sequence length (`bert_base@384`, from `seq N`) or a dataset of another shape
    (`resnet50@192x192x3` on flowers JPEGs, `bert_base@300` on Reuters). The estimate then costs it at that shape
    (engine.compare.facts.cost), never as the model's own figure at the zoo's shape."""
    model, seq = str(row.get("model") or ""), _SEQ.fullmatch(str(row.get("shape") or ""))
    if row.get("task") != "training" or model not in catalog.MODELS:
        return model if seq is None or row.get("task") != "training" else f"{model}@{seq.group(1)}"
    native = catalog.resolve_dataset(model, catalog.SYNTHETIC).input_shape
    shape = (int(seq.group(1)),) if seq else input_shape(row)
    if shape is None or shape == native:
        return model
    return f"{model}@{'x'.join(str(d) for d in shape)}"


def _shape_text(shape: tuple[int, ...]) -> str:
    return "×".join(str(d) for d in shape)


def not_comparable(mine: Mapping[str, Any], theirs: Mapping[str, Any], derivation: str = "measured") -> str | None:
    """Why `theirs` did other work than `mine` (so no ratio may be taken), or None when it is the same workload.

    Training: the same model and the same input shape (an unstated shape on one side is allowed and named by
    the grade). Microbenchmarks: the same operation and the same shape; a datasheet peak is a ceiling for its
    operation at any shape.
    """
    task_a, task_b = mine.get("task"), theirs.get("task")
    if task_a != task_b:
        return f"{task_b or 'another task'}, not {task_a}"
    model_a, model_b = str(mine.get("model") or ""), str(theirs.get("model") or "")
    if model_a != model_b:
        return (
            f"another model ({model_b or 'not stated'})" if task_a == "training" else f"another operation ({model_b})"
        )
    if task_a == "training":
        a, b = input_shape(mine), input_shape(theirs)
        if a is not None and b is not None and a != b:
            return f"another input shape ({_shape_text(b)}, not {_shape_text(a)})"
        return None
    if derivation == "peak":
        return None
    sa = parse_shape(model_a, str(mine.get("shape") or ""))
    sb = parse_shape(model_b, str(theirs.get("shape") or ""))
    if sa is not None and sb is not None and sa != sb:
        return f"another shape ({theirs.get('shape')}, not {mine.get('shape')})"
    return None


def parse_shape(op: str, text: str) -> dict[str, int] | None:
    """Shape fields from a shape text ("(m x k)@(k x n)", "BxHxWxC * kxkxCxF"); a '?' dimension is filled
    from the seed article's shape when the rest agrees (the article did not state its channel count)."""
    tokens = [t for t in re.split(r"[x*@() ]+", text or "") if t]
    ref = REFERENCE_SHAPES.get(op, {})
    if op == "matmul" and len(tokens) == 4 and "?" not in tokens:
        return {"m": int(tokens[0]), "k": int(tokens[1]), "n": int(tokens[3])}
    if op == "conv2d" and len(tokens) == 8:
        names = ("batch_size", "height", "width", "channels", "kernel_size", "kernel_size", "channels", "filters")
        shape: dict[str, int] = {}
        for name, tok in zip(names, tokens, strict=True):
            if tok == "?":
                if name not in ref:
                    return None
                shape.setdefault(name, ref[name])
            else:
                shape[name] = int(tok)
        if "?" in tokens and any(shape[k] != v for k, v in ref.items()):
            return None
        return shape
    return None


def device_unit(hardware_key: str) -> str:
    """What one device is when a user rents or names one: a GPU (a K80 die, as clouds list it), a TPU v2-8 or
    v3-8 board (sold as one Cloud TPU), a chip of any later TPU, one CPU host."""
    dev = HARDWARE.get(hardware_key)
    if dev is None:
        return "gpu"
    if dev.device_type == "cpu":
        return "host"
    if dev.device_type == "tpu":
        return "board" if hardware_key in ("tpu_v2_8", "tpu_v3_8") else "chip"
    return "die" if hardware_key == "k80" else "gpu"


def device_count(hardware_key: str, count: Any, unit: Any) -> float | None:
    """How many devices (device_unit) a row's `count` × `unit` is; None when the source did not say."""
    if is_missing(count) or is_missing(unit) or not str(unit):
        return None
    per = units_between(hardware_key, str(unit), device_unit(hardware_key))
    return float(count) * per if per is not None else None
