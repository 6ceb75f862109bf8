"""A sweep from cells to stored runs: check every cell, store them all `queued` under one sweep id (this process
recorded as their owner first), then hand them to the dispatcher. Ctrl-C, SIGTERM or SIGHUP (raised as Ctrl-C by
the CLI: engine.runs.processes.stops_as_ctrl_c) cancels what is under way and the cells not started yet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.results.schema import ResultRow
from engine.runs import endings
from engine.runs.processes import stop_name, stop_reason
from engine.runs.store import Store
from engine.sweep import status
from engine.sweep.dispatch import Dispatcher, PlannedCell
from engine.sweep.matrix import Cell
from engine.sweep.plan import new_sweep_id, plan_cells
from engine.sweep.validate import check_cells


class SweepCancelled(Exception):
    """Ctrl-C (or a stop signal) before any cell started; the message says so and how many stored cells were
    marked cancelled."""


@dataclass(frozen=True)
class SweepOutcome:
    """What a sweep left in the store.

    Attributes:
      sweep_id: the id every cell's run carries.
      rows: the cells' final rows, in matrix order.
      skipped: (cell, reason) of cells not run (--skip-invalid).
      stopped_by: "Ctrl-C", "SIGTERM" or "SIGHUP" when the sweep was stopped part-way, else "".
    """

    sweep_id: str
    rows: tuple[ResultRow, ...]
    skipped: tuple[tuple[Cell, str], ...]
    stopped_by: str = ""


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
        endings.record_sweep_owner(store, sweep_id)  # before the cells: a SIGKILL must not leave them waiting
        planned = plan_cells(checked.runnable, store, sweep_id, label)
        if on_planned is not None:
            on_planned(sweep_id, planned)
    except KeyboardInterrupt as exc:
        cancelled = status.cancel_sweep(store, sweep_id, stop_reason(exc, "the sweep"))
        raise SweepCancelled(
            f"sweep {sweep_id} cancelled ({stop_name(exc)}) before any cell started (while connecting or checking "
            f"cells); {len(cancelled)} queued cell(s) marked cancelled"
        ) from None
    stopped_by = ""
    try:
        dispatcher.run(planned, store, on_done or (lambda p, row: None))
    except KeyboardInterrupt as exc:
        stopped_by = stop_name(exc)
        dispatcher.cancel()
        status.cancel_sweep(store, sweep_id, stop_reason(exc, "the sweep"))
    rows = {r["run_id"]: r for r in status.sweep_rows(store, sweep_id)}
    ordered = tuple(rows[p.run_id] for p in planned if p.run_id in rows)
    return SweepOutcome(sweep_id, ordered, checked.skipped, stopped_by)
