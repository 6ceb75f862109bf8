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

from engine.runs.progress import Reporter
from engine.spec.processes import LAUNCHERS
from engine.spec.specs import TrainSpec
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


def launch(spec: TrainSpec, report: Reporter, run_dir: Path) -> dict:
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError
    from torch.distributed.launcher.api import LaunchConfig, elastic_launch

    n = spec.processes
    threads = thread_count(n)
    os.environ |= {AGENT_PID: str(os.getpid()), JOIN_TIMEOUT: f"{join_timeout_for(spec.timeout_s):g}"}
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ["TORCH_ELASTIC_SHUTDOWN_TIMEOUT"] = str(SHUTDOWN_S)
    config = LaunchConfig(
        min_nodes=1,
        max_nodes=1,
        nproc_per_node=n,
        run_id=run_dir.name,
        rdzv_backend="c10d",
        rdzv_endpoint="127.0.0.1:0",  # torchrun --standalone: a free port, this host only
        rdzv_configs={"timeout": int(join_timeout_for(spec.timeout_s))},
        max_restarts=0,
        monitor_interval=MONITOR_S,
        local_addr="127.0.0.1",
        start_method="spawn",
    )
    report.phase("launching", processes=n, launcher="torchrun", threads_per_process=threads)
    try:
        elastic_launch(config, sys.executable)("-m", "engine.worker.launch.torch_rank", str(run_dir))
    except ChildFailedError as exc:
        ended = {r: (f.exitcode, f.pid, float(f.timestamp)) for r, f in exc.failures.items()}
        raise RankFailed(failure_line(ended, n, read_ranks(run_dir, n))) from None
    collective = "nccl" if spec.device == "gpu" else "gloo"
    row = collect(run_dir, n, report, LAUNCHERS["torch"], collective)
    row["notes"] += f"; {threads} thread(s) per process (OMP_NUM_THREADS)"
    if spec.device == "gpu" and row.get("peak_gflops"):  # one GPU per rank: the peak of all of them
        row["peak_gflops"] *= n
        row["mfu_pct"] = 100.0 * row["gflops"] / row["peak_gflops"] if row.get("gflops") else None
    return row
