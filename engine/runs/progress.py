"""The worker's side of progress: JSON-lines events in the run folder, plus the series kept for the store.

Events: {"t": unix time, "event": "phase"|"step"|"epoch"|"repeat"|"message", ...}. A reader that
sees a half-written last line skips it (engine.runs.jobs.read_progress).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any


class Reporter:
    """Appends progress events to `run_dir/progress.jsonl` and keeps step/epoch/repeat records."""

    def __init__(self, run_dir: str | Path | None):
        self.path = Path(run_dir) / "progress.jsonl" if run_dir else None
        self.series: dict[str, list[dict[str, Any]]] = {}

    def event(self, event: str, **fields: Any) -> None:
        if self.path is None:
            return
        line = json.dumps({"t": round(time.time(), 3), "event": event, **fields}, default=float)
        with self.path.open("a") as f:
            f.write(line + "\n")

    def phase(self, name: str, **fields: Any) -> None:
        self.event("phase", name=name, **fields)

    def record(self, kind: str, **fields: Any) -> None:
        """A per-step/per-epoch/per-repeat record: stored with the run and sent as an event."""
        self.series.setdefault(kind, []).append(fields)
        self.event(kind, **fields)
