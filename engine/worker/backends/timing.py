"""One timing loop for every backend's microbenchmark op, and NumPy's BLAS as the host reference."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.runs.progress import Reporter

WINDOW_TARGET_S = 0.02  # an op this long or longer is synchronised after every call
MAX_WINDOW = 50


@dataclass(frozen=True)
class Timed:
    """first_s: the first call (trace, compile, first execution), reported apart. times_s: the timed repeats,
    each the time of one call. window: back-to-back calls per timed repeat (one synchronisation per window)."""

    first_s: float
    times_s: list[float]
    timed_s: float
    last_output: Any
    window: int = 1


def time_repeats(
    run: Callable[[], Any],
    finish: Callable[[Any], None],
    *,
    warmup: int,
    repeats: int,
    flop: float,
    report: Reporter | None = None,
) -> Timed:
    """Time `run()` `repeats` times after warm-up, each repeat a window of back-to-back calls closed by one
    `finish(out)` (the backend's own synchronisation), reported per call.

    A GPU op of ~1 ms synchronised on every call is charged the host's round trip too (dispatch, wait,
    wake-up: 0.1–0.3 ms, more for JAX than PyTorch), which reads as the framework's matmul being slow. Calls
    queued back to back, as a training loop queues its steps, time the device; the window is sized from the
    last warm-up call to last about WINDOW_TARGET_S, so an op that long is still synchronised every call."""

    def once(calls: int = 1) -> tuple[float, Any]:
        t0 = time.perf_counter()
        for _ in range(calls):
            out = run()
        finish(out)
        return (time.perf_counter() - t0) / calls, out

    first_s, out = once()
    probe_s = first_s
    for _ in range(max(0, warmup - 1)):
        probe_s, _ = once()
    window = max(1, min(MAX_WINDOW, int(WINDOW_TARGET_S / max(probe_s, 1e-9))))
    if report:
        report.phase("timing", repeats=repeats)
    times: list[float] = []
    t_start = time.perf_counter()
    for i in range(repeats):
        dt, out = once(window)
        times.append(dt)
        if report:
            report.record("repeat", repeat=i + 1, total=repeats, time_ms=dt * 1000, gflops=flop / dt / 1e9)
    return Timed(first_s, times, time.perf_counter() - t_start, out, window)


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
