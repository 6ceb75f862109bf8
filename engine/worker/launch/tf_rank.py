"""One rank of a TensorFlow multi-process run: `python -m engine.worker.launch.tf_rank RUN_DIR`, started by
engine.worker.launch.local with TF_CONFIG written by the engine (every worker on 127.0.0.1, task index = rank).

The run is the ordinary TensorFlow run (engine.worker.train) under MultiWorkerMirroredStrategy, whose own loop
(engine.worker.loop) feeds each worker its share of the global batch. Rank 0's result file holds the row.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import traceback
from pathlib import Path

from engine.worker.launch.ranks import Rank, die_with_agent, join_timeout_s, write_rank


def main(run_dir: str) -> int:
    die_with_agent()
    path = Path(run_dir)
    rank = Rank.from_env()
    from engine.spec.replicas import UNKNOWN_GPU_COUNT
    from engine.spec.specs import TrainSpec, spec_from_dict
    from engine.worker import backends

    spec = spec_from_dict(json.loads((path / "spec.json").read_text()), gpu_count=UNKNOWN_GPU_COUNT)
    assert isinstance(spec, TrainSpec)
    spec = dataclasses.replace(spec, strategy="multi_worker")  # the workers of the TF_CONFIG the launcher wrote
    backends.prepare_process(spec.backend, spec.device, 1, spec.visible_devices)
    import tensorflow as tf  # noqa: F401  (before anything of the run uses it)

    from engine.runs.progress import Reporter
    from engine.worker.train import run_training

    write_rank(path, rank.rank, {"rank": rank.rank, "state": "joining", "join_timeout_s": join_timeout_s()})
    report = Reporter(path if rank.rank == 0 else None)
    try:
        row = run_training(spec, report)
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
