"""What every launcher shares: a rank's identity and result file, the global batch split over ranks, the merged
row, dying with the agent, and a small model's final weights (the correctness test reads them)."""

from __future__ import annotations

import json
import os
import signal
import socket
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.catalog.nodes import AGENT_PID

RANKS_DIR = "ranks"
WEIGHTS_FILE = "final_weights.npz"
KEEP_WEIGHTS = "ACCELBENCH_KEEP_WEIGHTS"  # "1": a small model's final weights stay in the run folder (tests)
KEEP_WEIGHTS_MAX_PARAMS = 1_000_000
JOIN_TIMEOUT = "ACCELBENCH_JOIN_TIMEOUT_S"
HOLD_RANK = "ACCELBENCH_FAULT_HOLD_RANK"  # fault injection for tests: this rank never joins
DEFAULT_JOIN_TIMEOUT_S = 120.0


class RankFailed(RuntimeError):
    """A rank of a multi-process run ended without its result; the message names it."""


@dataclass(frozen=True)
class Rank:
    """This process's place in the run: global rank, world size, local rank on this host, the host's name."""

    rank: int
    world: int
    local_rank: int
    host: str

    @classmethod
    def from_env(cls) -> Rank:
        """From the variables torchrun (and our JAX launcher) set: RANK, WORLD_SIZE, LOCAL_RANK."""
        env = os.environ
        return cls(int(env["RANK"]), int(env["WORLD_SIZE"]), int(env.get("LOCAL_RANK", 0)), socket.gethostname())


def join_timeout_s() -> float:
    """How long a rank waits for the others to join (the agent sets it from the run's timeout)."""
    return float(os.environ.get(JOIN_TIMEOUT, DEFAULT_JOIN_TIMEOUT_S))


def join_timeout_for(run_timeout_s: float) -> float:
    """How long ranks wait for each other to join: a quarter of the run's timeout, from 5 s to 120 s."""
    return max(5.0, min(120.0, run_timeout_s / 4))


def thread_count(processes: int) -> int:
    """Threads per rank: the user's OMP_NUM_THREADS, else this host's cores ÷ ranks (torchrun's own default is
    1 — the same on a 2-core host with 2 ranks; more than 1 lets each rank use its share of a larger host)."""
    given = os.environ.get("OMP_NUM_THREADS", "")
    return int(given) if given.isdigit() and int(given) > 0 else max(1, (os.cpu_count() or 1) // processes)


def die_with_agent() -> None:
    """SIGKILL this rank when its agent dies (a cancelled or timed-out run kills the agent's process group;
    torch's agent starts ranks in sessions of their own); exit at once if the agent is already gone."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    agent = os.environ.get(AGENT_PID)
    if agent and os.getppid() != int(agent):
        os._exit(1)


def shard(source: Iterator, rank: Rank) -> Iterator:
    """Rank r's slice of each global batch (x, y): examples [r·b, (r+1)·b) with b = global ÷ world, so the
    ranks together see exactly the batch a one-process run sees."""
    for x, y in source:
        b = len(x) // rank.world
        yield x[rank.rank * b : (rank.rank + 1) * b], y[rank.rank * b : (rank.rank + 1) * b]


def rank_path(run_dir: Path, rank: int) -> Path:
    return Path(run_dir) / RANKS_DIR / f"rank{rank}.json"


def write_rank(run_dir: Path, rank: int, payload: dict) -> None:
    """The rank's result (written whole, then renamed: a reader never sees half a file)."""
    path = rank_path(run_dir, rank)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, default=float))
    tmp.replace(path)


def read_ranks(run_dir: Path, world: int) -> dict[int, dict]:
    """Every rank's result file that exists, by rank."""
    out = {}
    for r in range(world):
        path = rank_path(run_dir, r)
        if path.exists():
            out[r] = json.loads(path.read_text())
    return out


