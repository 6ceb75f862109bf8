"""What every rank of a multi-process run does around its framework's own join and training: read the run's
spec, join within the bounded join timeout (saying so in its rank file before and after), train, and write its
result file — rank 0's with the row and series. The rank modules (torch_rank, jax_rank, tf_rank) keep only what
differs between frameworks: how they join and which training loop they run.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.worker.launch.ranks import HOLD_RANK, Rank, join_timeout_s, rank_path, write_rank

ERROR_CHARS = 300  # a rank's last error, as the run's reason carries it (the whole traceback is in the log)


def load_train_spec(path: Path) -> Any:
    """The run's TrainSpec as the agent wrote it (the GPU count is the launcher's business, not the rank's)."""
    from engine.catalog.replicas import UNKNOWN_GPU_COUNT
    from engine.catalog.specs import TrainSpec, spec_from_dict

    spec = spec_from_dict(json.loads((path / "spec.json").read_text()), gpu_count=UNKNOWN_GPU_COUNT)
    assert isinstance(spec, TrainSpec)
    return spec


def join(path: Path, rank: Rank, connect: Callable[[float], None] | None) -> bool:
    """Join the run's ranks within the join timeout: False (its rank file says why) when they never all came.

    `connect(timeout_s)` is the framework's own rendezvous; None where the framework joins inside its training
    (TensorFlow's MultiWorkerMirroredStrategy). "joining" is written first: a rank that dies in the join (JAX
    aborts the process at its timeout) is then known to have waited, not crashed before it.
    """
    timeout = join_timeout_s()
    if os.environ.get(HOLD_RANK) == str(rank.rank):  # the fault test's rank that never joins
        time.sleep(10 * timeout)
    write_rank(path, rank.rank, {"rank": rank.rank, "state": "joining", "join_timeout_s": timeout})
    if connect is None:
        return True
    try:
        connect(timeout)
    except Exception as exc:  # noqa: BLE001 — a rendezvous that never completes: one line, then exit
        why = f"not all {rank.world} ranks joined within the {timeout:g} s join timeout ({type(exc).__name__})"
        write_rank(path, rank.rank, {"rank": rank.rank, "error": why, "join_timeout_s": timeout})
        print(f"rank {rank.rank}: {why}: {exc}", file=sys.stderr)
        return False
    write_rank(path, rank.rank, {"rank": rank.rank, "state": "joined"})
    return True


def train_and_write(path: Path, rank: Rank, train: Callable[[Any], dict]) -> None:
    """Run `train(reporter)` (only rank 0 reports progress) and write this rank's result file: its median step
    and devices, and on rank 0 the row and series; a failure is written as this rank's error, then raised."""
    from engine.runs.progress import Reporter

    report = Reporter(path if rank.rank == 0 else None)
    try:
        row = train(report)
    except Exception as exc:  # noqa: BLE001 — the agent names this rank; its file says why
        from engine.worker.main import explain

        write_rank(path, rank.rank, {"rank": rank.rank, "error": explain(exc)})
        raise
    payload = {"rank": rank.rank, "host": rank.host, "step_ms_median": row.get("step_time_ms_median")}
    payload["device"] = row.get("devices_used", "")
    if rank.rank == 0:
        payload |= {"row": row, "series": report.series}
    write_rank(path, rank.rank, payload)


def run(main: Callable[[str], int]) -> None:
    """A rank's `__main__`: exit with main's code; an unexpected error's traceback goes to the rank's stderr log
    and its last line to the rank's file, so the run's reason says why this rank exited, not only its code."""
    try:
        sys.exit(main(sys.argv[1]))
    except Exception as exc:  # noqa: BLE001
        traceback.print_exc()
        leave_last_error(Path(sys.argv[1]), exc)
        sys.exit(1)


def leave_last_error(path: Path, exc: BaseException) -> None:
    """Add `exc` as this rank's error to its file, keeping what the file already said (an error written by
    `train_and_write` stays: it is the first cause)."""
    rank = os.environ.get("RANK", "")
    if not rank.isdigit():
        return
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    text = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    line = f"{type(exc).__name__}: {text}"[:ERROR_CHARS] + where
    try:
        before = json.loads(rank_path(path, int(rank)).read_text())
    except (OSError, ValueError):
        before = {}
    if not before.get("error"):
        write_rank(path, int(rank), {**before, "rank": int(rank), "error": line})
