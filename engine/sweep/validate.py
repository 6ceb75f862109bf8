"""Every cell of a sweep checked before anything starts: one clear error for the first impossible
cell, or — with skip_invalid — the cells that can run and the ones skipped with their reasons."""

from __future__ import annotations

from dataclasses import dataclass

from engine.sweep.dispatch import Dispatcher
from engine.sweep.matrix import Cell, SweepError


@dataclass(frozen=True)
class Checked:
    """The cells of a sweep after checking.

    Attributes:
      runnable: cells that pass every check, in matrix order.
      skipped: (cell, reason) for each cell that cannot run.
    """

    runnable: tuple[Cell, ...]
    skipped: tuple[tuple[Cell, str], ...]


def check_cells(cells: list[Cell], dispatcher: Dispatcher, skip_invalid: bool = False) -> Checked:
    """Check each cell with the dispatcher (fields, combinations, the device it needs being there).

    Raises SweepError naming the first impossible cell unless `skip_invalid`; also when no cell is left.
    """
    runnable, skipped = [], []
    for cell in cells:
        problem = dispatcher.problem(cell)
        if problem is None:
            runnable.append(cell)
            continue
        if not skip_invalid:
            raise SweepError(
                f"cell {cell.index} ({cell.label}): {problem} — nothing started; fix the matrix or pass --skip-invalid"
            )
        skipped.append((cell, problem))
    if not runnable:
        raise SweepError(f"no cell of the sweep can run ({len(skipped)} skipped; first: {skipped[0][1]})")
    return Checked(tuple(runnable), tuple(skipped))
