"""PyTorch: device facts, synchronisation and the microbenchmark ops (`torch.matmul`, `F.conv2d`).

PyTorch runs eagerly; CUDA kernels are asynchronous, so every timing edge calls
`torch.cuda.synchronize()`. On the CPU an op has finished when it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812  (PyTorch's own spelling)

from engine.catalog import hardware_table
from engine.worker.errors import PlacementError

NAME = "torch"


def version() -> str:
    return f"torch {torch.__version__}"


def _torch_device(device: str) -> torch.device:
    if device == "gpu":
        if not torch.cuda.is_available():
            raise PlacementError("asked for GPU but PyTorch sees no CUDA device (a CPU-only build, or no driver?)")
        return torch.device("cuda", 0)
    if device == "tpu":
        raise PlacementError("--backend torch cannot drive a TPU here (that needs torch_xla); use --backend jax")
    return torch.device("cpu")


def devices(device: str) -> list[torch.device]:
    return [_torch_device(device)]


def describe(d: torch.device) -> str:
    return f"{d.type}:{d.index or 0}"


def device_name(device: str) -> str:
    if device == "gpu":
        return torch.cuda.get_device_name(0)
    from engine.runs import hardware

    return hardware.cpu_info().name


def _operands(shapes: list[tuple[int, ...]], dtype: str, device: str) -> list[torch.Tensor]:
    gen = torch.Generator().manual_seed(0)
    dev = _torch_device(device)
    return [torch.rand(s, generator=gen).to(device=dev, dtype=getattr(torch, dtype)) for s in shapes]


def matmul_op(m: int, n: int, k: int, dtype: str, device: str) -> Callable[[], Any]:
    a, b = _operands([(m, k), (k, n)], dtype, device)
    return lambda: torch.matmul(a, b)


def conv_op(batch: int, height: int, width: int, channels: int, filters: int, ksize: int, dtype: str, device: str):
    # PyTorch's native layout is NCHW; the FLOP count is the same as NHWC's
    x, w = _operands([(batch, channels, height, width), (filters, channels, ksize, ksize)], dtype, device)
    return lambda: F.conv2d(x, w, padding="same")


def finish(out) -> None:
    if out.is_cuda:
        torch.cuda.synchronize()


def used_devices(out) -> set[str]:
    return {describe(out.device)}


def kind_of(name: str) -> str:
    return name.split(":")[0].replace("cuda", "gpu")


def variable_devices(model) -> set[str]:
    return {describe(v.value.device) for v in model.trainable_variables}


def sync_model(model) -> None:
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()


def peak_device_memory_mb(device: str) -> float | None:
    if device != "gpu":
        return None
    return torch.cuda.max_memory_allocated(0) / 2**20


def peak_dtype(dtype: str, device: str, op: str) -> str:
    """PyTorch's defaults: float32 matmuls in full float32 (allow_tf32=False), convolutions on TF32 (cuDNN) — where
    the GPU has TF32 units and the stack honours the switch (hardware_table.float32_math: not on a T4 or V100,
    nor for MIOpen's convolutions on ROCm)."""
    if dtype != "float32" or device != "gpu":
        return dtype
    tf32 = torch.backends.cuda.matmul.allow_tf32 if op == "matmul" else torch.backends.cudnn.allow_tf32
    stack = "rocm" if torch.version.hip else "cuda"
    return hardware_table.float32_math(device_name(device), stack, op, tf32)


def math_note(dtype: str, device: str) -> str:
    if dtype == "float32" and device == "gpu":
        tf32 = torch.backends.cuda.matmul.allow_tf32
        return f"PyTorch float32 matmul with allow_tf32={tf32} (PyTorch's default: full float32)"
    return ""
