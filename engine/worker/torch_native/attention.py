"""What a native transformer row says about its attention and its work: which fused kernel
scaled_dot_product_attention dispatched, tokens/s, and a FLOP count that sees every SDPA kernel.

torch's FlopCounterMode counts the CUDA SDPA kernels (flash, memory-efficient, cuDNN) but not the CPU's flash
kernel (aten._scaled_dot_product_flash_attention_for_cpu): `flop_counter()` adds that one with torch's own
SDPA formulas, so a CPU row's attention products are counted as a GPU row's are (the full T×T, causal or not,
as engine.worker.transformers.attention_flops counts a Keras row's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.flop_counter import FlopCounterMode, sdpa_backward_flop_count, sdpa_flop_count

from engine.catalog import catalog

_aten = torch.ops.aten
KERNELS = {
    "_scaled_dot_product_flash_attention": "fused FlashAttention kernel",
    "_scaled_dot_product_efficient_attention": "fused memory-efficient kernel",
    "_scaled_dot_product_cudnn_attention": "fused cuDNN kernel",
    "_scaled_dot_product_flash_attention_for_cpu": "fused CPU flash-attention kernel",
    "_scaled_dot_product_fused_attention_overrideable": "the device's fused kernel",
}


def _forward(q, k, v, *args, out_shape=None, **kwargs) -> int:
    return sdpa_flop_count(q, k, v)  # shapes: FlopCounterMode hands shapes to a custom formula


def _backward(grad_out, q, k, v, *args, out_shape=None, **kwargs) -> int:
    return sdpa_backward_flop_count(grad_out, q, k, v)


def flop_counter() -> FlopCounterMode:
    """A FlopCounterMode that also counts the CPU flash-attention kernel, forward and backward."""
    mapping: dict[Any, Callable[..., int]] = {}
    if hasattr(_aten, "_scaled_dot_product_flash_attention_for_cpu"):
        mapping[_aten._scaled_dot_product_flash_attention_for_cpu] = _forward
        mapping[_aten._scaled_dot_product_flash_attention_for_cpu_backward] = _backward
    return FlopCounterMode(display=False, custom_mapping=mapping)


class _SeenOps(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.add(func.__name__.split(".")[0])
        return func(*args, **(kwargs or {}))


def kernel(module: torch.nn.Module, x: torch.Tensor, amp_dtype: torch.dtype | None) -> str:
    """The attention kernel eager PyTorch dispatches for `module` on two examples of `x` at the run's precision
    (gradients on, as in training), in words; "unfused math path" when SDPA fell back to matmul + softmax."""
    seen = _SeenOps()
    with torch.autocast(x.device.type, dtype=amp_dtype or torch.float32, enabled=amp_dtype is not None), seen:
        module(x[:2])
    found = sorted(KERNELS[n] for n in seen.names if n in KERNELS)
    return ", ".join(found) if found else "unfused math path (no fused kernel for this device and dtype)"


def notes(model: str, dataset: str, examples_per_sec: float | None, kernel_words: str) -> list[str]:
    """A native transformer row's tokens/s (examples/s × sequence length, the unit LLM benchmarks quote) and
    its attention, as the Keras rows say theirs (engine.worker.transformers.run_notes)."""
    tokens = catalog.tokens_per_example(model, dataset)
    if tokens is None:
        return []
    rate = "not measured" if not examples_per_sec else f"{examples_per_sec * tokens:,.0f}"
    return [
        f"tokens/s {rate} ({tokens:,} tokens per sequence × sequences/s)",
        f"attention: torch.nn.functional.scaled_dot_product_attention → {kernel_words} "
        "(the kernel eager PyTorch dispatches at this precision)",
    ]
