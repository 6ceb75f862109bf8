"""`--model-fn package.module:build` returning a torch.nn.Module, on the native path (`--backend torch`).

A torch module carries no input specs, so it says what it eats: an `input_shape` attribute (one example, in
the module's own layout: (C, H, W) for images, (length,) for token ids) and, for token ids, `vocab_size`;
or the run gets `--data-npz` x/y, fed as they are. Labels are class indices; the class count is the width of
the module's output. The same reading runs before launch (engine.worker.inspect_model), so a function that
cannot build, returns something else or says nothing of its input is refused before any row is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn

from engine.catalog import catalog
from engine.catalog.specs import TrainSpec
from engine.worker import model_fn
from engine.worker.arrays import ArrayPipeline, repeat_one
from engine.worker.layer_kind import torch_kind


class UserFnError(ValueError):
    """The function's module cannot run natively; the message says why and what to do."""


@dataclass
class UserModule:
    """A user's torch module and what the run feeds it.

    Attributes:
      module: the module (float32, on the CPU). name: its class name (the run's `model`).
      info: its per-example input shape and class count. pipeline: the batches it trains on.
      facts: model_columns' keyword arguments (model_source, model_hash, tokens).
    """

    module: nn.Module
    name: str
    info: catalog.DatasetInfo
    pipeline: ArrayPipeline
    facts: dict[str, Any] = field(default_factory=dict)


def _build(spec: TrainSpec) -> tuple[nn.Module, str]:
    build, source_hash = model_fn.resolve(spec, UserFnError)
    module = build()
    if not isinstance(module, nn.Module):
        raise UserFnError(
            f"--model-fn {spec.model_fn}: returned {type(module).__name__}, not a torch.nn.Module "
            "(a keras.Model runs with --backend tensorflow, jax or keras-torch)"
        )
    return module, source_hash


def _batch(module: nn.Module, spec: TrainSpec) -> tuple[np.ndarray, np.ndarray]:
    if spec.data_npz:
        with np.load(spec.data_npz) as f:
            if "x" not in f or "y" not in f:
                raise UserFnError(f"--data-npz {spec.data_npz}: needs arrays named x and y")
            x, y = f["x"], f["y"]
        if len(x) < spec.batch_size:
            raise UserFnError(f"--data-npz: {len(x)} examples, fewer than one batch of {spec.batch_size}")
        return x[: spec.batch_size], y[: spec.batch_size].astype(np.int64)
    shape = getattr(module, "input_shape", None)
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, int) and d > 0 for d in shape):
        raise UserFnError(
            f"{type(module).__name__}: give the module an input_shape attribute (one example, e.g. (3, 32, 32)) "
            "or pass --data-npz"
        )
    rng = np.random.default_rng(0)
    vocab = getattr(module, "vocab_size", None)
    if vocab:
        x = rng.integers(0, int(vocab), size=(spec.batch_size, *shape), dtype=np.int64)
    else:
        x = rng.random((spec.batch_size, *shape), dtype=np.float32)
    with torch.no_grad():
        width = module.eval()(torch.from_numpy(x[:2])).shape[-1]
    module.train()
    return x, rng.integers(0, int(width), size=(spec.batch_size,), dtype=np.int64)


def load(spec: TrainSpec) -> UserModule:
    module, digest = _build(spec)
    x, y = _batch(module, spec)
    classes = int(y.max()) + 1
    kind = "text" if np.issubdtype(x.dtype, np.integer) else "image"
    info = catalog.DatasetInfo(
        "user", kind, tuple(int(d) for d in x.shape[1:]), classes, len(x), "the model's own input"
    )
    where = "--data-npz" if spec.data_npz else "synthetic, shaped by the module's input_shape"
    pipe = ArrayPipeline(repeat_one((x, y)), None, info, f"{where} (one cached batch)", len(x))
    tokens = int(x.shape[1]) if kind == "text" and x.ndim == 2 else None
    facts = {"model_source": "function", "model_hash": digest, "tokens": tokens, "model_kind": torch_kind(module)}
    return UserModule(module, type(module).__name__, info, pipe, facts)


def inspect(spec: TrainSpec) -> dict:
    """inspect_model's answer for a torch module (see engine.worker.inspect_model)."""
    try:
        user = load(spec)
    except UserFnError as exc:
        return {"ok": False, "error": str(exc)}
    x, y = next(user.pipeline.train)
    from engine.worker.torch_native.attention import flop_counter

    with flop_counter() as counter:
        out = user.module(torch.from_numpy(x[:2]))
        nn.functional.cross_entropy(out.float(), torch.from_numpy(y[:2])).backward()
    return {
        "ok": True,
        "name": user.name,
        "params": sum(p.numel() for p in user.module.parameters()),
        "train_flops_per_example": counter.get_total_flops() / 2,
        "inputs": [["x", list(user.info.input_shape), str(x.dtype)]],
        "outputs": [list(out.shape[1:])],
        "tokens_per_example": user.facts["tokens"],
        "source": "function",
        "digest": user.facts["model_hash"],
        "model_kind": user.facts["model_kind"],
    }
