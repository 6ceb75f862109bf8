"""The zoo's transformers in torch.nn — gpt_tiny, gpt2_small, bert_tiny, bert_base — layer for layer as
engine/worker/transformers.py builds them in Keras (same shapes, so the same parameter counts), with attention
through torch.nn.functional.scaled_dot_product_attention: PyTorch's fused kernels (flash, memory-efficient or
cuDNN on a GPU, the flash kernel on a CPU), the decoder with `is_causal=True` (no T×T mask is built).

  gpt   pre-LayerNorm decoder, learned positions, GELU MLP, a tied language-model head (logits per position)
  bert  post-LayerNorm encoder, learned positions, an embedding LayerNorm, a pooled [CLS] → tanh → classes head

Weights start as GPT-2 and BERT initialise them (normal, std 0.02; zero biases), as PyTorch reproductions
do; Keras starts from its own defaults (glorot_uniform), which changes no shape, count or FLOP. The shapes
are a copy of engine.worker.transformers.SHAPES, which cannot be imported here (that module imports Keras);
tests/worker/test_torch_native_transformers.py checks the parameter counts against the Keras models'.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from engine.catalog.transformer_shapes import SHAPES, TransformerShape

Shape = TransformerShape
INIT_STD = 0.02


class SelfAttention(nn.Module):
    """Multi-head self-attention: one q/k/v projection (biases, as Keras's MultiHeadAttention), SDPA, output
    projection — 4·d² + 4·d parameters, the same as Keras's four EinsumDense layers."""

    def __init__(self, s: Shape, causal: bool):
        super().__init__()
        self.heads, self.causal = s.heads, causal
        self.qkv = nn.Linear(s.d_model, 3 * s.d_model)
        self.out = nn.Linear(s.d_model, s.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, t, d = x.shape
        q, k, v = self.qkv(x).view(n, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)  # (N, heads, T, d/heads)
        return self.out(y.transpose(1, 2).reshape(n, t, d))


class MLP(nn.Sequential):
    def __init__(self, s: Shape):
        # Keras's "gelu" activation is the exact (erf) GELU, approximate=False: PyTorch's default
        super().__init__(nn.Linear(s.d_model, s.mlp), nn.GELU(), nn.Linear(s.mlp, s.d_model))


class _Embeddings(nn.Module):
    def __init__(self, vocab: int, s: Shape):
        super().__init__()
        self.tokens = nn.Embedding(vocab, s.d_model)
        self.positions = nn.Parameter(torch.zeros(s.positions, s.d_model))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.tokens(ids) + self.positions[: ids.shape[1]]


class GPT(nn.Module):
    def __init__(self, s: Shape, vocab: int):
        super().__init__()
        self.embed = _Embeddings(vocab, s)
        self.blocks = nn.ModuleList(_Block(s, decoder=True) for _ in range(s.layers))
        self.final_ln = nn.LayerNorm(s.d_model, eps=1e-5)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x)
        return self.final_ln(x) @ self.embed.tokens.weight.T  # tied head: (N, T, vocab) logits


class _Block(nn.Module):
    """A GPT block (pre-LayerNorm, causal, eps 1e-5) or a BERT block (post-LayerNorm, eps 1e-12)."""

    def __init__(self, s: Shape, decoder: bool):
        super().__init__()
        eps = 1e-5 if decoder else 1e-12
        self.decoder = decoder
        self.ln1, self.ln2 = nn.LayerNorm(s.d_model, eps=eps), nn.LayerNorm(s.d_model, eps=eps)
        self.attention, self.mlp = SelfAttention(s, causal=decoder), MLP(s)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.decoder:
            x = x + self.attention(self.ln1(x))
            return x + self.mlp(self.ln2(x))
        x = self.ln1(x + self.attention(x))
        return self.ln2(x + self.mlp(x))


class BERT(nn.Module):
    def __init__(self, s: Shape, num_classes: int):
        super().__init__()
        self.embed = _Embeddings(s.vocab, s)
        self.embed_ln = nn.LayerNorm(s.d_model, eps=1e-12)
        self.blocks = nn.Sequential(*(_Block(s, decoder=False) for _ in range(s.layers)))
        self.pooler = nn.Linear(s.d_model, s.d_model)
        self.classifier = nn.Linear(s.d_model, num_classes)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.blocks(self.embed_ln(self.embed(ids)))
        return self.classifier(torch.tanh(self.pooler(x[:, 0])))  # logits; the loss applies the softmax


def _init(module: nn.Module) -> nn.Module:
    for m in module.modules():
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=INIT_STD)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)
        if isinstance(m, _Embeddings):
            nn.init.normal_(m.positions, std=INIT_STD)
    return module


def _fits(name: str, input_shape: tuple[int, ...]) -> Shape:
    s = SHAPES[name]
    if input_shape[0] > s.positions:
        raise ValueError(f"{name} has {s.positions} positions; the data has sequences of {input_shape[0]}")
    return s


def gpt(name: str, input_shape: tuple[int, ...], vocab: int) -> nn.Module:
    return _init(GPT(_fits(name, input_shape), vocab))


def bert(name: str, input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return _init(BERT(_fits(name, input_shape), num_classes))


def gpt2_small(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return gpt("gpt2_small", input_shape, num_classes)


def gpt_tiny(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return gpt("gpt_tiny", input_shape, num_classes)


def bert_base(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return bert("bert_base", input_shape, num_classes)


def bert_tiny(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return bert("bert_tiny", input_shape, num_classes)
