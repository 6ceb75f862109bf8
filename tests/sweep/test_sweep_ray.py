"""Sweeps on a real local Ray cluster (issue 21 item 5): a head started in this process with 2 CPUs, cells
as Ray tasks running the engine's real worker into SQLite and into the throwaway PostgreSQL server; a
Ray worker killed mid-cell; a sweep cancelled; a cell `engine run` refuses for memory refused before
anything is sent (issue 30 item 5)."""

from __future__ import annotations

import os
import signal
import threading

import psutil
import pytest

from engine.results.status import RunStatus
from engine.runs.store import Store, wait_for
from engine.sweep import status
from engine.sweep.matrix import matrix_from_values
from engine.sweep.sweep_run import SweepOutcome, run_sweep

ray = pytest.importorskip("ray", reason="Ray is installed by scripts/test.sh (requirements-test.txt)")
from engine.sweep.ray_dispatch import RayDispatcher  # noqa: E402 (needs Ray)

TINY = {"backends": "jax", "epochs": 1, "steps_per_epoch": 2}


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory):
    """A local Ray head in this process: 2 CPUs, no dashboard, a small object store, nothing reachable from outside.

    Its Ray workers inherit this environment as it is now: a cell run into the PostgreSQL store keeps its run
    folder under ACCELBENCH_RUNS_DIR, here a temporary folder rather than the checkout's data/runs."""
    old_runs_dir = os.environ.get("ACCELBENCH_RUNS_DIR")
    os.environ["ACCELBENCH_RUNS_DIR"] = str(tmp_path_factory.mktemp("ray_runs"))
    ray.init(
        address="local",  # a new head even where another cluster (or a stale /tmp/ray/ray_current_cluster) exists
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=80 * 2**20,
        log_to_driver=False,
        configure_logging=False,
    )
    yield
    ray.shutdown()
    if old_runs_dir is None:
        os.environ.pop("ACCELBENCH_RUNS_DIR", None)
    else:
        os.environ["ACCELBENCH_RUNS_DIR"] = old_runs_dir


def _sweep_in_thread(cells, dispatcher, store) -> tuple[threading.Thread, dict]:
    out: dict = {}

    def go() -> None:
        out["outcome"] = run_sweep(cells, dispatcher, store, on_planned=lambda sid, planned: out.update(sweep_id=sid))

    t = threading.Thread(target=go, daemon=True)
    t.start()
    assert wait_for(lambda: "sweep_id" in out, 60)
    return t, out


def test_a_2x2_sweep_on_ray_stores_4_ok_runs_with_one_sweep_id_in_postgresql(ray_head, pg_server):
    # into the team store (the suite's throwaway PostgreSQL); test_sweep_ray_cli.py runs the same into SQLite
    store = Store(pg_server.new_database())
    cells = matrix_from_values({"models": "tiny_cnn,fashion_cnn", "batch_sizes": "16,32", **TINY}).cells()
    # two cells at a time (1 CPU each) keeps the test short; the ray:// CLI test runs the default, a node per cell
    outcome: SweepOutcome = run_sweep(cells, RayDispatcher(cpus_per_cell=1), store)
    rows = status.sweep_rows(store, outcome.sweep_id)
    assert [r["status"] for r in rows] == [RunStatus.OK] * 4, [r.get("error") for r in rows]
    assert {(r["model"], r["global_batch_size"]) for r in rows} == {
        ("tiny_cnn", 16), ("tiny_cnn", 32), ("fashion_cnn", 16), ("fashion_cnn", 32)
    }  # fmt: skip
    assert all(r["sweep_id"] == outcome.sweep_id and r["node"] and r["examples_per_sec"] > 0 for r in rows)
    assert store.count_runs() == 4
    pg_server.drop_databases()


def _worker_running(store: Store, sweep_id: str, model: str) -> psutil.Process | None:
    for row in status.sweep_rows(store, sweep_id):
        job = store.get_job(row["run_id"])
        if row["model"] == model and row["status"] == RunStatus.RUNNING and job:
            return psutil.Process(job["pid"])
    return None


