"""Steady-state throughput with a sync only at the edges of windows of several steps (design §4).

A sync at both edges of every step serialises host and device: the host cannot queue step n+1 while
the device runs step n, which on a fast GPU can cost a small model most of its speed. This callback
overrides only `on_train_batch_begin` (run synchronously, with no logs to convert) and `on_epoch_end`,
so Keras keeps dispatching steps back to back and converts each step's logs off the main thread; it
synchronises and reads the clock every `window` steps, at the end of the first step (time to first
step) and where training ends before validation or the epoch's end.

Its step events are therefore synced windows: `global_step` is the last step the device has finished
and `step_time_ms` the window's time ÷ `window_steps`, so a live count, ETA or chart built from them
never runs ahead of the device (an event per dispatched step would, by up to the whole queue).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import keras

from engine.runs.progress import Reporter
from engine.worker.stats import finite_or_none


@dataclass(frozen=True)
class Window:
    epoch: int  # 0-based
    first_step: int  # 0-based step at the window's start
    steps: int
    seconds: float


class WindowClock(keras.callbacks.Callback):
    def __init__(
        self,
        sync: Callable[[], None],
        window: int,
        steps_per_epoch: int,
        report: Reporter,
        t_fit: float,
        global_batch: int = 0,
    ):
        super().__init__()
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
        now = time.perf_counter()
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
