"""What the sweep asks of a dispatcher (local or Ray): check cells before anything starts, then run
stored cells to their end, reporting each as it ends; and a cancel that stops what is under way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.results.schema import ResultRow
from engine.runs.store import Store
from engine.sweep.matrix import Cell


@dataclass(frozen=True)
class PlannedCell:
    """A cell with its stored run.

    Attributes:
      cell: the matrix cell.
      run_id: its row in the store (inserted `queued`, tagged with the sweep id).
    """

    cell: Cell
    run_id: str


OnDone = Callable[[PlannedCell, ResultRow], Any]


class Dispatcher(Protocol):
    """Runs a sweep's cells somewhere (engine.sweep.local, engine.sweep.ray_dispatch)."""

    name: str

    def open(self, store: Store) -> None:
        """Get ready to run into `store` (connect to a cluster); SweepError when it cannot."""
        ...

    def problem(self, cell: Cell) -> str | None:
        """Why this cell cannot run where this dispatcher sends it (one line), or None."""
        ...

    def run(self, planned: list[PlannedCell], store: Store, on_done: OnDone) -> None:
        """Run every planned cell to its end (ok, failed, cancelled, interrupted, timeout)."""
        ...

    def cancel(self) -> None:
        """Stop what this dispatcher has under way (the store's rows are marked by engine.sweep.status)."""
        ...
