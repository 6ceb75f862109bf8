"""`--processes N` for JAX (issue 30): real processes joined by `jax.distributed.initialize` (CPU collectives over
gloo), Keras data parallel over the global mesh. Correct, not just running: 2 processes at global batch B reach
the loss and the weights of 1 process at B after the same steps. Faults (tests/worker/process_faults.py): a rank
killed mid-run ends the run within 60 s naming the rank and host with no process left; a rank that never joins ends
it at the bounded join timeout with a clear reason."""

from __future__ import annotations

import json

import pytest
from process_faults import assert_same_result, kill_rank_mid_run, rank_never_joins

from engine.worker.launch.ranks import KEEP_WEIGHTS

pytest.importorskip("jax")

# Measured here: the two agree to ~6e-6 (the all-reduce adds the shards' gradients in another order than one
# process's reduction); a rank training alone on its half would move by ~1e-2.
WEIGHT_ATOL = 1e-4
KEEP = {KEEP_WEIGHTS: "1"}  # the runs keep their final weights for the comparison
LOSS_RTOL = 1e-4
RUN = ["--backend", "jax", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "64", "--epochs", "1"]


def _run(cli, *extra: str) -> dict:
    done = cli("run", *RUN, "--steps-per-epoch", "10", *extra, "--json", timeout=240, env=KEEP)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_two_jax_processes_match_one_process_at_the_same_global_batch(cli, db):
    one = _run(cli)
    two = _run(cli, "--processes", "2")
    assert two["status"] == "ok" and two["processes"] == 2 and two["replicas"] == 2
    assert two["launcher"].startswith("jax.distributed") and two["collective_backend"] == "gloo"
    assert two["per_replica_batch_size"] == 32 and len(two["rank_step_ms_median"].split()) == 2
    assert two["examples_per_sec_per_device"] == pytest.approx(two["examples_per_sec"] / 2)

    assert_same_result(db, one, two, LOSS_RTOL, WEIGHT_ATOL)


@pytest.mark.slow
def test_a_killed_jax_rank_ends_the_run_naming_it_and_leaves_no_process(cli, db):
    kill_rank_mid_run(cli, db, [*RUN, "--steps-per-epoch", "100000"], "jax_rank")


@pytest.mark.slow
def test_a_jax_rank_that_never_joins_ends_the_run_at_the_join_timeout(cli, db):
    """jax.distributed.initialize gives up at the join timeout (5 s for a 20 s run), well before the run's own."""
    rank_never_joins(cli, db, RUN, "jax_rank", timeout_s=20)
