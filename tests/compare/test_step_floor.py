"""An estimate never claims a step shorter than the fastest training step AccelBench measured on an accelerator:
a small user model at batch 8 gets "up to about N×" bound by per-step overhead, not a FLOP/s roofline that
promised millions of examples per second."""

from __future__ import annotations

import dataclasses

import pytest

from engine.compare.estimate.estimate import Estimate
from engine.compare.estimate.step_floor import capped, step_floor
from engine.compare.facts import likeforlike as lfl
from engine.compare.picks import default_rows
from engine.reference.data import load_reference


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def test_the_floor_is_the_fastest_accelbench_training_step_in_the_reference_table(ref):
    floor = step_floor(ref)
    assert floor is not None
    packed = ref[(ref["source_kind"] == "accelbench") & (ref["task"] == "training")]
    steps = [float(b) / float(v) for b, v in zip(packed["batch_size"], packed["value"], strict=True)]
    assert floor.step_s == pytest.approx(min(steps))
    assert "reuters_conv1d" in floor.label and "256" in floor.label  # 1.4 ms on the 2026-11-23 H100 pack
    assert step_floor(ref[ref["source_kind"] != "accelbench"]) is None  # no measured step: no floor, no cap


def _estimate(value: float, low: float, high: float) -> Estimate:
    return Estimate("m", "h100", "float32", value, low, high, "roofline", True, None, (), "Rough estimate: …")


def test_an_estimate_under_the_ceiling_is_unchanged_and_one_over_it_is_held_there(ref):
    floor = step_floor(ref)
    assert floor is not None
    ceiling = 64 / floor.step_s
    under = _estimate(ceiling / 4, ceiling / 8, ceiling / 2)
    assert capped(under, 64, floor) is under
    assert capped(under, None, floor) is under and capped(under, 64, None) is under
    over = capped(_estimate(ceiling * 100, ceiling / 2, ceiling * 1000), 64, floor)
    assert over.capped and over.rough
    assert over.examples_per_sec == pytest.approx(ceiling) and over.high == pytest.approx(ceiling)
    assert over.low == pytest.approx(ceiling / 2)  # the part of the range under the ceiling stays
    assert "per-step overhead" in over.how and "reuters_conv1d" in over.how


def _run(model: str, batch: int, eps: float, gflops_per_example: float) -> dict:
    return {
        "run_id": "20261125-000000-abcdef", "kind": "train", "model": model, "dataset": "synthetic",
        "device": "cpu", "backend": "jax", "precision": "float32", "global_batch_size": batch, "epochs": 1,
        "steps_per_epoch": 20, "examples_per_sec": eps, "step_time_ms_median": batch / eps * 1000,
        "gflops": gflops_per_example * eps, "replicas": 1,
    }  # fmt: skip


def test_a_tiny_user_model_on_an_h100_is_up_to_batch_over_the_floor(ref):
    base = lfl.rate_of_run(_run("two_input_net", 8, 5000.0, 1.7e-4))
    assert base is not None
    (row,) = default_rows(base, ref, device="h100")
    floor = step_floor(ref)
    assert floor is not None
    assert row.basis == "estimate" and row.bound == "at most"
    assert row.value == pytest.approx(8 / floor.step_s)
    assert row.value / base.value < 10  # not the roofline's ~100,000×


def test_a_big_model_at_a_big_batch_is_not_capped(ref):
    # 12 GFLOP per example (ResNet-50-sized) at batch 256: the roofline is far under 256 ÷ 1.4 ms
    base = lfl.rate_of_run(_run("my_big_net", 256, 20.0, 12.3))
    assert base is not None
    (row,) = default_rows(base, ref, device="h100")
    assert row.basis == "estimate" and row.bound == "about" and "per-step overhead" not in row.how
    assert dataclasses.asdict(row)["high"] < 256 / step_floor(ref).step_s  # type: ignore[union-attr]
