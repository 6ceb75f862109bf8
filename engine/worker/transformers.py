"""Today's transformer workloads as Keras 3 models (worker/CLI only): a GPT-style decoder and a BERT-style encoder.

Built from `keras.layers.MultiHeadAttention` with no attention dropout, which Keras routes through
`keras.ops.dot_product_attention` — the backend's fused attention where it has one (JAX: XLA/cuDNN; PyTorch:
scaled_dot_product_attention; the decoder passes `use_causal_mask=True`, which takes the causal kernel without
materialising a T×T mask). They run on TensorFlow, JAX and PyTorch alike, and so on the GPU machine, which
has no TensorFlow (keras-hub would need tensorflow-text there).

Shapes:
  gpt2_small   12 layers, d 768, 12 heads, MLP 3072, context 1024, vocab 50,257, tied input/output embedding
               (GPT-2 small: 124 M parameters), pre-LayerNorm, GELU
  gpt_tiny     2 layers, d 128, 4 heads, MLP 512, context 128, vocab 1,024 — the same layout at CI size
  bert_base    12 layers, d 768, 12 heads, MLP 3072, vocab 30,522, 512 positions, post-LayerNorm, a pooled
               [CLS] → tanh → classes head (BERT-base: ~110 M parameters with its heads)
  bert_tiny    2 layers, d 128, 2 heads, MLP 512 — the same layout at CI size

The language-model head's logits (the loss takes logits) and the classification softmax are float32 under a
mixed policy.
"""

from __future__ import annotations

import keras
from keras import layers, ops

from engine.catalog import catalog
from engine.catalog.transformer_shapes import SHAPES, TransformerShape

FUSED_ATTENTION_NOTE = "attention: keras.ops.dot_product_attention (the backend's fused kernel where it has one)"


class TiedLogits(layers.Layer):
    """Next-token logits from the input embedding's own matrix (GPT-2 ties them: 38 M fewer parameters)."""

    def __init__(self, embedding: layers.Embedding, **kwargs):
        super().__init__(**kwargs)
        self.embedding = embedding

    def call(self, x):
        weights = ops.cast(self.embedding.embeddings, x.dtype)
        return ops.cast(ops.matmul(x, ops.transpose(weights)), "float32")


class PositionEmbedding(layers.Layer):
    """Learned absolute positions, added to the token embedding."""

    def __init__(self, positions: int, d_model: int, **kwargs):
        super().__init__(**kwargs)
        self.positions, self.d_model = positions, d_model

    def build(self, input_shape):
        self.table = self.add_weight(shape=(self.positions, self.d_model), initializer="glorot_uniform", name="table")

    def call(self, x):
        length = ops.shape(x)[1]
        return x + ops.cast(self.table[:length], x.dtype)


def _mlp(x, s: TransformerShape, name: str):
    h = layers.Dense(s.mlp, activation="gelu", name=f"{name}_mlp_in")(x)
    return layers.Dense(s.d_model, name=f"{name}_mlp_out")(h)


