"""The columns that say what a run's model was and how its work was counted (issue 20), the same on every
training path: where the model came from (`model_source`: zoo, file or function) and its hash, where the
FLOP count came from (`flops_source`), and a sequence model's tokens/s."""

from __future__ import annotations

from typing import Any

from engine.catalog import catalog

COUNTED_BY_LAYER = "counted by layer (engine/worker/flops.py)"


def model_columns(
    model: str,
    dataset: str,
    examples_per_sec: float | None,
    flops_source: str = COUNTED_BY_LAYER,
    model_source: str = "zoo",
    model_hash: str | None = None,
    tokens: int | None = None,
    model_kind: str | None = None,
) -> dict[str, Any]:
    """`tokens`: tokens per example of a user's sequence model; a zoo transformer's come from the catalog.
    `model_kind`: a user model's, from its layers (engine.worker.layer_kind); a zoo model's is known by name."""
    per_example = tokens if tokens is not None else catalog.tokens_per_example(model, dataset)
    return {
        "model_source": model_source,
        "model_hash": model_hash,
        "flops_source": flops_source,
        "model_kind": model_kind,
        "tokens_per_sec": examples_per_sec * per_example if examples_per_sec and per_example else None,
    }
