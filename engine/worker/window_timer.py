"""Windowed steady-state timing without Keras (design §4): the clock behind engine.worker.window_clock's
Keras callback and native PyTorch's plain loop (engine.worker.torch_native), so both read the same steady
state, warm-up and time to first step. See window_clock for why a sync happens only at window edges.

`now` is the clock read after each sync: time.perf_counter by default; a native PyTorch run on a GPU passes
a CUDA-event clock (engine.worker.torch_native.clock), whose readings are device time on the host's scale.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.runs.progress import Reporter
from engine.worker.stats import finite_or_none


@dataclass(frozen=True)
class Window:
    """One synced window of training steps.

    Attributes:
      epoch: 0-based epoch. first_step: 0-based step at its start. steps: how many. seconds: its time.
    """

    epoch: int
    first_step: int
    steps: int
    seconds: float


class WindowTimer:
    """Windows of `window` steps, synced at their edges; hooks named as Keras callbacks' so a Keras run can
    use it as one (WindowClock) and a plain loop can call them."""

    def __init__(
        self,
        sync: Callable[[], None],
        window: int,
        steps_per_epoch: int,
        report: Reporter,
        t_fit: float,
        global_batch: int = 0,
        now: Callable[[], float] = time.perf_counter,
    ):
        super().__init__()
        self.params: dict | None = None  # Keras sets it (epochs); a plain loop may too
        self.now = now
        self.global_batch = global_batch
        self.sync = sync
        self.window = max(1, window)
        self.steps_per_epoch = steps_per_epoch
        self.report = report
        self.t_fit = t_fit
        self.windows: list[Window] = []
        self.epoch_wall_s: list[float] = []
        self.epoch_logs: list[dict] = []
        self.time_to_first_step_s: float | None = None
        self._edge: tuple[int, float] | None = None  # (step, clock) of the open window
        self._epoch = -1
        self._t_epoch = 0.0

    def _close(self, step: int) -> float:
        """Sync, end the open window at `step`, open the next; returns the clock reading."""
        self.sync()
        now = self.now()
        if self._edge is not None and step > self._edge[0]:
            start, t0 = self._edge
            self.windows.append(Window(self._epoch, start, step - start, now - t0))
            dt = (now - t0) / (step - start)
            self.report.record(
                "step",
                epoch=self._epoch + 1,
                step=step,
                global_step=self._epoch * self.steps_per_epoch + step,
                total_steps=self.params.get("epochs", 1) * self.steps_per_epoch if self.params else None,
                step_time_ms=dt * 1000.0,
                window_steps=step - start,
                examples_per_sec=self.global_batch / dt if self.global_batch and dt > 0 else None,
            )
        self._edge = (step, now)
        return now

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch
        self._t_epoch = time.perf_counter()
        self._edge = None

    def on_train_batch_begin(self, batch, logs=None):
        if self._epoch == 0 and batch == 1:
            self.time_to_first_step_s = self._close(1) - self.t_fit
        elif batch % self.window == 0 or (self._epoch == 0 and batch == warmup_steps(self.steps_per_epoch)):
            self._close(batch)

    def on_test_begin(self, logs=None):
        if self._edge is not None and self._edge[0] < self.steps_per_epoch:
            self._close(self.steps_per_epoch)  # validation is not training time
            self._edge = None

    def on_epoch_end(self, epoch, logs=None):
        if self._edge is not None:
            self._close(self.steps_per_epoch)
        self.epoch_wall_s.append(time.perf_counter() - self._t_epoch)
        self.epoch_logs.append({k: finite_or_none(v) for k, v in (logs or {}).items()})
        self.report.record(
            "epoch", epoch=epoch + 1, epoch_s=self.epoch_wall_s[-1], loss=self.epoch_logs[-1].get("loss")
        )

    def steady(self, epochs: int) -> tuple[list[Window], str]:
        """The steady windows: epochs 2…E, or after the warm-up steps of the only epoch."""
        if epochs >= 2:
            return [w for w in self.windows if w.epoch >= 1], f"epochs 2–{epochs}" if epochs > 2 else "epoch 2"
        skip = warmup_steps(self.steps_per_epoch)
        return [w for w in self.windows if w.first_step >= skip], f"steps {skip + 1}–{self.steps_per_epoch}"


def warmup_steps(steps_per_epoch: int) -> int:
    """Warm-up of a one-epoch run, as the TensorFlow path: ⌈S/10⌉ steps, at least 1, leaving one."""
    return min(max(1, math.ceil(steps_per_epoch / 10)), max(1, steps_per_epoch - 1))


def window_size(steps_per_epoch: int) -> int:
    """About five windows per epoch, each of at least 2 and at most 20 steps."""
    return max(2, min(20, steps_per_epoch // 5))


def throughputs(clock: WindowTimer, epochs: int, steps_per_epoch: int, batch: int, step_synced_s: list[float]) -> dict:
    """The throughput columns from the windows, the step-synced steps and the epoch walls (train_backend's doc);
    "_what" describes the steady state for the notes."""
    windows, what = clock.steady(epochs)
    if not windows:
        windows, what = clock.windows, "every step (too few steps to leave warm-up out)"
    steps, secs = sum(w.steps for w in windows), sum(w.seconds for w in windows)
    windowed = steps * batch / secs if secs > 0 else None
    synced = len(step_synced_s) * batch / sum(step_synced_s) if step_synced_s else None
    walls = clock.epoch_wall_s[1:] if epochs > 1 else clock.epoch_wall_s
    epoch_eps = len(walls) * steps_per_epoch * batch / sum(walls) if sum(walls) > 0 else None
    return {
        "examples_per_sec": windowed,
        "examples_per_sec_windowed": windowed,
        "examples_per_sec_step_synced": synced,
        "examples_per_sec_epoch": epoch_eps,
        "sync_overhead_pct": 100.0 * (windowed / synced - 1) if windowed and synced else None,
        "_what": f"steady state: {what} ({steps} steps in {len(windows)} windows of ≤{window_size(steps_per_epoch)})",
    }
