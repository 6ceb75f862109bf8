"""Live progress through the store: a worker writing to a team database sends its progress events
there too (batched, at most about once a second), so a dashboard on another machine can follow the
run; a dashboard on the worker's own machine reads the run folder's progress.jsonl as before."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from engine.runs.progress import Event, read_progress
from engine.runs.store import Store, StoreError

# A batch is sent when it is this old; phase changes (start, warm-up, done) are sent at once.
FLUSH_EVERY_S = 1.0


class StoreMirror:
    """Collects a worker's progress events and appends them to the store in batches.

    A failed write (the team server briefly away) keeps the events for the next try: a run's own
    figures never depend on the network, and its final result is written through the store anyway.
    """

    def __init__(self, store: Store, run_id: str):
        self.store, self.run_id = store, run_id
        self.pending: list[dict[str, Any]] = []
        self.sent = 0
        self.last_flush = time.monotonic()

    def __call__(self, event: dict[str, Any]) -> None:
        self.pending.append(event)
        if event.get("event") == "phase" or time.monotonic() - self.last_flush >= FLUSH_EVERY_S:
            self.flush()

    def flush(self) -> None:
        self.last_flush = time.monotonic()
        if not self.pending:
            return
        with contextlib.suppress(StoreError):
            self.store.add_progress(self.run_id, self.sent, self.pending)
            self.sent += len(self.pending)
            self.pending = []


def progress_events(run_id: str, run_dir: Path, store: Store) -> list[Event]:
    """A run's progress events: from its folder on this machine, else (a run on another machine
    writing to the same team database) from the store."""
    events = read_progress(run_dir)
    if events or store.path is not None:
        return events
    return store.get_progress(run_id)  # type: ignore[return-value]
