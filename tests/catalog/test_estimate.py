"""engine.catalog.estimate: duration and memory of a request from FLOPs and this host's measured speed."""

from __future__ import annotations

import pytest

from engine.catalog.estimate import ASSUMED_EFFICIENCY, STARTUP_S, estimate
from engine.catalog.memory import estimate_bytes
from engine.catalog.specs import MicroSpec, TrainSpec


def ok(**fields):
    return {"status": "ok", "device": "cpu", **fields}


def test_matmul_uses_the_median_of_recent_measured_runs():
    spec = MicroSpec(m=1000, n=1000, k=1000, repeats=8, warmup=2)
    rows = [ok(kind="matmul", dtype="float32", gflops=g) for g in (10.0, 20.0, 30.0)]
    rows.append(ok(kind="matmul", dtype="float16", gflops=1.0))  # another dtype: not this host's speed for it
    est = estimate(spec, rows, peak_gflops=1000.0)
    assert est.seconds == pytest.approx(STARTUP_S + 2e9 * 10 / 20e9)
    assert "median 20.0 GFLOP/s of the last 3 matmul run(s)" in est.basis
    assert est.memory_bytes == estimate_bytes(spec)  # the same memory rule launch checks


def test_without_a_measured_run_the_peak_times_the_stated_efficiency():
    spec = MicroSpec(m=30_000, n=30_000, k=30_000, timeout_s=600)
    est = estimate(spec, [], peak_gflops=100.0)
    assert est.seconds == pytest.approx(STARTUP_S + 2 * 30_000**3 * 12 / (100e9 * ASSUMED_EFFICIENCY))
    assert est.over_timeout and f"{ASSUMED_EFFICIENCY:.0%} of its peak" in est.basis


def test_training_needs_a_measured_run_of_the_same_model():
    spec = TrainSpec(model="fashion_cnn", batch_size=64, epochs=2, steps_per_epoch=5)
    assert estimate(spec, [ok(kind="train", model="tiny_cnn", examples_per_sec=100.0)], None).seconds is None
    rows = [ok(kind="train", model="fashion_cnn", examples_per_sec=160.0, time_to_first_step_s=2.0)]
    est = estimate(spec, rows, None)
    assert est.seconds == pytest.approx(STARTUP_S + 2.0 + 64 * 2 * 5 / 160)
    assert est.memory_bytes == estimate_bytes(spec) and not est.over_timeout
