"""The largest batch that fits, by measurement: per (model, dataset, precision, backend, device) the batch
size is doubled from a start until a run fails out of memory (or halved until one runs), then bisected
between the largest that ran and the first that did not, until they are `resolution` apart.

Each attempt is an ordinary stored run of the sweep in a fresh worker process, so an out-of-memory
attempt cannot poison the next. A failure that is not out of memory stops that search with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.results.schema import ResultRow
from engine.results.status import RunStatus
from engine.runs.store import Store
from engine.sweep.dispatch import Dispatcher
from engine.sweep.matrix import Cell
from engine.sweep.plan import plan_cells
from engine.sweep.summary import out_of_memory

MAX_BATCH_LIMIT = 1_048_576  # the spec's own upper bound on --batch-size


@dataclass(frozen=True)
class Attempt:
    """One tried batch size.

    Attributes:
      batch_size: the global batch tried.
      run_id: its stored run ("" when refused before starting).
      status: the run's status (ok, failed, …) or "refused".
      examples_per_sec: its steady throughput when it ran.
      error: why it did not run ("" when ok).
    """

    batch_size: int
    run_id: str
    status: str
    examples_per_sec: float | None
    error: str

    @property
    def fits(self) -> bool:
        return self.status == RunStatus.OK

    @property
    def out_of_memory(self) -> bool:
        return out_of_memory(self.error)


@dataclass(frozen=True)
class MaxBatch:
    """A search's answer.

    Attributes:
      group: the cell it searched for, without its batch size (model/dataset precision backend device).
      largest_ok: the largest batch that ran (None: not even the smallest tried).
      first_failed: the smallest batch that ran out of memory (None: none did up to the limit).
      failure: the framework's out-of-memory message at first_failed, or why the search stopped.
      attempts: every attempt in the order tried.
    """

    group: str
    largest_ok: int | None
    first_failed: int | None
    failure: str
    attempts: tuple[Attempt, ...]


def search(
    try_batch: Callable[[int], Attempt], start: int, limit: int = MAX_BATCH_LIMIT, resolution: int = 1
) -> tuple[int | None, int | None, str, list[Attempt]]:
    """Doubling then bisecting; returns (largest ok, first out of memory, its message, attempts)."""
    attempts: list[Attempt] = []
    lo: int | None = None
    hi: int | None = None
    failure = ""

    def attempt(b: int) -> bool | None:  # True ran, False out of memory, None failed otherwise (stop)
        nonlocal lo, hi, failure
        a = try_batch(b)
        attempts.append(a)
        if a.fits:
            lo = b if lo is None else max(lo, b)
            return True
        if a.out_of_memory:
            if hi is None or b < hi:
                hi, failure = b, a.error
            return False
        failure = f"stopped at batch {b}: {a.error}"
        return None

    b = max(1, start)
    first = attempt(b)
    if first is None:
        return lo, hi, failure, attempts
    step = 2 if first else 0.5
    while True:  # phase 1: double while it runs (or halve while it does not)
        b = int(b * step)
        if b < 1 or b > limit:
            break
        got = attempt(b)
        if got is None:
            return lo, hi, failure, attempts
        if got != first:
            break
    while lo is not None and hi is not None and hi - lo > max(1, resolution):  # phase 2: bisect
        if attempt((lo + hi) // 2) is None:
            break
    return lo, hi, failure, attempts


def attempt_row(batch: int, row: ResultRow) -> Attempt:
    return Attempt(
        batch, row.get("run_id") or "", row.get("status") or "", row.get("examples_per_sec"), row.get("error") or ""
    )


def max_batch(
    cell: Cell,
    dispatcher: Dispatcher,
    store: Store,
    sweep_id: str,
    start: int,
    limit: int = MAX_BATCH_LIMIT,
    resolution: int = 1,
    label: str | None = None,
) -> MaxBatch:
    """Search the largest batch of `cell` (its batch size ignored), each attempt a stored run of `sweep_id`."""

    def try_batch(b: int) -> Attempt:
        attempt_cell = replace(cell, request={**cell.request, "batch_size": b})
        problem = dispatcher.problem(attempt_cell)
        if problem is not None:
            return Attempt(b, "", "refused", None, problem)
        rows: list[ResultRow] = []
        dispatcher.run(plan_cells([attempt_cell], store, sweep_id, label), store, lambda p, row: rows.append(row))
        return attempt_row(b, rows[0] if rows else {})

    lo, hi, failure, attempts = search(try_batch, start, limit, resolution)
    group = cell.label.replace(f" b{cell.request['batch_size']} ", " ")
    return MaxBatch(group, lo, hi, failure, tuple(attempts))
