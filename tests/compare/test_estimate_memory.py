"""The memory-aware step model on the real reference figures and the real XLA cost table: a memory-bound model
gains less than the FLOP/s ratio, silicon siblings share efficiencies, ranges come from the fit's residuals,
and the device-left-out check holds out every figure of a device and reports the issue's JSON shape."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.compare.estimate import estimate as est
from engine.compare.estimate import estimate_check as chk
from engine.compare.estimate import step_fit, step_model
from engine.compare.facts import model_costs, silicon
from engine.compare.facts.model_flops import TRAIN_FLOPS
from engine.reference.data import load_reference

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_estimates  # noqa: E402


@pytest.fixture(scope="module")
def points():
    return est.points_from_reference(load_reference())


@pytest.fixture(scope="module")
def fitted(points):
    got = step_fit.fit(est.fit_figures(est.group_points(points)))
    assert got is not None
    return got


def test_the_cost_table_agrees_with_the_layer_counter_and_covers_every_figure(points):
    # XLA's count of a ResNet-50 and a BERT-base training step against the worker's layer counter: within 15 %
    for m in ("resnet50", "bert_base", "gpt2_small"):
        assert model_costs.COSTS[m][3] == pytest.approx(TRAIN_FLOPS[m][1], rel=0.15)
    # every model with a published or measured figure has a cost: traced, scaled by tokens, or a named stand-in
    assert all(step_model.cost_of(p.model) is not None for p in points)
    assert step_model.cost_of("ssd").how == "op mix of resnet50"  # type: ignore[union-attr]


def _speedup(model: str, new: str, old: str, fit: step_fit.Fit, pc: str = "mixed") -> float:
    cost = step_model.cost_of(model)
    assert cost is not None
    t_old, t_new = (step_model.step_seconds(cost, k, pc, fit.e_c[pc], fit.e_m) for k in (old, new))
    assert t_old and t_new
    return t_old / t_new


def _flops_ratio(new: str, old: str, pc: str = "mixed") -> float:
    return silicon.peak_flops(new, pc) / silicon.peak_flops(old, pc)  # type: ignore[operator]


def test_a_memory_bound_model_gains_less_than_the_flops_ratio(fitted):
    # at the same efficiencies, ResNet-50 at mixed precision mostly waits on memory. An L40S has more half-
    # precision FLOP/s than an A100 (362 against 312 TFLOP/s) and 56 % of its bandwidth: the model says slower
    cost = step_model.cost_of("resnet50")
    assert cost is not None and step_model.bound_share(cost, "a100", "mixed", fitted.e_c["mixed"], fitted.e_m) > 0.5
    assert _flops_ratio("l40s", "a100") > 1 > _speedup("resnet50", "l40s", "a100", fitted)
    # an H200 has the H100's die and FLOP/s and 1.43× its bandwidth: a memory-bound model gains, by at most that
    assert _flops_ratio("h200", "h100") == 1 and 1.2 < _speedup("resnet50", "h200", "h100", fitted) <= 4800 / 3350
    # a B200's bandwidth grew with its FLOP/s (7.7 against 3.35 TB/s: 2.30×; 2,250 against 989 TFLOP/s: 2.27×), so
    # here the model cannot put it nearer an H100 than the datasheet does
    assert _speedup("resnet50", "b200", "h100", fitted) == pytest.approx(7700 / 3350, rel=0.05)
    # a compute-heavier transformer loses less than the convnet on the L40S
    assert _speedup("bert_large@384", "l40s", "a100", fitted) > _speedup("resnet50", "l40s", "a100", fitted)


def test_the_h200_borrows_the_h100s_efficiency(points):
    no_h200 = [p for p in points if p.hardware_key != "h200"]
    fit = step_fit.fit(est.fit_figures(est.group_points(no_h200)))
    assert fit is not None and fit.borrowed_from("h200") == "gh100" == fit.borrowed_from("h100")
    for pc in ("float32", "mixed"):
        (c200, m200), (c100, m100) = fit.efficiencies("h200", pc), fit.efficiencies("h100", pc)
        # one die, one peak: one compute efficiency; the bandwidth's differs only by the size trend (4.8 ÷ 3.35 TB/s)
        assert c200 == c100 and m200 < 1 and m100 < 1
        assert m200 / m100 == pytest.approx((4800 / 3350) ** fit.trend[2])
    e = est.estimate("resnet50", "h200", "mixed", no_h200)
    assert e is not None and e.method == "memory-aware" and e.anchor is not None
    assert "(the factors of its gh100 silicon)" in e.how
    if e.anchor.hardware_key == "h100":  # same die and peaks: only the bandwidth differs (4.8 against 3.35 TB/s)
        assert 1 < e.examples_per_sec / e.anchor.examples_per_sec <= 4800 / 3350 + 1e-9


def test_the_range_comes_from_the_fits_residuals(points, fitted):
    no_h200 = [p for p in points if p.hardware_key != "h200"]
    e = est.estimate("resnet50", "h200", "mixed", no_h200)
    fit = step_fit.fit(est.fit_figures(est.group_points(est.without_pipeline_bound(no_h200))))
    assert e is not None and fit is not None and len(fit.residuals) >= 5
    down, up = step_fit.band(fit.residuals)
    assert (e.low, e.high) == pytest.approx((e.examples_per_sec * down, e.examples_per_sec * up))
    # one plain sentence: what was multiplied by what
    assert e.how.startswith("Estimate (memory-aware): resnet50 on ") and " × " in e.how and ". " not in e.how


def test_leave_device_out_holds_out_every_figure_and_prints_the_json_shape(points):
    ldo = chk.leave_device_out(points)
    assert ldo and all(len({p.model for p, _ in pairs}) >= 1 for pairs in ldo.values())
    for device, pairs in ldo.items():
        for p, e in pairs:
            assert p.hardware_key == device and e.hardware_key == device and e.method == "memory-aware"
            assert e.anchor is None or e.anchor.hardware_key != device  # nothing of the held-out device is used
    out = bench_estimates.as_json(chk.leave_one_out(points[:0]), ldo)
    assert set(out) == {"leave_device_out", "leave_one_out"}
    left = out["leave_device_out"]
    assert {"points", "median_abs_error_pct", "coverage_pct", "median_width", "by_device"} <= set(left)
    assert left["points"] == sum(len(v) for v in ldo.values()) and set(left["by_device"]) <= set(ldo)
    assert set(next(iter(left["by_device"].values()))) == {
        "points",
        "median_abs_error_pct",
        "coverage_pct",
        "median_width",
    }
