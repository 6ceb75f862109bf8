"""What spreading a multi-process cell over Ray nodes costs (issue 30 item 3): the same 2-process cell on one Ray
node and across two, on a two-node cluster started on this machine (tests/sweep/ray_head.py: a head and a second
raylet, 2 CPUs each), interleaved over several rounds.

    .venv/bin/python bench/bench_nodes.py --rounds 3 [--backends torch,jax]

Each round runs, per backend, `engine sweep … --processes 2` (both ranks on one node, each CPU cell holding a whole
node) and `… --processes 2 --nodes 2` (one rank per node), in alternating order. Both nodes share this host's
cores, so the difference is the launch path (placement group, follower task, static rendezvous / remote
coordinator) and loopback TCP, not a network: prints per-round rates, the medians and the ratio across ÷ one node.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sweep"))

from ray_head import add_node, start_head  # noqa: E402  (the test suite's real-cluster helper)

CELL = ["--models", "tiny_cnn", "--batch-sizes", "128", "--epochs", "3", "--steps-per-epoch", "20"]


def _sweep(address: str, backend: str, nodes: int, db: Path) -> dict:
    cmd = [sys.executable, "-m", "engine", "sweep", *CELL, "--backends", backend, "--processes", "2",
           "--nodes", str(nodes), "--on", address, "--json"]  # fmt: skip
    token = {"RAY_AUTH_MODE": "token"} if (Path.home() / ".ray" / "auth_token").exists() else {}
    env = {**os.environ, **token, "ACCELBENCH_DB": str(db)}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    row = json.loads(done.stdout.strip().splitlines()[-1])["runs"][0]
    if row["status"] != "ok":
        raise SystemExit(f"{backend} nodes={nodes}: {row['status']} {row['error']}")
    return row


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--backends", default="torch,jax")
    a = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-nodes-"))
    head = start_head(tmp / "head.log", num_cpus=2)
    rates: dict[tuple[str, int], list[float]] = {}
    try:
        add_node(head, tmp / "node2.log", num_cpus=2)
        for r in range(a.rounds):
            for backend in a.backends.split(","):
                for nodes in (1, 2) if r % 2 == 0 else (2, 1):
                    row = _sweep(head.address, backend, nodes, tmp / "results.db")
                    rates.setdefault((backend, nodes), []).append(row["examples_per_sec"])
                    print(f"round {r + 1} {backend} nodes={nodes}: {row['examples_per_sec']:,.0f} ex/s, "
                          f"ranks' median steps {row['rank_step_ms_median']} ms, node {row['node']}", flush=True)  # fmt: skip
    finally:
        head.close()
    print("\n| backend | ranks | ex/s, median [min–max] | across ÷ one node |\n|---|---|---|---|")
    for backend in a.backends.split(","):
        one, two = rates[(backend, 1)], rates[(backend, 2)]
        ratio = statistics.median(two) / statistics.median(one)
        for nodes, vals in ((1, one), (2, two)):
            where = "2 on one node" if nodes == 1 else "1 on each of 2 nodes"
            cell = f"{ratio:.2f}" if nodes == 2 else ""
            print(f"| {backend} | {where} | {statistics.median(vals):,.0f} [{min(vals):,.0f}–{max(vals):,.0f}] | {cell} |")


if __name__ == "__main__":
    main()
