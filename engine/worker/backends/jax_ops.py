"""JAX: device facts, synchronisation and the microbenchmark ops (`jnp.matmul`, `lax.conv_general_dilated`).

Every op runs under `jax.jit` (JAX's normal mode: XLA compiles it) and is synchronised with
`block_until_ready`, since JAX dispatches asynchronously.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

from engine.catalog import hardware_table
from engine.worker.errors import PlacementError

NAME = "jax"
_PLATFORM = {"cpu": "cpu", "gpu": "gpu", "tpu": "tpu"}


def version() -> str:
    import jaxlib

    return f"jax {jax.__version__} (jaxlib {jaxlib.__version__})"


def devices(device: str) -> list:
    """JAX's devices of the requested kind; PlacementError when there are none."""
    try:
        found = jax.devices(_PLATFORM[device])
    except RuntimeError:
        found = []
    if not found:
        seen = ", ".join(describe(d) for d in jax.devices()) or "none"
        raise PlacementError(f"asked for {device.upper()} but JAX has no {device.upper()} device (it sees: {seen})")
    return found


def describe(d) -> str:
    return f"{d.platform}:{d.id}"


def device_name(device: str) -> str:
    return devices(device)[0].device_kind


def _operands(shapes: list[tuple[int, ...]], dtype: str, dev) -> list:
    keys = jax.random.split(jax.random.PRNGKey(0), len(shapes))
    return [
        jax.device_put(jax.random.uniform(k, s, jnp.float32).astype(dtype), dev)
        for k, s in zip(keys, shapes, strict=True)
    ]


def matmul_op(m: int, n: int, k: int, dtype: str, device: str) -> Callable[[], Any]:
    a, b = _operands([(m, k), (k, n)], dtype, devices(device)[0])
    f = jax.jit(jnp.matmul)
    return lambda: f(a, b)


def conv_op(batch: int, height: int, width: int, channels: int, filters: int, ksize: int, dtype: str, device: str):
    x, w = _operands([(batch, height, width, channels), (ksize, ksize, channels, filters)], dtype, devices(device)[0])
    f = jax.jit(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")))
    return lambda: f(x, w)


def finish(out) -> None:
    jax.block_until_ready(out)


def used_devices(out) -> set[str]:
    return {describe(d) for d in out.devices()}


def kind_of(name: str) -> str:
    return name.split(":")[0].replace("cuda", "gpu")


def variable_devices(model) -> set[str]:
    """Every device holding (a shard or replica of) a trainable variable."""
    found: set[str] = set()
    for v in model.trainable_variables:
        found |= {describe(d) for d in v.value.devices()}
    return found


def sync_model(model) -> None:
    """Wait for all dispatched train steps: inside `fit` the newest state is the trainer's `_jax_state`."""
    state = getattr(model, "_jax_state", None)
    jax.block_until_ready(_plain(state) if state else [v.value for v in model.trainable_variables])


def _plain(tree: Any) -> Any:
    """Keras stores `_jax_state` as a TrackedDict of TrackedLists, which JAX's pytree registry (exact types
    only) takes for one opaque leaf: `block_until_ready` on it returned at once, so windows timed dispatch."""
    if isinstance(tree, dict):
        return {k: _plain(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [_plain(v) for v in tree]
    return tree


def peak_device_memory_mb(device: str) -> float | None:
    if device == "cpu":
        return None
    stats = devices(device)[0].memory_stats() or {}
    peak = stats.get("peak_bytes_in_use")
    return peak / 2**20 if peak else None


def stack(device: str) -> str:
    """The GPU runtime this jaxlib was built for, "rocm" or "cuda" (its client's platform version names it)."""
    version = str(getattr(devices(device)[0].client, "platform_version", "")).lower()
    return "rocm" if "rocm" in version else "cuda"


def _tf32_allowed(device: str) -> bool:
    """JAX's default matmul precision runs float32 on TF32 on CUDA; on ROCm TF32 is taken only when asked for."""
    precision = getattr(jax.config, "jax_default_matmul_precision", None)
    return precision == "tensorfloat32" or (precision in (None, "default", "fastest") and stack(device) == "cuda")


def peak_dtype(dtype: str, device: str, op: str) -> str:
    """The math a float32 op really gets (hardware_table.float32_math): TF32 on an Ampere-or-later NVIDIA GPU under
    JAX's default precision; full float32 on a T4 or V100 (no TF32 units) and for a ROCm training step."""
    if dtype != "float32" or device != "gpu":
        return dtype
    return hardware_table.float32_math(device_name(device), stack(device), op, _tf32_allowed(device))


def math_note(dtype: str, device: str) -> str:
    if dtype != "float32" or device != "gpu":
        return ""
    if peak_dtype(dtype, device, "matmul") == "tf32":
        return "JAX's default matmul precision: float32 inputs run on TF32 tensor cores on this GPU"
    return f"float32 in full float32 on this GPU ({device_name(device)}: no TF32 by default here)"
