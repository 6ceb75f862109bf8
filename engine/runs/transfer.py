"""Copying runs between two stores: `results push` (this machine → a team database) and `results
pull` (a team database → this machine). Idempotent by run_id: a run already in the target is left
as it is, so pushing twice, or two machines pushing overlapping runs, stores each run exactly once
with its per-step/per-epoch series.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.results.schema import ResultRow
from engine.results.status import ACTIVE_STATUSES
from engine.runs.store import Store

# Runs copied per transaction: a 100,000-run push is many short transactions, not one huge one.
BATCH_RUNS = 200
LABEL_MAX_CHARS = 64


@dataclass
class Transfer:
    """What a push or pull did.

    Attributes:
      added: runs copied into the target (with their series).
      present: runs the target already had (left untouched).
      still_active: queued/running runs not copied (push them once they end).
    """

    added: int = 0
    present: int = 0
    still_active: list[str] = field(default_factory=list)


def label_problem(label: str) -> str | None:
    """Why `label` cannot be a run label, or None."""
    if not label.strip():
        return "must not be empty"
    if len(label) > LABEL_MAX_CHARS:
        return f"must be at most {LABEL_MAX_CHARS} characters, got {len(label)}"
    if any(not c.isprintable() for c in label):
        return "must be printable text (no control characters or line breaks)"
    return None


def copy_runs(
    source: Store,
    target: Store,
    keep: Callable[[ResultRow], bool] = lambda _row: True,
    label: str | None = None,
) -> Transfer:
    """Copy every run of `source` that `keep` accepts and `target` lacks, with its series.

    `label` is set on copied runs that carry none (the source's own rows are not changed).
    """
    result = Transfer()
    have = target.run_ids()
    todo: list[ResultRow] = []
    for row in reversed(source.list_runs()):  # oldest first: a partial push leaves a clean prefix
        if not keep(row):
            continue
        if row["status"] in ACTIVE_STATUSES:
            result.still_active.append(row["run_id"])
        elif row["run_id"] in have:
            result.present += 1
        else:
            todo.append({**row, "label": row.get("label") or label} if label else row)
    for start in range(0, len(todo), BATCH_RUNS):
        batch = todo[start : start + BATCH_RUNS]
        added = target.copy_in(batch, {r["run_id"]: source.all_series(r["run_id"]) for r in batch})
        result.added += added
        result.present += len(batch) - added  # another machine pushed it in the meantime
    return result
