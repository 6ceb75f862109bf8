"""The progress protocol between a worker and whoever watches it: one JSON object per line in
`RUN_DIR/progress.jsonl`, written by the worker (`Reporter`) and read by the launcher and the Run
page (`read_progress`).

Every event has `t` (unix time) and `event` (its kind); the other fields depend on the kind and are
spelled out below, one TypedDict per kind. Step, epoch and repeat events are also kept in
`Reporter.series` and stored with the run. A reader that sees a half-written last line skips it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypedDict

SeriesKind = Literal["step", "epoch", "repeat"]
TELEMETRY = "telemetry"  # the sampler's series kind and event (engine.worker.telemetry)
STEADY_WINDOW = "steady_window"  # one stored record {start, end}: the unix span the energy figures cover


class PhaseEvent(TypedDict, total=False):
    """The worker entered a phase: preparing, warmup, timing, configuring, loading data, building,
    compiling, training, measured, done. Phases carry their own context (repeats, epochs,
    steps_per_epoch, device, …); `done` carries the final `status` and, on failure, `error`."""

    t: float
    event: Literal["phase"]
    name: str
    status: str
    error: str
    repeats: int
    epochs: int
    steps_per_epoch: int


class RepeatEvent(TypedDict):
    """One timed repeat of a microbenchmark."""

    t: float
    event: Literal["repeat"]
    repeat: int
    total: int
    time_ms: float
    gflops: float


class StepEvent(TypedDict, total=False):
    """One training step (the steady ones and the warm-up ones alike), or, from an asynchronous backend
    (JAX, PyTorch: engine.worker.window_clock), one synced window: `window_steps` steps ending at
    `global_step`, the last one the device had finished, with `step_time_ms` the window's time ÷ its steps."""

    t: float
    event: Literal["step"]
    epoch: int
    step: int
    global_step: int
    total_steps: int
    step_time_ms: float
    examples_per_sec: float | None
    loss: float | None
    window_steps: int


class EpochEvent(TypedDict, total=False):
    """One finished training epoch, with Keras' logs."""

    t: float
    event: Literal["epoch"]
    epoch: int
    epoch_s: float
    cpu_s: float
    loss: float | None
    accuracy: float | None
    val_loss: float | None
    val_accuracy: float | None
    top5_accuracy: float | None


class TelemetryEvent(TypedDict, total=False):
    """One telemetry sample (keys in engine.runs.telemetry: cpu_pct, rss_mb, gpu0_power_w, …)."""

    t: float
    event: Literal["telemetry"]


class MessageEvent(TypedDict):
    """A line of text for the log, e.g. which strategy and devices a training run uses."""

    t: float
    event: Literal["message"]
    text: str


Event = PhaseEvent | RepeatEvent | StepEvent | EpochEvent | TelemetryEvent | MessageEvent

PROGRESS_FILE = "progress.jsonl"


class Reporter:
    """Appends progress events to `run_dir/progress.jsonl` and keeps step/epoch/repeat records."""

    def __init__(self, run_dir: str | Path | None, mirror: Callable[[dict[str, Any]], None] | None = None):
        self.path = Path(run_dir) / PROGRESS_FILE if run_dir else None
        self.mirror = mirror  # also sends each event elsewhere (engine.runs.live: a team database)
        self.series: dict[str, list[dict[str, Any]]] = {}
        self.times: dict[str, list[float]] = {}  # when each series record was reported (unix time)

    def event(self, event: str, **fields: Any) -> None:
        if self.path is None:
            return
        line = json.dumps({"t": round(time.time(), 3), "event": event, **fields}, default=float)
        with self.path.open("a") as f:
            f.write(line + "\n")
        if self.mirror is not None:
            self.mirror(json.loads(line))

    def phase(self, name: str, **fields: Any) -> None:
        self.event("phase", name=name, **fields)

    def message(self, text: str) -> None:
        self.event("message", text=text)

    def record(self, kind: SeriesKind, **fields: Any) -> None:
        """A per-step/per-epoch/per-repeat record: stored with the run and sent as an event."""
        self.series.setdefault(kind, []).append(fields)
        self.times.setdefault(kind, []).append(time.time())
        self.event(kind, **fields)


def read_progress(run_dir: str | Path) -> list[Event]:
    """The worker's progress events so far, oldest first (a half-written last line is skipped)."""
    try:
        text = (Path(run_dir) / PROGRESS_FILE).read_text()
    except OSError:
        return []
    events: list[Event] = []
    for line in text.splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return events
