"""One 2-process cell across two Ray nodes (issue 30 item 3): a real cluster of two nodes on this machine (a head
and a second raylet, one CPU each, tests/sweep/ray_head.py), `engine sweep --on ray://… --processes 2 --nodes 2`.
The cell's placement group puts one rank on each node; JAX joins them through `jax.distributed` with the
coordinator on the first node, native PyTorch through torch's elastic agent with the static rendezvous. Correct,
not only running: the JAX cell's weights equal a 1-process run's at the same global batch after the same steps."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import last_json, run_cli
from ray_head import add_node, start_head

from engine.results.status import RunStatus
from engine.worker.launch.ranks import KEEP_WEIGHTS, WEIGHTS_FILE

pytest.importorskip("ray", reason="Ray is installed by scripts/test.sh (requirements-test.txt)")
pytest.importorskip("torch")

TOKEN_ENV = {"RAY_AUTH_MODE": "token"}
KEEP = {KEEP_WEIGHTS: "1"}  # the Ray workers (and so the cells' workers) inherit it from their raylet
CELL = ["--models", "tiny_cnn", "--batch-sizes", "64", "--epochs", "1", "--steps-per-epoch", "10"]
WEIGHT_ATOL = 1e-4  # as tests/worker/test_processes_jax.py: 2 vs 1 process agree to ~6e-6


@pytest.fixture(scope="module")
def two_nodes(tmp_path_factory):
    logs = tmp_path_factory.mktemp("ray")
    head = start_head(logs / "head.log", num_cpus=1, env=KEEP)
    try:
        add_node(head, logs / "node2.log", num_cpus=1, env=KEEP)
        yield head
    finally:
        head.close()


@pytest.mark.slow
def test_a_two_process_cell_runs_across_two_ray_nodes_with_the_weights_of_one_process(two_nodes, db):
    from pathlib import Path

    token = TOKEN_ENV if (Path.home() / ".ray" / "auth_token").exists() else {}
    done = run_cli(
        "sweep", *CELL, "--backends", "jax,torch", "--processes", "2", "--nodes", "2", "--on", two_nodes.address,
        "--json", timeout=400, env=token,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {r["backend"]: r for r in last_json(done.stdout)["runs"]}
    for backend, row in rows.items():
        assert row["status"] == RunStatus.OK, (backend, row["error"])
        nodes = row["node"].split("; ")
        assert len(nodes) == 2 and len(set(nodes)) == 2, row["node"]  # two distinct Ray nodes
        assert row["processes"] == 2 and row["per_replica_batch_size"] == 32
        assert len(row["rank_step_ms_median"].split()) == 2 and "-" not in row["rank_step_ms_median"].split()
        assert "across 2 Ray nodes" in row["notes"] and row["launcher"].endswith("across 2 Ray nodes")
    assert rows["torch"]["collective_backend"] == "gloo" and rows["torch"]["launcher"].startswith("torchrun")

    one = run_cli(
        "run", "--backend", "jax", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "64",
        "--epochs", "1", "--steps-per-epoch", "10", "--json", timeout=240, env=KEEP,
    )  # fmt: skip
    assert one.returncode == 0, one.stderr[-2000:]
    one_row = last_json(one.stdout)
    assert rows["jax"]["final_loss"] == pytest.approx(one_row["final_loss"], rel=1e-4)
    w1 = np.load(db.parent / "runs" / one_row["run_id"] / WEIGHTS_FILE)
    w2 = np.load(db.parent / "runs" / rows["jax"]["run_id"] / WEIGHTS_FILE)
    assert sorted(w1.files) == sorted(w2.files)
    for name in w1.files:
        np.testing.assert_allclose(w2[name], w1[name], rtol=0, atol=WEIGHT_ATOL, err_msg=name)


def test_nodes_without_ray_or_with_a_split_that_does_not_divide_are_refused_at_once(db):
    done = run_cli("sweep", *CELL, "--backends", "jax", "--processes", "2", "--nodes", "2", timeout=300)
    assert done.returncode == 2 and "--nodes 2: cells across hosts run on a Ray cluster" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_rank_killed_on_the_second_node_fails_the_cell_naming_it_and_leaves_no_process(two_nodes, db):
    """The follower's rank dies mid-run (SIGKILL): the first node's rank loses its peer, the cell ends `failed`
    within 60 s with the second node's reason in its error, and no rank, follower or worker is left."""
    import subprocess
    import sys
    from pathlib import Path

    import psutil
    from conftest import ROOT

    from engine.runs.store import Store, wait_for

    token = TOKEN_ENV if (Path.home() / ".ray" / "auth_token").exists() else {}
    import os

    sweep = subprocess.Popen(
        [sys.executable, "-m", "engine", "sweep", "--models", "tiny_cnn", "--batch-sizes", "64", "--epochs", "1",
         "--steps-per-epoch", "100000", "--backends", "jax", "--processes", "2", "--nodes", "2",
         "--on", two_nodes.address, "--json"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **token},
    )  # fmt: skip

    def ours() -> list[psutil.Process]:
        return [
            p for p in psutil.process_iter(["cmdline"]) if str(db.parent / "runs") in " ".join(p.info["cmdline"] or [])
        ]

    def follower_rank() -> list[psutil.Process]:
        return [
            p
            for p in ours()
            if "engine.worker.launch.jax_rank" in p.info["cmdline"] and "node1" in " ".join(p.info["cmdline"])
        ]

    store = Store(db)
    try:
        # the rank is training once the first node's rank reports steps
        assert wait_for(lambda: bool(follower_rank()) and _stepping(db), 120), sweep.stderr
        follower_rank()[0].kill()
        out, err = sweep.communicate(timeout=400)  # a hang guard; the row below says why it ended
    finally:
        sweep.kill()
    row = last_json(out)["runs"][0]
    assert sweep.returncode == 1 and row["status"] == RunStatus.FAILED, (row["status"], err[-2000:])
    assert "rank 1 of 2" in row["error"] and "SIGKILL" in row["error"] and "on 1" in row["error"], row["error"]
    assert wait_for(lambda: not ours(), 20), [p.info["cmdline"] for p in ours()]
    assert store.get_run(row["run_id"])["status"] == RunStatus.FAILED


