"""One rank of a JAX multi-process run: `python -m engine.worker.launch.jax_rank RUN_DIR`, started by
engine.worker.launch.jax_local with RANK, WORLD_SIZE and the coordinator's address set.

CPU collectives go over gloo (set before `jax.distributed.initialize`); the run is the ordinary Keras-on-JAX run
(engine.worker.train_backend) with `keras.distribution.DataParallel` over every process's devices, each process
feeding its shard of the global batch. Rank 0's result file holds the row and series.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from engine.worker.launch.rank_main import join, load_train_spec, run, train_and_write
from engine.worker.launch.ranks import Rank, die_with_agent


def _connect(rank: Rank, device: str) -> Callable[[float], None]:
    """jax.distributed's rendezvous at rank 0's coordinator (CPU collectives over gloo, set before it)."""

    def connect(timeout_s: float) -> None:
        import jax

        if device == "cpu":
            jax.config.update("jax_cpu_collectives_implementation", "gloo")
        jax.distributed.initialize(
            coordinator_address=os.environ["ACCELBENCH_JAX_COORDINATOR"],
            num_processes=rank.world,
            process_id=rank.rank,
            initialization_timeout=int(timeout_s),
        )

    return connect


def main(run_dir: str) -> int:
    die_with_agent()
    path = Path(run_dir)
    rank = Rank.from_env()
    from engine.worker import backends

    spec = load_train_spec(path)
    backends.prepare_process(spec.backend, spec.device, 1)  # a GPU rank's one GPU: set by the launcher
    if not join(path, rank, _connect(rank, spec.device)):
        return 3
    from engine.worker.train_backend import run_training_backend

    train_and_write(path, rank, lambda report: run_training_backend(spec, report, backends.load(spec.backend), rank))
    return 0


if __name__ == "__main__":
    run(main)
