"""A run's status: one enum for the store, the launcher, the worker, the CLI and the pages.

`RunStatus` is a `StrEnum`, so a member is the very text stored in SQLite and written to CSV
(`RunStatus.OK == "ok"`), and rows read back as plain strings compare equal to it.
"""

from __future__ import annotations

from enum import StrEnum


class RunStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    OK = "ok"
    FAILED = "failed"
    CANCELLED = "cancelled"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"


# Every status, in the order messages list them.
STATUSES: tuple[RunStatus, ...] = tuple(RunStatus)
# A run still going: a worker may yet write to it.
ACTIVE_STATUSES: tuple[RunStatus, ...] = (RunStatus.QUEUED, RunStatus.RUNNING)
# A run that has ended; nothing changes it any more (writes are guarded by ACTIVE_STATUSES).
FINAL_STATUSES: tuple[RunStatus, ...] = tuple(s for s in RunStatus if s not in ACTIVE_STATUSES)
