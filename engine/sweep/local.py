"""`--on local`: the cells one after another on this machine — never two timed runs on one device at once."""

from __future__ import annotations

from engine.catalog.specs import SpecError
from engine.runs import jobs
from engine.runs.store import Store
from engine.sweep import status
from engine.sweep.dispatch import OnDone, PlannedCell
from engine.sweep.matrix import Cell
from engine.sweep.runner import run_stored


class LocalDispatcher:
    """Runs cells in this process's machine, in matrix order."""

    name = "local"

    def __init__(self) -> None:
        self._cancelled = False

    def open(self, store: Store) -> None:
        """Nothing to connect to: the cells run here."""

    def problem(self, cell: Cell) -> str | None:
        if cell.target.accelerator:
            return f"--devices {cell.target.name}: an accelerator kind is a Ray resource; use gpu here or --on ray"
        try:
            jobs.prepare(cell.request)  # every check of `engine run`: fields, devices present, memory, TF_CONFIG
        except SpecError as exc:
            return str(exc)
        return None

    def run(self, planned: list[PlannedCell], store: Store, on_done: OnDone) -> None:
        for p in planned:
            if self._cancelled:  # Ctrl-C: the cells not yet started are cancelled, not run
                status.cancel_runs([p.run_id], store)
            on_done(p, run_stored(p.run_id, p.cell.request, store))

    def cancel(self) -> None:
        self._cancelled = True