def _attention(s: TransformerShape, name: str) -> layers.MultiHeadAttention:
    return layers.MultiHeadAttention(s.heads, s.d_model // s.heads, dropout=0.0, name=f"{name}_attention")


def gpt(name: str, input_shape: tuple[int, ...], vocab: int) -> keras.Model:
    """A GPT-2-style decoder (pre-LayerNorm) with a tied language-model head: logits over `vocab` per position."""
    s = SHAPES[name]
    if input_shape[0] > s.positions:
        raise ValueError(f"{name} has {s.positions} positions; the data has sequences of {input_shape[0]}")
    tokens = keras.Input(shape=input_shape, dtype="int32", name="token_ids")
    embed = layers.Embedding(vocab, s.d_model, name="token_embedding")
    x = PositionEmbedding(s.positions, s.d_model, name="position_embedding")(embed(tokens))
    for i in range(s.layers):
        h = layers.LayerNormalization(epsilon=1e-5, name=f"block{i}_ln1")(x)
        x = x + _attention(s, f"block{i}")(h, h, use_causal_mask=True)
        h = layers.LayerNormalization(epsilon=1e-5, name=f"block{i}_ln2")(x)
        x = x + _mlp(h, s, f"block{i}")
    x = layers.LayerNormalization(epsilon=1e-5, name="final_ln")(x)
    # logits, not probabilities: a float32 softmax over 50,257 tokens at every position would hold 6.6 GB at
    # batch 32; the loss takes them with from_logits=True (engine.worker.models.RECIPES)
    logits = TiedLogits(embed, name="lm_head")(x)
    return keras.Model(tokens, logits, name=name)


def bert(name: str, input_shape: tuple[int, ...], num_classes: int) -> keras.Model:
    """A BERT-style encoder (post-LayerNorm) with a pooled [CLS] classification head."""
    s = SHAPES[name]
    if input_shape[0] > s.positions:
        raise ValueError(f"{name} has {s.positions} positions; the data has sequences of {input_shape[0]}")
    tokens = keras.Input(shape=input_shape, dtype="int32", name="token_ids")
    x = layers.Embedding(s.vocab, s.d_model, name="token_embedding")(tokens)
    x = PositionEmbedding(s.positions, s.d_model, name="position_embedding")(x)
    x = layers.LayerNormalization(epsilon=1e-12, name="embedding_ln")(x)
    for i in range(s.layers):
        x = layers.LayerNormalization(epsilon=1e-12, name=f"block{i}_ln1")(x + _attention(s, f"block{i}")(x, x))
        x = layers.LayerNormalization(epsilon=1e-12, name=f"block{i}_ln2")(x + _mlp(x, s, f"block{i}"))
    cls = x[:, 0, :]
    pooled = layers.Dense(s.d_model, activation="tanh", name="pooler")(cls)
    logits = layers.Dense(num_classes, name="classifier")(pooled)
    probs = layers.Activation("softmax", dtype="float32", name="probabilities")(logits)
    return keras.Model(tokens, probs, name=name)


def attention_flops(layer: layers.MultiHeadAttention, seq: int) -> int:
    """Forward FLOPs of one self-attention layer for one sequence of `seq` tokens: the q, k, v and output
    projections (4 × 2·T·d²) and the two T×T products, scores and weighted sum (2 × 2·T²·d). The full T² is
    counted for a causal layer too, as the 6N + 12·L·T·d convention (PaLM appendix B) does."""
    d = int(layer.num_heads) * int(layer.key_dim)
    d_model = int(layer._query_dense.kernel.shape[0])
    return 2 * seq * d_model * d * 3 + 2 * seq * d * d_model + 4 * seq * seq * d


def lm_head_flops(layer: TiedLogits, seq: int) -> int:
    """Forward FLOPs of the tied logits: a T×d by d×V product."""
    vocab, d_model = (int(n) for n in layer.embedding.embeddings.shape)
    return 2 * seq * d_model * vocab


def formula_train_flops_per_token(name: str, params: int, seq: int) -> float:
    """The standard estimate, 6·N + 12·L·T·d per token (Kaplan et al. 2020; PaLM, appendix B), N counting the
    parameters that enter a matrix product: not the position table, and not the token table of an encoder
    (a look-up); a decoder's tied table is also its output projection, so it counts."""
    s = SHAPES[name]
    looked_up = s.positions * s.d_model + (0 if name.startswith("gpt") else s.vocab * s.d_model)
    return 6.0 * (params - looked_up) + 12.0 * s.layers * seq * s.d_model


def run_notes(model: str, dataset: str, examples_per_sec: float | None) -> list[str]:
    """What a transformer run's row says beyond examples/s: its tokens/s (the unit every LLM benchmark quotes)
    and which attention ran; nothing for other models."""
    tokens = catalog.tokens_per_example(model, dataset)
    if tokens is None:
        return []
    rate = f"{examples_per_sec * tokens:,.0f}" if examples_per_sec else "not measured"
    return [f"tokens/s {rate} ({tokens:,} tokens per sequence × sequences/s)", FUSED_ATTENTION_NOTE]
