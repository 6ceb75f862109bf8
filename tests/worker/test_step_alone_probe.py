"""The step alone beside the training (issue 45): timed on the run's own synced steps with the wait taken out,
so it can never sit below the training it bounds. The hooks here are a real input_probe.Hooks over a
sleeping "device": sleeps only ever last longer than asked, so every bound below holds on a loaded host."""

from __future__ import annotations

import itertools
import time

from engine.catalog.input_spec import InputSettings
from engine.worker import input_probe

BATCH = 8


def _hooks(wait_s: float, step_s: float) -> tuple[input_probe.Hooks, object]:
    def batches():
        for i in itertools.count():
            time.sleep(wait_s)  # the pipeline's next batch
            yield i

    def step(_batch) -> None:
        time.sleep(step_s)  # the model's step, synchronous like a synced device step

    hooks = input_probe.Hooks(to_device=lambda b: b, step=step, sync=lambda: None, fresh=batches)
    return hooks, batches()


def test_the_step_alone_is_the_runs_own_steps_without_the_wait():
    hooks, train = _hooks(wait_s=0.03, step_s=0.01)
    input_eps, step_eps, wait = input_probe.measure(train, hooks, BATCH)
    assert step_eps <= BATCH / 0.01  # never faster than the step itself
    assert step_eps > BATCH / 0.04  # the 30 ms wait is not in it (a step with the wait would be 40 ms)
    assert wait > 50.0  # 30 of 40 ms spent waiting, give or take a loaded host's longer sleeps
    assert input_eps <= BATCH / 0.03


def test_a_step_alone_measured_below_the_training_is_held_at_the_training_rate():
    """Training ran at 10 ms a step; the probe afterwards (a busier host) sees 25 ms steps. The step alone is part
    of every training step, so it cannot be slower than the training: the row says the training rate and why."""
    train_eps = BATCH / 0.010
    hooks, train = _hooks(wait_s=0.0, step_s=0.025)
    input_eps, step_eps, wait = input_probe.measure(train, hooks, BATCH)
    assert step_eps < train_eps  # what the probe itself measured
    cols = input_probe.columns(train_eps, input_eps, step_eps, wait, InputSettings())
    assert cols["step_examples_per_sec"] >= train_eps
    assert "below the training: held at its rate" in cols["_note"]
    assert cols["bound"] != "compute" or input_eps > 1.1 * train_eps


def test_a_step_alone_above_the_training_is_kept_as_measured():
    cols = input_probe.columns(100.0, 500.0, 300.0, 2.0, InputSettings())
    assert cols["step_examples_per_sec"] == 300.0 and "held" not in cols["_note"] and cols["bound"] == "compute"
