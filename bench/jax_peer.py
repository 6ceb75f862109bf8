"""A plain-JAX matmul (no AccelBench code) to hold the engine's JAX matmul against, and to find where JAX's
8192³ bf16 matmul loses to PyTorch's on an H100 (issue 23 item 4: 669 vs 830 TFLOP/s on 2026-11-23).

    python bench/jax_peer.py [--smoke] [--n 8192]

Prints one JSON line per variant, each timed like bench/gpu_peer.py's torch.matmul (3 warm-ups, then 20 calls
back to back and one block_until_ready, per call), so the two peers differ only in the framework:
  jit             jax.jit(jnp.matmul) on bf16 operands (the engine's op)
  f32_accumulate  the same with preferred_element_type=float32, cast back to bf16 (what cuBLAS does inside)
  synced          the jit variant synchronised after every call (how the engine timed micro ops until
                  2026-11-25): the gap to `jit` is the host's round trip, not the GPU
  in_one_program  20 matmuls in one jitted program (lax.fori_loop): no per-call dispatch at all
Run it twice, the second time with XLA_FLAGS=--xla_gpu_enable_triton_gemm=false (cuBLAS only, no Triton
GEMMs): each line carries the XLA_FLAGS it ran under. bench/gpu_check.py does both on a GPU.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import jax
import jax.numpy as jnp
from jax import lax

REPEATS, WARMUP = 20, 3


def _per_call(f, *args, repeats: int = REPEATS, sync_each: bool = False) -> float:
    for _ in range(WARMUP):
        jax.block_until_ready(f(*args))
    t0 = time.perf_counter()
    out = None
    for _ in range(repeats):
        out = f(*args)
        if sync_each:
            jax.block_until_ready(out)
    jax.block_until_ready(out)
    return (time.perf_counter() - t0) / repeats


def variants(n: int) -> list[dict]:
    key_a, key_b = jax.random.split(jax.random.PRNGKey(0))
    a = jax.random.uniform(key_a, (n, n), dtype=jnp.float32).astype(jnp.bfloat16)
    b = jax.random.uniform(key_b, (n, n), dtype=jnp.float32).astype(jnp.bfloat16)
    plain = jax.jit(jnp.matmul)
    f32_acc = jax.jit(lambda x, y: jnp.matmul(x, y, preferred_element_type=jnp.float32).astype(jnp.bfloat16))

    @jax.jit
    def in_one_program(x, y):
        # a chain (each product the next left operand) so XLA cannot hoist a loop-invariant matmul; values
        # overflow to inf after a few passes, which costs a tensor core nothing
        return lax.fori_loop(0, REPEATS, lambda _, c: jnp.matmul(c, y), x)

    times = {
        "jit": _per_call(plain, a, b),
        "f32_accumulate": _per_call(f32_acc, a, b),
        "synced": _per_call(plain, a, b, sync_each=True),
        "in_one_program": _per_call(in_one_program, a, b, repeats=3) / REPEATS,
    }
    flags, device = os.environ.get("XLA_FLAGS", ""), str(jax.devices()[0].device_kind)
    return [
        {"peer": f"jax.{name}", "n": n, "dtype": "bfloat16", "ms": s * 1e3, "tflops": 2 * n**3 / s / 1e12,
         "xla_flags": flags, "device": device, "jax": jax.__version__}
        for name, s in times.items()
    ]  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--smoke", action="store_true", help="n=256, for a CPU")
    p.add_argument("--n", type=int, default=8192)
    a = p.parse_args()
    for line in variants(256 if a.smoke else a.n):
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
