"""The zoo transformers' sizes: one table for the Keras models (engine.worker.transformers) and the native
PyTorch ones (engine.worker.torch_native.transformer). Pure Python, so the native path imports no Keras."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TransformerShape:
    """One transformer's size.

    Attributes:
      layers: blocks; d_model: width; heads: attention heads; mlp: the feed-forward width;
      vocab: embedding rows (a GPT's output vocabulary is the dataset's class count);
      positions: learned position embeddings (≥ the sequence length).
    """

    layers: int
    d_model: int
    heads: int
    mlp: int
    vocab: int
    positions: int


SHAPES: dict[str, TransformerShape] = {
    "gpt2_small": TransformerShape(12, 768, 12, 3072, 50_257, 1024),
    "gpt_tiny": TransformerShape(2, 128, 4, 512, 1024, 128),
    "bert_base": TransformerShape(12, 768, 12, 3072, 30_522, 512),
    "bert_tiny": TransformerShape(2, 128, 2, 512, 30_522, 512),
}
