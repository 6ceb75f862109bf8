"""One rank of a JAX multi-process run: `python -m engine.worker.launch.jax_rank RUN_DIR`, started by
engine.worker.launch.jax_local with RANK, WORLD_SIZE and the coordinator's address set.

CPU collectives go over gloo (set before `jax.distributed.initialize`); the run is the ordinary Keras-on-JAX run
(engine.worker.train_backend) with `keras.distribution.DataParallel` over every process's devices, each process
feeding its shard of the global batch. Rank 0's result file holds the row and series.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path

from engine.worker.launch.ranks import HOLD_RANK, Rank, die_with_agent, join_timeout_s, write_rank


def _join(rank: Rank, path: Path, device: str) -> bool:
    import jax

    if device == "cpu":
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    timeout = join_timeout_s()
    if os.environ.get(HOLD_RANK) == str(rank.rank):  # the fault test's rank that never joins
        time.sleep(10 * timeout)
    # written before the join: a rank that dies in it (JAX aborts the process at its timeout) is known to have waited
    write_rank(path, rank.rank, {"rank": rank.rank, "state": "joining", "join_timeout_s": timeout})
    try:
        jax.distributed.initialize(
            coordinator_address=os.environ["ACCELBENCH_JAX_COORDINATOR"],
            num_processes=rank.world,
            process_id=rank.rank,
            initialization_timeout=int(timeout),
        )
    except Exception as exc:  # noqa: BLE001 — a rendezvous that never completes: one line, then exit
        why = f"not all {rank.world} ranks joined within the {timeout:g} s join timeout ({type(exc).__name__})"
        write_rank(path, rank.rank, {"rank": rank.rank, "error": why, "join_timeout_s": timeout})
        print(f"rank {rank.rank}: {why}: {exc}", file=sys.stderr)
        return False
    write_rank(path, rank.rank, {"rank": rank.rank, "state": "joined"})
    return True


def main(run_dir: str) -> int:
    die_with_agent()
    path = Path(run_dir)
    rank = Rank.from_env()
    from engine.spec.replicas import UNKNOWN_GPU_COUNT
    from engine.spec.specs import TrainSpec, spec_from_dict
    from engine.worker import backends

    spec = spec_from_dict(json.loads((path / "spec.json").read_text()), gpu_count=UNKNOWN_GPU_COUNT)
    assert isinstance(spec, TrainSpec)
    backends.prepare_process(spec.backend, spec.device, 1)  # a GPU rank's one GPU: set by the launcher
    if not _join(rank, path, spec.device):
        return 3
    from engine.runs.progress import Reporter
    from engine.worker.train_backend import run_training_backend

    report = Reporter(path if rank.rank == 0 else None)
    try:
        row = run_training_backend(spec, report, backends.load(spec.backend), rank)
    except Exception as exc:  # noqa: BLE001 — the launcher names this rank; its file says why
        from engine.worker.main import explain

        write_rank(path, rank.rank, {"rank": rank.rank, "error": explain(exc)})
        raise
    payload = {"rank": rank.rank, "host": rank.host, "step_ms_median": row.get("step_time_ms_median")}
    payload["device"] = row.get("devices_used", "")
    if rank.rank == 0:
        payload |= {"row": row, "series": report.series}
    write_rank(path, rank.rank, payload)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1]))
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
