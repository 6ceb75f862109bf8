"""Microbenchmark repeats are windows of back-to-back calls closed by one synchronisation, so a ~1 ms GPU op is
not charged the host's round trip on every call; an op longer than the window target is synced every call."""

from __future__ import annotations

import time

import pytest

from engine.worker.backends import timing


def test_a_short_op_is_timed_in_windows_and_reported_per_call():
    jax = pytest.importorskip("jax")
    from engine.worker.backends import jax_ops

    run = jax_ops.matmul_op(64, 64, 64, "float32", "cpu")
    timed = timing.time_repeats(run, jax_ops.finish, warmup=3, repeats=4, flop=2 * 64**3)
    assert 1 < timed.window <= timing.MAX_WINDOW
    assert len(timed.times_s) == 4 and all(0 < t < timing.WINDOW_TARGET_S for t in timed.times_s)
    assert isinstance(timed.last_output, jax.Array)


def test_an_op_longer_than_the_target_is_synced_every_call():
    calls: list[int] = []
    finished: list[int] = []

    def run() -> int:
        calls.append(1)
        time.sleep(timing.WINDOW_TARGET_S * 1.5)
        return len(calls)

    timed = timing.time_repeats(run, lambda out: finished.append(out), warmup=2, repeats=3, flop=1.0)
    assert timed.window == 1 and len(calls) == len(finished) == 5
    assert all(t >= timing.WINDOW_TARGET_S * 1.5 for t in timed.times_s)


def test_a_micro_run_says_how_it_was_timed(db):
    from conftest import last_json, run_cli

    proc = run_cli("run", "--bench", "matmul", "--m", "64", "--n", "64", "--k", "64", "--backend", "jax", "--json")
    assert proc.returncode == 0, proc.stderr[-1500:]
    row = last_json(proc.stdout)
    assert row["status"] == "ok" and "calls back to back and one sync" in row["notes"]


def test_the_plain_jax_peer_prints_each_matmul_variant():
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "bench/jax_peer.py", "--smoke"], capture_output=True, text=True, timeout=120, check=True
    )
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert [x["peer"] for x in lines] == ["jax.jit", "jax.f32_accumulate", "jax.synced", "jax.in_one_program"]
    assert all(x["tflops"] > 0 and x["n"] == 256 for x in lines)
