"""The device sync and the clock read at window edges.

On a CPU an op has finished when it returns: the clock is time.perf_counter. On a GPU kernels are
asynchronous: each edge records a CUDA event and waits for it, and the reading is the device time since a
first event, on the host clock's scale (anchored once at a synced host reading), so time to first step and
epoch walls (host clock) and windows (device events) add up on one axis.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import torch


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


class CudaEventClock:
    """now(): seconds on the host clock's scale, measured by CUDA events (a sync at each reading)."""

    def __init__(self, device: torch.device):
        torch.cuda.synchronize(device)
        self.t0 = time.perf_counter()
        self.start = torch.cuda.Event(enable_timing=True)
        self.start.record()

    def now(self) -> float:
        end = torch.cuda.Event(enable_timing=True)
        end.record()
        end.synchronize()
        return self.t0 + self.start.elapsed_time(end) / 1000.0


def clock_for(device: torch.device) -> tuple[Callable[[], float], str]:
    """(the clock, how it reads) for the run's device."""
    if device.type == "cuda":
        return CudaEventClock(device).now, "CUDA events at window edges"
    return time.perf_counter, "perf_counter at window edges (CPU ops finish when they return)"