def test_a_killed_ray_worker_marks_its_run_interrupted_with_the_node_and_the_rest_finish(ray_head, tmp_path):
    store = Store(tmp_path / "results.db")
    values = {"models": "fashion_cnn,tiny_cnn", "batch_sizes": "32", "backends": "jax", "epochs": 1}
    cells = matrix_from_values({**values, "steps_per_epoch": 400}).cells()[:1]  # long enough to be killed mid-cell
    cells += [type(c)(1, c.request, c.target) for c in matrix_from_values({**values, "steps_per_epoch": 2}).cells()[1:]]
    thread, out = _sweep_in_thread(cells, RayDispatcher(cpus_per_cell=1), store)  # both cells at once
    assert wait_for(lambda: _worker_running(store, out["sweep_id"], "fashion_cnn") is not None, 60)
    ray_worker = _worker_running(store, out["sweep_id"], "fashion_cnn").parent()  # the Ray worker running the cell
    assert "ray" in " ".join(ray_worker.cmdline()).lower()
    os.kill(ray_worker.pid, signal.SIGKILL)
    thread.join(120)
    rows = {r["model"]: r for r in out["outcome"].rows}
    killed, other = rows["fashion_cnn"], rows["tiny_cnn"]
    assert killed["status"] == RunStatus.INTERRUPTED
    assert killed["node"] and f"node {killed['node']}" in killed["error"]
    assert other["status"] == RunStatus.OK, other.get("error")
    job = store.get_job(killed["run_id"])
    assert wait_for(lambda: not psutil.pid_exists(job["pid"]) or psutil.Process(job["pid"]).status() == "zombie", 10)


def test_cancelling_a_ray_sweep_cancels_its_tasks_and_marks_its_runs_cancelled(ray_head, tmp_path):
    store = Store(tmp_path / "results.db")
    values = {
        "models": "fashion_cnn",
        "batch_sizes": "16,32,64",
        "backends": "jax",
        "epochs": 1,
        "steps_per_epoch": 400,
    }
    dispatcher = RayDispatcher()
    thread, out = _sweep_in_thread(matrix_from_values(values).cells(), dispatcher, store)
    assert wait_for(lambda: _worker_running(store, out["sweep_id"], "fashion_cnn") is not None, 60)
    running = _worker_running(store, out["sweep_id"], "fashion_cnn")
    dispatcher.cancel()
    thread.join(60)
    assert not thread.is_alive()
    rows = status.sweep_rows(store, out["sweep_id"])
    assert [r["status"] for r in rows] == [RunStatus.CANCELLED] * 3
    assert wait_for(lambda: not psutil.pid_exists(running.pid) or running.status() == "zombie", 10)


def test_a_cell_no_node_can_hold_is_refused_before_anything_starts(ray_head, tmp_path):
    from engine.sweep.matrix import SweepError

    store = Store(tmp_path / "results.db")
    cells = matrix_from_values({"models": "tiny_cnn", "devices": "cpu,gpu:H100", "backends": "jax"}).cells()
    with pytest.raises(SweepError, match=r"cell 1 \(.*gpu:H100\).*GPU 1, accelerator_type:H100 .*\(nodes: .*CPU 2\)"):
        run_sweep(cells, RayDispatcher(), store)
    assert store.count_runs() == 0


def test_a_cell_engine_run_refuses_for_memory_is_refused_before_anything_is_sent(ray_head, tmp_path):
    from engine.sweep.matrix import SweepError

    store = Store(tmp_path / "results.db")
    cells = matrix_from_values({"models": "tiny_cnn", "batch_sizes": "8,1000000", "backends": "jax"}).cells()
    with pytest.raises(
        SweepError, match=r"cell 1 \(.* b1000000 .*needs about [\d,.]+ GB of memory .*Ray node .*nothing started"
    ):
        run_sweep(cells, RayDispatcher(), store)
    assert store.count_runs() == 0
