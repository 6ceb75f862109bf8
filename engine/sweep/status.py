"""A sweep as the store holds it: its rows, the sweeps there are, and cancelling a whole sweep.

A cancel marks every cell still queued or running `cancelled` (and kills a worker of this machine at
once); a cell running elsewhere is stopped by its runner, which watches the store (engine.sweep.runner).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.results.schema import ResultRow
from engine.results.status import ACTIVE_STATUSES
from engine.runs import jobs
from engine.runs.store import Store


def sweep_rows(store: Store, sweep_id: str) -> list[ResultRow]:
    """The sweep's runs, oldest first (the matrix order, since cells are stored in that order)."""
    return list(reversed(store.list_runs(sweep_id=sweep_id)))


def sweep_ids(store: Store, limit: int = 2000) -> list[str]:
    """Sweep ids among the newest `limit` runs, newest first."""
    seen: dict[str, None] = {}
    for row in store.list_runs(limit=limit):
        if row.get("sweep_id"):
            seen.setdefault(str(row["sweep_id"]), None)
    return list(seen)


def cancel_runs(run_ids: Iterable[str], store: Store, reason: str = "cancelled by the user") -> list[str]:
    """Mark each run still active `cancelled` (killing its worker when it runs here); returns those changed."""
    return [run_id for run_id in run_ids if jobs.cancel(run_id, store, reason)]


def cancel_sweep(store: Store, sweep_id: str, reason: str = "cancelled by the user") -> list[str]:
    """Cancel every cell of the sweep that is still queued or running."""
    active = [r["run_id"] for r in sweep_rows(store, sweep_id) if r.get("status") in ACTIVE_STATUSES]
    return cancel_runs(active, store, reason)


def is_finished(store: Store, sweep_id: str) -> bool:
    return not any(r.get("status") in ACTIVE_STATUSES for r in sweep_rows(store, sweep_id))
