"""A node other than the first of a run across hosts: `python -m engine.worker.launch.follower RUN_DIR`, started by
its Ray task (engine.sweep.ray_nodes) with ACCELBENCH_NODE_PLAN set. It starts this node's ranks with the same
launcher as the first node's worker (torch's elastic agent with the static rendezvous; our local launcher for
JAX), waits for them, and writes RUN_DIR/follower.json: every local rank's file, or the line naming the rank
that failed. It stores no row: the first node's worker does, and the driver merges these ranks into it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.catalog.nodes import FOLLOWER_RESULT, plan_from_env
from engine.worker.launch.rank_main import load_train_spec
from engine.worker.launch.ranks import RankFailed, die_with_agent, read_ranks


def main(run_dir: str) -> int:
    die_with_agent()  # the Ray task that started this follower is its agent: a cancelled task ends it
    path = Path(run_dir)
    plan = plan_from_env()
    assert plan is not None and plan.node_rank > 0, "a follower needs ACCELBENCH_NODE_PLAN of a node after the first"
    spec = load_train_spec(path)
    from engine.runs.progress import Reporter

    error = None
    try:
        if spec.backend == "torch":
            from engine.worker.launch import torchrun

            torchrun.launch(spec, Reporter(None), path)
        else:
            from engine.worker.launch import local

            local.launch(spec, Reporter(None), path)
    except RankFailed as exc:
        error = str(exc)
    here = plan.local_ranks(spec.processes)
    ranks = {r: f for r, f in read_ranks(path, spec.processes).items() if r in here}
    result = {"ranks": ranks, "error": error}
    (path / FOLLOWER_RESULT).write_text(json.dumps(result, default=float))
    return 1 if error else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
