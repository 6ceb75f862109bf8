"""Keras pieces shared by every backend's training: the per-step clock and the recipe's compile.

No framework is imported here beyond Keras, whose backend the worker chose (KERAS_BACKEND) before.
The clock synchronises with `sync`, which each backend sets (TensorFlow: tfenv.sync).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import keras

from engine.runs.progress import Reporter
from engine.worker.models import RECIPES
from engine.worker.stats import finite_or_none


def _no_sync() -> None:
    """CPU backends whose ops have finished when they return."""


class StepClock(keras.callbacks.Callback):
    """Times every training step and epoch, and reports them as they happen (see engine.worker.train's doc)."""

    sync: Callable[[], None] = staticmethod(_no_sync)

    def __init__(self, report: Reporter, global_batch: int, steps_per_epoch: int, epochs: int, t_fit_start: float):
        super().__init__()
        self.report = report
        self.global_batch = global_batch
        self.steps_per_epoch = steps_per_epoch
        self.epochs = epochs
        self.t_fit_start = t_fit_start
        self.step_s: list[list[float]] = []  # per epoch, per step: begin→end seconds
        self.step_spans: list[list[tuple[float, float]]] = []  # per epoch, per step: (begin, end) clock readings
        self.epoch_logs: list[dict] = []
        self.time_to_first_step_s: float | None = None
        self.first_epoch_s: float | None = None
        self._t_begin = 0.0
        self._t_epoch = 0.0
        self._cpu_epoch = 0.0
        self.epoch_wall_s: list[float] = []
        self.epoch_cpu_s: list[float] = []  # process CPU time (all TF threads): shows how much host CPU a run got

    def on_epoch_begin(self, epoch, logs=None):
        self._t_epoch = time.perf_counter()
        self._cpu_epoch = time.process_time()
        self.step_s.append([])
        self.step_spans.append([])

    def on_train_batch_begin(self, batch, logs=None):
        self.sync()
        self._t_begin = time.perf_counter()

    def on_train_batch_end(self, batch, logs=None):
        self.sync()
        t_end = time.perf_counter()
        dt = t_end - self._t_begin
        self.step_s[-1].append(dt)
        self.step_spans[-1].append((self._t_begin, t_end))
        epoch = len(self.step_s)
        global_step = (epoch - 1) * self.steps_per_epoch + len(self.step_s[-1])
        if global_step == 1:
            self.time_to_first_step_s = t_end - self.t_fit_start
        if epoch == 1 and len(self.step_s[-1]) == self.steps_per_epoch:
            self.first_epoch_s = t_end - self.t_fit_start
        self.report.record(
            "step",
            epoch=epoch,
            step=len(self.step_s[-1]),
            global_step=global_step,
            total_steps=self.epochs * self.steps_per_epoch,
            step_time_ms=dt * 1000.0,
            examples_per_sec=self.global_batch / dt if dt > 0 else None,
            loss=finite_or_none((logs or {}).get("loss")),
        )

    def on_epoch_end(self, epoch, logs=None):
        logs = {k: finite_or_none(v) for k, v in (logs or {}).items()}
        self.epoch_logs.append(logs)
        self.epoch_wall_s.append(time.perf_counter() - self._t_epoch)
        self.epoch_cpu_s.append(time.process_time() - self._cpu_epoch)
        self.report.record(
            "epoch",
            epoch=epoch + 1,
            epoch_s=self.epoch_wall_s[-1],
            cpu_s=self.epoch_cpu_s[-1],
            loss=logs.get("loss"),
            accuracy=logs.get("accuracy"),
            val_loss=logs.get("val_loss"),
            val_accuracy=logs.get("val_accuracy"),
            top5_accuracy=logs.get("top5_accuracy"),
        )

    def steady(self) -> tuple[list[float], float, str]:
        """(steady step times, steady wall seconds, description) — see the module doc."""
        if len(self.step_s) >= 2:
            epochs = list(range(1, len(self.step_s)))
            skip = 0
            what = f"epochs 2–{len(self.step_s)}" if len(self.step_s) > 2 else "epoch 2"
        else:
            epochs = [0]
            n = len(self.step_s[0])
            skip = min(max(1, math.ceil(n / 10)), n - 1) if n > 1 else 0
            what = f"steps {skip + 1}–{n} of the only epoch" if skip else "the only step (no warm-up excluded)"
        times, wall = [], 0.0
        for e in epochs:
            spans = self.step_spans[e][skip:]
            if spans:
                times.extend(self.step_s[e][skip:])
                wall += spans[-1][1] - spans[0][0]
        return times, wall, what


def compile_model(model: keras.Model, name: str, xla: bool | str, num_classes: int) -> None:
    """Compile with the model's recipe: its optimizer, sparse cross-entropy on the float32 softmax, accuracy
    (+ top-5 where the source reports it and there are more than 5 classes). Call inside the strategy scope."""
    recipe = RECIPES[name]
    metrics: list = ["accuracy"]
    if recipe.top5 and num_classes > 5:
        metrics.append(keras.metrics.SparseTopKCategoricalAccuracy(k=5, name="top5_accuracy"))
    model.compile(
        optimizer=recipe.optimizer(),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=recipe.from_logits),
        metrics=metrics,
        jit_compile=xla,
    )
