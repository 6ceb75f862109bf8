"""Native PyTorch over N local processes, started the way torchrun starts them: torch's elastic agent
(`torch.distributed.launcher.api.elastic_launch`, the function `torchrun`/`python -m torch.distributed.run`
calls) with a standalone c10d rendezvous on 127.0.0.1, no restarts, and each rank
`python -m engine.worker.launch.torch_rank RUN_DIR`. The agent runs inside the worker, so the worker's
watchdog, cancel and result row work as for any run.

A rank that dies (killed, out of memory, an exception) fails the run: the agent stops the other ranks (SIGTERM,
then SIGKILL after SHUTDOWN_S) and the reason names the rank, its host and how it ended.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from engine.catalog.nodes import NodePlan, plan_from_env
from engine.catalog.processes import LAUNCHERS
from engine.catalog.specs import TrainSpec
from engine.runs.progress import Reporter
from engine.worker.launch.ranks import (
    AGENT_PID,
    JOIN_TIMEOUT,
    RankFailed,
    collect,
    failure_line,
    join_timeout_for,
    read_ranks,
    thread_count,
)

MONITOR_S = 0.5  # how often the agent looks at its ranks
SHUTDOWN_S = 10  # a stopped rank's grace before SIGKILL


def _config(spec: TrainSpec, run_dir: Path, plan: NodePlan | None, per_node: int):  # -> LaunchConfig
    from torch.distributed.launcher.api import LaunchConfig

    join_s = int(join_timeout_for(spec.timeout_s))
    if plan is None:  # torchrun --standalone: a c10d rendezvous on a free port, this host only
        rdzv: dict = {"rdzv_backend": "c10d", "rdzv_endpoint": "127.0.0.1:0", "rdzv_configs": {"timeout": join_s}}
        rdzv["local_addr"] = "127.0.0.1"
    else:  # torchrun --nnodes M --node-rank i --master-addr … : the static rendezvous, ranks node by node
        rdzv = {"rdzv_backend": "static", "rdzv_endpoint": plan.coordinator}
        rdzv["rdzv_configs"] = {"rank": plan.node_rank, "timeout": join_s}
    nodes = plan.nodes if plan else 1
    return LaunchConfig(
        min_nodes=nodes,
        max_nodes=nodes,
        nproc_per_node=per_node,
        run_id=run_dir.parent.name if plan and plan.node_rank else run_dir.name,
        max_restarts=0,
        monitor_interval=MONITOR_S,
        start_method="spawn",
        **rdzv,
    )


def launch(spec: TrainSpec, report: Reporter, run_dir: Path) -> dict:
    """Run this host's ranks under torch's elastic agent; the run's row ({} on a follower node: no row there)."""
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError
    from torch.distributed.launcher.api import elastic_launch

    n = spec.processes
    plan = plan_from_env()
    here = plan.local_ranks(n) if plan else range(n)
    threads = thread_count(len(here))
    os.environ |= {AGENT_PID: str(os.getpid()), JOIN_TIMEOUT: f"{join_timeout_for(spec.timeout_s):g}"}
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ["TORCH_ELASTIC_SHUTDOWN_TIMEOUT"] = str(SHUTDOWN_S)
    config = _config(spec, run_dir, plan, len(here))
    report.phase("launching", processes=n, launcher="torchrun", threads_per_process=threads)
    try:
        elastic_launch(config, sys.executable)("-m", "engine.worker.launch.torch_rank", str(run_dir))
    except ChildFailedError as exc:
        ended = {r: (f.exitcode, f.pid, float(f.timestamp)) for r, f in exc.failures.items()}
        raise RankFailed(failure_line(ended, n, read_ranks(run_dir, n))) from None
    if plan and plan.node_rank:
        return {}
    collective = "nccl" if spec.device == "gpu" else "gloo"
    row = collect(run_dir, n, report, LAUNCHERS["torch"], collective, here)
    row["notes"] += f"; {threads} thread(s) per process (OMP_NUM_THREADS)"
    if spec.device == "gpu" and row.get("peak_gflops"):  # one GPU per rank: the peak of all of them
        row["peak_gflops"] *= n
        row["mfu_pct"] = 100.0 * row["gflops"] / row["peak_gflops"] if row.get("gflops") else None
    return row
