"""Which way a user's model leans — 'transformer', 'recurrent' or 'conv' — read from the class names of its
layers (Keras) or modules (torch.nn), so Compare's estimate for it borrows the device ratios and the MFU band
of zoo models of its kind (engine.compare.facts.workload.MODEL_KINDS) instead of guessing. Class names, not
framework types: a user's own `SelfAttention` or `TransformerBlock` counts, and nothing here imports a
framework. None when no layer says (an MLP, say): the estimate then keeps its default and says so."""

from __future__ import annotations

from collections.abc import Iterable

RECURRENT = frozenset({"lstm", "gru", "rnn", "simplernn", "bidirectional", "lstmcell", "grucell", "rnncell"})


def kind_of_names(names: Iterable[str]) -> str | None:
    """Attention anywhere makes a transformer (its matmuls dominate); else a recurrence; else convolutions."""
    lowered = [n.lower() for n in names]
    if any("attention" in n or "transformer" in n for n in lowered):
        return "transformer"
    if any(n in RECURRENT for n in lowered):
        return "recurrent"
    if any(n.startswith("conv") or "conv1d" in n or "conv2d" in n or "conv3d" in n for n in lowered):
        return "conv"
    return None


def keras_kind(model) -> str | None:
    """Every layer, nested ones included (a Bidirectional's LSTM, a block's attention)."""
    flat = getattr(model, "_flatten_layers", None)
    layers = list(flat(include_self=False, recursive=True)) if callable(flat) else list(model.layers)
    return kind_of_names(type(layer).__name__ for layer in layers)


def torch_kind(module) -> str | None:
    return kind_of_names(type(m).__name__ for m in module.modules())
