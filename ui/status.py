"""How each run status reads on the pages: words, not emoji, so it reads the same without an emoji font."""

from __future__ import annotations

from engine.results.status import RunStatus

# The Home page's list of latest runs.
LIST_TEXT: dict[str, str] = {
    RunStatus.QUEUED: "queued",
    RunStatus.RUNNING: "running…",
    RunStatus.OK: "ok",
    RunStatus.FAILED: "FAILED",
    RunStatus.CANCELLED: "cancelled",
    RunStatus.TIMEOUT: "timed out",
    RunStatus.INTERRUPTED: "interrupted",
}
# The Run page's result card heading, for a run that has ended.
RESULT_TEXT: dict[str, str] = {
    RunStatus.OK: ":material/check_circle: finished",
    RunStatus.FAILED: ":material/error: failed",
    RunStatus.TIMEOUT: ":material/timer_off: timed out",
    RunStatus.CANCELLED: ":material/cancel: cancelled",
    RunStatus.INTERRUPTED: ":material/power_off: interrupted",
}
# Why a run that did not finish ended, as the start of the result card's error box.
WHY: dict[str, str] = {
    RunStatus.FAILED: "The run started and failed",
    RunStatus.TIMEOUT: "The run went past its timeout and was stopped",
    RunStatus.CANCELLED: "The run was cancelled",
    RunStatus.INTERRUPTED: "The worker process ended without writing a result",
}
# Statuses whose worker log is worth showing (the worker itself went wrong).
SHOW_LOG: tuple[RunStatus, ...] = (RunStatus.FAILED, RunStatus.INTERRUPTED)


def list_text(status: str) -> str:
    """The Home page's words for a status (an unknown one is shown as it is)."""
    return LIST_TEXT.get(status, status)
