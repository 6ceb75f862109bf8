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

import keras

from engine.worker.window_timer import Window, WindowTimer, warmup_steps

__all__ = ["Window", "WindowClock", "warmup_steps"]


class WindowClock(WindowTimer, keras.callbacks.Callback):
    """The Keras callback: WindowTimer's hooks, called by `fit` (engine.worker.window_timer holds the logic)."""
