"""`--processes N` for TensorFlow (issue 30): real worker processes under MultiWorkerMirroredStrategy with a
TF_CONFIG the engine writes (every worker on 127.0.0.1). Correct, not just running: 2 workers at global batch B
reach the loss and the weights of 1 process at B after the same steps. Faults (tests/worker/process_faults.py): a
worker killed mid-run ends the run within 60 s naming the rank and host with no process left; a worker that never
joins ends it at the bounded join timeout with a clear reason."""

from __future__ import annotations

import json

import pytest
from process_faults import assert_same_result, kill_rank_mid_run, rank_never_joins

from engine.worker.launch.ranks import KEEP_WEIGHTS

pytest.importorskip("tensorflow")

# Measured here: the two agree to ~2e-7 (one process's Keras fit vs the workers' tf.distribute loop, whose
# all-reduce adds the halves' gradients); a worker training alone on its half would move by ~1e-2.
WEIGHT_ATOL = 1e-4
LOSS_RTOL = 1e-4
KEEP = {KEEP_WEIGHTS: "1"}  # the runs keep their final weights for the comparison
RUN = ["--backend", "tensorflow", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "64"]


def _run(cli, *extra: str) -> dict:
    done = cli("run", *RUN, "--epochs", "1", "--steps-per-epoch", "10", *extra, "--json", timeout=240, env=KEEP)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_two_tensorflow_workers_match_one_process_at_the_same_global_batch(cli, db):
    one = _run(cli)
    two = _run(cli, "--processes", "2")
    assert two["status"] == "ok" and two["processes"] == 2 and two["replicas"] == 2
    assert two["strategy"] == "multi_worker" and two["launcher"].startswith("MultiWorkerMirroredStrategy")
    assert two["per_replica_batch_size"] == 32 and len(two["rank_step_ms_median"].split()) == 2
    assert two["peak_gflops"] == pytest.approx(one["peak_gflops"], rel=0.2)  # one host's CPU, not two

    assert_same_result(db, one, two, LOSS_RTOL, WEIGHT_ATOL)


@pytest.mark.slow
def test_a_killed_tensorflow_worker_ends_the_run_naming_it_and_leaves_no_process(cli, db):
    kill_rank_mid_run(cli, db, [*RUN, "--epochs", "1", "--steps-per-epoch", "100000"], "tf_rank")


@pytest.mark.slow
def test_a_tensorflow_worker_that_never_joins_ends_the_run_at_the_join_timeout(cli, db):
    """MultiWorkerMirroredStrategy waits for every worker without a timeout of its own: the launcher ends the run at
    the join timeout (7.5 s for a 30 s run; TensorFlow's start takes up to ~12 s of the run here)."""
    rank_never_joins(cli, db, RUN, "tf_rank", timeout_s=30)