def collect(run_dir: Path, world: int, report, launcher: str, collective: str, here: range | None = None) -> dict:
    """The run's row from the ranks' files once every rank of this host (`here`, default all) has ended well;
    rank 0's series go to `report`. Ranks on other hosts (a run across Ray nodes) are merged in by the driver."""
    ranks = read_ranks(run_dir, world)
    here = range(world) if here is None else here
    missing = [r for r in here if r not in ranks or "error" in ranks[r] or (r == 0 and "row" not in ranks[r])]
    if missing:
        raise RankFailed(f"rank(s) {missing} of {world} ended without a result (see the run's log)")
    report.series.update(ranks[0].pop("series", {}))
    return merged_row(ranks[0]["row"], ranks, world, launcher, collective)


def merged_row(row0: dict, ranks: dict[int, dict], world: int, launcher: str, collective: str) -> dict:
    """Rank 0's row as the run's: processes, devices in all, per-device batch and rate, every rank's median
    step and the slowest rank. `row0` already has the global batch and the global rate (rank 0's clock)."""
    medians = [ranks.get(r, {}).get("step_ms_median") for r in range(world)]  # another host's: merged later
    known = [(m, r) for r, m in enumerate(medians) if m is not None]
    slowest = max(known)[1] if known else None
    row = dict(row0)
    rate = row.get("examples_per_sec")
    row |= {
        "processes": world,
        "replicas": world,
        "per_replica_batch_size": row["global_batch_size"] // world,
        "examples_per_sec_per_device": rate / world if rate else None,
        "rank_step_ms_median": " ".join("-" if m is None else f"{m:.3f}" for m in medians),
        "slowest_rank": slowest,
        "launcher": launcher,
        "collective_backend": collective,
        "devices_used": ",".join(sorted({ranks[r].get("device", "") for r in ranks} - {""})),
    }
    if len(known) < world:  # a run across hosts: the driver adds the other hosts' ranks (engine.sweep.ray_nodes)
        row["notes"] += f"; {world} processes ({launcher}, {collective} all-reduce): global rate on rank 0's clock"
    elif known:
        spread = max(m for m, _ in known) / statistics.median(m for m, _ in known) - 1
        row["notes"] += (
            f"; {world} processes ({launcher}, {collective} all-reduce): global rate on rank 0's clock, every "
            f"rank's median step {row['rank_step_ms_median']} ms, slowest rank {slowest} (+{100 * spread:.1f} %)"
        )
    return row


def keep_weights(run_dir: Path | None, named: dict) -> None:
    """A small model's final weights in the run folder when ACCELBENCH_KEEP_WEIGHTS=1 (the 1- vs N-process
    correctness tests compare them); no file otherwise."""
    small = sum(a.size for a in named.values()) <= KEEP_WEIGHTS_MAX_PARAMS
    if run_dir is not None and small and os.environ.get(KEEP_WEIGHTS) == "1":
        np.savez(Path(run_dir) / WEIGHTS_FILE, **{str(k): np.asarray(v) for k, v in named.items()})  # type: ignore[arg-type]


def failure_line(ended: dict[int, tuple[int, int, float]], world: int, files: dict[int, dict]) -> str:
    """One line naming the rank that failed first, from {rank: (exit code, pid, when)} and the ranks' files: a
    rendezvous that timed out names the ranks that never joined; else a rank killed by a signal other than
    SIGTERM (launchers stop the others with SIGTERM), then one that exited with an error, then the earliest."""
    host = socket.gethostname()
    waited = sorted(r for r, f in files.items() if f.get("join_timeout_s"))  # still in the join when they ended
    absent = sorted(r for r in range(world) if r not in files)  # never reached the join
    if waited and absent:
        return (
            f"rendezvous timed out on {host}: rank(s) {', '.join(map(str, absent))} of {world} never joined within "
            f"{files[waited[0]]['join_timeout_s']:g} s; every rank was stopped"
        )
    rank, (code, pid, _) = min(ended.items(), key=lambda i: (i[1][0] == -signal.SIGTERM, i[1][0] >= 0, i[1][2], i[0]))
    how = f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"
    if code >= 0 and files.get(rank, {}).get("error"):
        how += f": {files[rank]['error']}"
    return f"rank {rank} of {world} on {host} (pid {pid}) {how}; every other rank was stopped"
