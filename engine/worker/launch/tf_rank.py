"""One rank of a TensorFlow multi-process run: `python -m engine.worker.launch.tf_rank RUN_DIR`, started by
engine.worker.launch.local with TF_CONFIG written by the engine (every worker on 127.0.0.1, task index = rank).

The run is the ordinary TensorFlow run (engine.worker.train) under MultiWorkerMirroredStrategy, whose own loop
(engine.worker.loop) feeds each worker its share of the global batch. Rank 0's result file holds the row.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine.worker.launch.rank_main import join, load_train_spec, run, train_and_write
from engine.worker.launch.ranks import Rank, die_with_agent


def main(run_dir: str) -> int:
    die_with_agent()
    path = Path(run_dir)
    rank = Rank.from_env()
    from engine.worker import backends

    spec = load_train_spec(path)
    spec = dataclasses.replace(spec, strategy="multi_worker")  # the workers of the TF_CONFIG the launcher wrote
    backends.prepare_process(spec.backend, spec.device, 1, spec.visible_devices)
    import tensorflow as tf  # noqa: F401  (before anything of the run uses it)

    from engine.worker.train import run_training

    join(path, rank, None)  # the strategy joins its workers itself, inside the run
    train_and_write(path, rank, lambda report: run_training(spec, report))
    return 0


if __name__ == "__main__":
    run(main)