def _stepping(db) -> bool:
    progress = list((db.parent / "runs").glob("*/progress.jsonl"))
    return any('"step"' in p.read_text() for p in progress)


def test_how_processes_split_over_nodes():
    from engine.catalog.nodes import NodePlan, cell_nodes, nodes_problem

    assert cell_nodes(1, 2) == 1 and cell_nodes(4, 2) == 2  # one process stays on one node: the curve's baseline
    assert nodes_problem(1, 2, "tensorflow") is None and nodes_problem(4, 2, "jax") is None
    assert "does not split evenly over 2 nodes" in (nodes_problem(3, 2, "torch") or "")
    assert "torch or jax, not tensorflow" in (nodes_problem(2, 2, "tensorflow") or "")
    plan = NodePlan(2, 0, "10.0.0.1:29500")
    assert list(plan.local_ranks(4)) == [0, 1] and list(plan.for_node(1).local_ranks(4)) == [2, 3]


def test_the_followers_ranks_are_merged_into_the_row_and_their_reasons_into_a_failure():
    from engine.sweep.ray_nodes import merged_update

    row = {"status": "ok", "node": "A", "rank_step_ms_median": "5.000 -", "notes": "n", "launcher": "torchrun"}
    follower = {"node": "B", "ranks": {"1": {"step_ms_median": 6.5}}, "error": None}
    update = merged_update(row, [follower], 2, 0)
    assert update["node"] == "A; B" and update["rank_step_ms_median"] == "5.000 6.500" and update["slowest_rank"] == 1
    assert update["notes"].endswith("slowest rank 1 on B") and update["launcher"] == "torchrun, across 2 Ray nodes"
    failed = {"status": "failed", "node": "A", "error": "rank 0 of 2 exited with code 1"}
    lost = {"node": "B", "ranks": {}, "error": "rank 1 of 2 on b (pid 7) was killed by SIGKILL"}
    update = merged_update(failed, [lost], 2, 0)
    assert update["error"] == "rank 0 of 2 exited with code 1; on B: rank 1 of 2 on b (pid 7) was killed by SIGKILL"
    said = {**failed, "error": "on B: rank 1 of 2 on b (pid 7) was killed by SIGKILL"}
    assert "error" not in merged_update(said, [lost], 2, 0)  # the watcher already said it


def test_a_node_holds_its_share_of_the_ranks_and_of_the_global_batch():
    from engine.sweep.matrix import matrix_from_values
    from engine.sweep.ray_nodes import bundle_of, nodes_of, per_node_cell

    (cell,) = [c for c in matrix_from_values({"models": "tiny_cnn", "batch_sizes": "64", "processes": "4"}).cells()]
    assert nodes_of(cell, 2) == 2
    share = per_node_cell(cell, 2)
    assert share.request["processes"] == 2 and share.request["batch_size"] == 32  # what one node's memory must hold
    assert bundle_of({"num_cpus": 2, "num_gpus": 0, "resources": {"accelerator_type:H100": 0.001}}) == {
        "CPU": 2.0,
        "accelerator_type:H100": 0.001,
    }
