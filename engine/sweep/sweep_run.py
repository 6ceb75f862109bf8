"""A sweep from cells to stored runs: check every cell, store them all `queued` under one sweep id,
then hand them to the dispatcher. Ctrl-C cancels what is under way and the cells not started yet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.results.schema import ResultRow
from engine.runs.store import Store
from engine.sweep import status
from engine.sweep.dispatch import Dispatcher, PlannedCell
from engine.sweep.matrix import Cell
from engine.sweep.plan import new_sweep_id, plan_cells
from engine.sweep.validate import check_cells


class SweepCancelled(Exception):
    """Ctrl-C before any cell started; the message says so and how many stored cells were marked cancelled."""


@dataclass(frozen=True)
class SweepOutcome:
    """What a sweep left in the store.

    Attributes:
      sweep_id: the id every cell's run carries.
      rows: the cells' final rows, in matrix order.
      skipped: (cell, reason) of cells not run (--skip-invalid).
    """

    sweep_id: str
    rows: tuple[ResultRow, ...]
    skipped: tuple[tuple[Cell, str], ...]


def run_sweep(
    cells: list[Cell],
    dispatcher: Dispatcher,
    store: Store,
    *,
    skip_invalid: bool = False,
    label: str | None = None,
    sweep_id: str | None = None,
    on_done: Callable[[PlannedCell, ResultRow], Any] | None = None,
    on_planned: Callable[[str, list[PlannedCell]], Any] | None = None,
) -> SweepOutcome:
    """Check, store and run the cells; SweepError (nothing stored) when a cell is impossible; SweepCancelled
    for Ctrl-C before the cells were handed to the dispatcher (every cell stored by then marked `cancelled`)."""
    sweep_id = sweep_id or new_sweep_id()
    try:
        dispatcher.open(store)
        checked = check_cells(cells, dispatcher, skip_invalid)
        planned = plan_cells(checked.runnable, store, sweep_id, label)
        if on_planned is not None:
            on_planned(sweep_id, planned)
    except KeyboardInterrupt:
        cancelled = status.cancel_sweep(store, sweep_id)
        raise SweepCancelled(
            f"sweep {sweep_id} cancelled (Ctrl-C) before any cell started (while connecting or checking cells); "
            f"{len(cancelled)} queued cell(s) marked cancelled"
        ) from None
    try:
        dispatcher.run(planned, store, on_done or (lambda p, row: None))
    except KeyboardInterrupt:
        dispatcher.cancel()
        status.cancel_sweep(store, sweep_id)
    rows = {r["run_id"]: r for r in status.sweep_rows(store, sweep_id)}
    return SweepOutcome(sweep_id, tuple(rows[p.run_id] for p in planned if p.run_id in rows), checked.skipped)
