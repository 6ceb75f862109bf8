"""FLOPs of one microbenchmark call, shared by every backend (no framework import)."""

from __future__ import annotations

from engine.catalog.specs import MicroSpec


def flops(spec: MicroSpec) -> float:
    if spec.bench == "matmul":
        return 2.0 * spec.m * spec.n * spec.k
    # SAME padding, stride 1: every output pixel is a k×k×C dot product per filter
    return 2.0 * spec.batch_size * spec.height * spec.width * spec.kernel_size**2 * spec.channels * spec.filters
