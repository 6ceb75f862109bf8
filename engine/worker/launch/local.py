"""Our own local launcher, for the frameworks that have none for one host (JAX, TensorFlow): start N ranks
(`python -m MODULE RUN_DIR` with RANK, WORLD_SIZE, LOCAL_RANK and the framework's own cluster variables), watch
them, and stop them all when one fails, naming it.

  JAX         each rank calls `jax.distributed.initialize` with rank 0's coordinator on 127.0.0.1 (CPU collectives
              over gloo; on a GPU host one process per GPU); Keras trains data parallel over the global mesh.
  TensorFlow  each rank gets a TF_CONFIG the engine writes (every worker on 127.0.0.1, task index = rank) and trains
              under MultiWorkerMirroredStrategy.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine.catalog.nodes import NodePlan, plan_from_env
from engine.catalog.processes import LAUNCHERS
from engine.catalog.specs import TrainSpec
from engine.runs.processes import die_with_parent
from engine.runs.progress import Reporter
from engine.worker.launch.ranks import (
    AGENT_PID,
    JOIN_TIMEOUT,
    RankFailed,
    collect,
    failure_line,
    join_timeout_for,
    rank_path,
    read_ranks,
    thread_count,
)

COORDINATOR = "ACCELBENCH_JAX_COORDINATOR"
MONITOR_S = 0.5
SHUTDOWN_S = 10.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(procs: dict[int, subprocess.Popen]) -> None:
    """SIGTERM every rank still running, then SIGKILL what is left after SHUTDOWN_S."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for p in procs.values():
            if p.poll() is None:
                p.send_signal(sig)
        end = time.time() + SHUTDOWN_S
        while time.time() < end and any(p.poll() is None for p in procs.values()):
            time.sleep(0.1)


def _one_gpu(spec: TrainSpec, rank: int) -> dict[str, str]:
    """On a GPU host each rank sees one GPU: the rank-th of --visible-devices, else GPU `rank`."""
    if spec.device != "gpu":
        return {}
    visible = [d.strip() for d in spec.visible_devices.split(",") if d.strip()] or [str(rank)]
    return {"CUDA_VISIBLE_DEVICES": visible[rank % len(visible)]}


def _join_overdue(run_dir: Path, world: int, here: range) -> str | None:
    """The rendezvous line once a rank has waited in the join past its join timeout while a rank of this host
    never reached the join; else None. JAX's and torch's own rendezvous end such a wait themselves, TensorFlow's
    (inside MultiWorkerMirroredStrategy) waits for ever: the launcher bounds it for every framework."""
    if all(rank_path(run_dir, r).exists() for r in here):  # every rank reached the join: nothing to bound here
        return None
    files = read_ranks(run_dir, world)
    now = time.time()
    for r, f in files.items():
        if f.get("state") == "joining" and now - rank_path(run_dir, r).stat().st_mtime > f["join_timeout_s"]:
            return failure_line({}, world, files)  # waited and absent: the line names the ranks that never came
    return None


def _rank_env(spec: TrainSpec, plan: NodePlan | None) -> tuple[dict[str, str], Callable[[int], dict[str, str]], str]:
    """(variables every rank gets, those of local rank r, the collective backend) for the spec's framework."""
    n = spec.processes
    if spec.backend == "tensorflow":
        workers = [f"127.0.0.1:{_free_port()}" for _ in range(n)]

        def tf_config(r: int) -> dict[str, str]:
            return {"TF_CONFIG": json.dumps({"cluster": {"worker": workers}, "task": {"type": "worker", "index": r}})}

        return {}, tf_config, "TF collective ops (ring, gRPC)"
    collective = "gloo" if spec.device == "cpu" else "XLA collectives (NCCL)"
    coordinator = plan.coordinator if plan else f"127.0.0.1:{_free_port()}"
    return {COORDINATOR: coordinator}, lambda r: _one_gpu(spec, r), collective


def launch(spec: TrainSpec, report: Reporter, run_dir: Path) -> dict:
    """Start this host's ranks, wait for them, and return the run's row ({} on a follower node: no row there)."""
    n = spec.processes
    plan = plan_from_env()
    here = plan.local_ranks(n) if plan else range(n)
    threads = thread_count(len(here))
    common, per_rank, collective = _rank_env(spec, plan)
    env = {**os.environ, AGENT_PID: str(os.getpid()), JOIN_TIMEOUT: f"{join_timeout_for(spec.timeout_s):g}"}
    env |= {**common, "WORLD_SIZE": str(n), "OMP_NUM_THREADS": str(threads)}
    module = f"engine.worker.launch.{'tf' if spec.backend == 'tensorflow' else 'jax'}_rank"
    report.phase("launching", processes=n, launcher=LAUNCHERS[spec.backend], threads_per_process=threads)
    procs: dict[int, subprocess.Popen] = {}
    try:
        for r in here:
            local = r - here.start
            procs[r] = subprocess.Popen(
                [sys.executable, "-m", module, str(run_dir)],
                env={**env, "RANK": str(r), "LOCAL_RANK": str(local), **per_rank(local)},
                stdin=subprocess.DEVNULL,
                preexec_fn=die_with_parent,
            )
        ended: dict[int, tuple[int, int, float]] = {}
        while len(ended) < len(here):
            for r, p in procs.items():
                if r not in ended and p.poll() is not None:
                    ended[r] = (p.returncode, p.pid, time.time())
            if any(code for code, _, _ in ended.values()):
                _stop(procs)
                failed = {r: e for r, e in ended.items() if e[0]}
                raise RankFailed(failure_line(failed, n, read_ranks(run_dir, n)))
            overdue = _join_overdue(run_dir, n, here)
            if overdue:  # a rank stuck in a rendezvous has nothing to save (TensorFlow's even ignores SIGTERM)
                for p in procs.values():
                    p.kill()
                raise RankFailed(overdue)
            time.sleep(MONITOR_S)
    finally:
        _stop(procs)
    if plan and plan.node_rank:
        return {}
    row = collect(run_dir, n, report, LAUNCHERS[spec.backend], collective, here)
    if spec.backend == "tensorflow" and spec.device == "cpu" and row.get("peak_gflops"):
        # TF counts one CPU per worker (one per machine); here every worker shares this host's one CPU
        row["peak_gflops"] /= n
        row["mfu_pct"] = 100.0 * row["gflops"] / row["peak_gflops"] if row.get("gflops") else None
    row["notes"] += f"; {threads} thread(s) per process"
    return row
