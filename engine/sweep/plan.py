"""A sweep id and one `queued` row per cell, all stored before the first cell starts, so the Sweep page
shows the whole grid at once and a cancel reaches cells that have not started yet."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from engine.catalog.replicas import UNKNOWN_GPU_COUNT
from engine.catalog.specs import spec_from_dict
from engine.runs import jobs
from engine.runs.rows import initial_row
from engine.runs.store import Store
from engine.sweep.dispatch import PlannedCell
from engine.sweep.matrix import Cell

SWEEP_PREFIX = "sweep-"


def new_sweep_id() -> str:
    return SWEEP_PREFIX + datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def plan_cells(
    cells: list[Cell] | tuple[Cell, ...], store: Store, sweep_id: str, label: str | None = None
) -> list[PlannedCell]:
    """Store each cell as a queued run tagged with `sweep_id`; returns them with their run ids."""
    planned = []
    for cell in cells:
        run_id = jobs.new_run_id()
        row = initial_row(spec_from_dict(cell.request, gpu_count=UNKNOWN_GPU_COUNT), run_id)
        row["sweep_id"] = sweep_id
        if label:
            row["label"] = label
        store.insert_run(row)
        planned.append(PlannedCell(cell, run_id))
    return planned
