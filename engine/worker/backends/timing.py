"""One timing loop for every backend's microbenchmark op, and NumPy's BLAS as the host reference."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.runs.progress import Reporter


@dataclass(frozen=True)
class Timed:
    """first_s: the first call (trace, compile, first execution), reported apart. times_s: the timed repeats."""

    first_s: float
    times_s: list[float]
    timed_s: float
    last_output: Any


def time_repeats(
    run: Callable[[], Any],
    finish: Callable[[Any], None],
    *,
    warmup: int,
    repeats: int,
    flop: float,
    report: Reporter | None = None,
) -> Timed:
    """Time `run()` + `finish(out)` (the backend's own synchronisation) `repeats` times after warm-up."""

    def once() -> tuple[float, Any]:
        t0 = time.perf_counter()
        out = run()
        finish(out)
        return time.perf_counter() - t0, out

    first_s, out = once()
    for _ in range(max(0, warmup - 1)):
        once()
    if report:
        report.phase("timing", repeats=repeats)
    times: list[float] = []
    t_start = time.perf_counter()
    for i in range(repeats):
        dt, out = once()
        times.append(dt)
        if report:
            report.record("repeat", repeat=i + 1, total=repeats, time_ms=dt * 1000, gflops=flop / dt / 1e9)
    return Timed(first_s, times, time.perf_counter() - t_start, out)


def blas_matmul_gflops(m: int, n: int, k: int, repeats: int = 5) -> float:
    """NumPy's float32 matmul (the host's BLAS) on the same shape: median GFLOP/s over `repeats`."""
    rng = np.random.default_rng(0)
    a = rng.random((m, k), dtype=np.float32)
    b = rng.random((k, n), dtype=np.float32)
    np.matmul(a, b)  # warm-up: thread pool start, page faults of the output
    times = []
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        np.matmul(a, b)
        times.append(time.perf_counter() - t0)
    return 2.0 * m * n * k / float(np.median(times)) / 1e9
