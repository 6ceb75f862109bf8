"""A new-silicon estimate whose peak or bandwidth lies beyond every fitted device's says so in its range
(engine.compare.estimate.extrapolation), with the stretch chosen on the launches before the chip
(silicon_check.stretch_before)."""

from __future__ import annotations

import math

import pytest

from engine.compare.estimate import estimate as est
from engine.compare.estimate import extrapolation, step_fit, step_model
from engine.compare.estimate import silicon_check as sc
from engine.compare.estimate.extrapolation import EXTRAPOLATION_C, anchor_efficiencies, beyond
from engine.compare.estimate.launch_check import launch_stretched
from engine.compare.facts.silicon import DEVICES, silicon
from engine.reference.data import load_reference


def test_the_distance_beyond_the_fitted_span_is_the_larger_of_peak_and_bandwidth():
    b200, h100 = DEVICES["b200"], DEVICES["h100"]
    far = max(math.log(b200.peak_flops["mixed"] / h100.peak_flops["mixed"]), math.log(b200.bandwidth / h100.bandwidth))  # type: ignore[operator]
    assert beyond("b200", "mixed", {"h100", "a100"}) == pytest.approx(far) and far > 0.8
    assert beyond("h100", "mixed", {"b200", "a100"}) == 0.0  # inside the span: no extrapolation
    # an H200 from the H100: the same peak, more bandwidth — beyond by the bandwidth alone
    assert beyond("h200", "mixed", {"h100"}) == pytest.approx(math.log(4800 / 3350))


def test_an_estimate_beyond_the_span_carries_the_stretch(monkeypatch):
    # the mechanism checked at a c of its own (EXTRAPOLATION_C is the data's choice)
    c = 0.3
    monkeypatch.setattr(extrapolation, "EXTRAPOLATION_C", c)
    monkeypatch.setattr(sc, "EXTRAPOLATION_C", c)
    points = est.points_from_reference(load_reference())
    no_gb100 = [p for p in points if silicon(p.hardware_key) != "gb100"]
    e = est.estimate("resnet50", "b200", "mixed", no_gb100)
    assert e is not None and e.method == "memory-aware" and e.beyond > 0.8
    fit = step_fit.fit(est.fit_figures(est.group_points(est.without_pipeline_bound(no_gb100))))
    down, up = step_fit.band(fit.residuals)  # type: ignore[union-attr]
    widened = step_fit.NEW_SILICON_WIDENING * math.log(up / down)
    assert math.log(e.high / e.low) == pytest.approx(widened + 2 * c * e.beyond)
    # raw() takes both off: the fit's own band
    ((_, r),) = sc.raw([(points[0], e)])
    assert math.log(r.high / r.low) == pytest.approx(math.log(up / down))


def _pair(key: str, true: float, value: float, spread: float, far: float) -> tuple[est.Point, est.Estimate]:
    p = est.Point("m", key, "mixed", true, "published", "S", key)
    e = est.Estimate("m", key, "mixed", value, value / spread, value * spread, "memory-aware", False, None, (), "",
                     beyond=far)  # fmt: skip
    return p, sc.at(e, step_fit.NEW_SILICON_WIDENING, EXTRAPOLATION_C)  # as an estimate states it


def test_the_stretch_is_chosen_on_the_launches_before_the_chip():
    # a100's launch estimates miss by 1.6× (a 1.2× band, 1.0 beyond): they need c with 1.2^w·e^c ≥ 1.6; the b200's
    # launch misses by 3× — it must stretch no range of its own or of a chip out before it; h100 lies within the span
    by_device = {"a100": [_pair("a100", 100, 160, 1.2, 1.0)] * 4, "b200": [_pair("b200", 100, 300, 1.2, 1.0)] * 2,
                 "h100": [_pair("h100", 100, 105, 1.2, 0.0)] * 4}  # fmt: skip
    firsts = {"a100": 2020, "h100": 2023, "b200": 2024}
    nested = sc.nested_band(by_device, by_device, firsts)
    need = min(
        c for c in (0.1 * i for i in range(16)) if 1.2 ** nested.widening_by_silicon["gb100"] * math.exp(c) >= 1.6
    )
    assert nested.stretch_by_silicon["gb100"] == pytest.approx(round(need, 1))  # from the A100's launch
    assert nested.stretch_by_silicon["ga100"] == 0.0  # no launch before the A100: nothing to choose on
    held = {p.hardware_key: e.low <= p.examples_per_sec <= e.high for p, e in nested.pairs}
    assert held == {"a100": False, "b200": False, "h100": True}
    assert sc.chosen_stretch(sc.raw(by_device["h100"]), 1.0) == 0.0  # nothing beyond: no stretch
    # the in-use choice sees every launch, the b200's too: wider than the one before 2024
    assert sc.stretch_before(by_device, firsts, 10_000, 1.0) > sc.stretch_before(by_device, firsts, 2024, 1.0)
    # a date cut's pairs take the c chosen on the launches before them, not the one in use
    ((_, got),) = launch_stretched({"b200": by_device["b200"][:1]}, by_device, firsts)["b200"]
    c = sc.stretch_before(by_device, firsts, 2024, step_fit.NEW_SILICON_WIDENING)
    assert c > 0 and math.log(got.high / got.low) == pytest.approx(
        step_fit.NEW_SILICON_WIDENING * 2 * math.log(1.2) + 2 * c
    )


def test_a_chip_beyond_the_span_takes_the_factors_of_the_silicon_it_is_scaled_from():
    def on(key: str) -> est.Point:
        return est.Point("m", key, "mixed", 1.0, "published", "S", key)

    factors, own = {"gh100": (0.9, 0.73)}, (0.3, 0.5)
    at = anchor_efficiencies("b200", "mixed", {"h100", "a100"}, factors, own, [on("h100"), on("a100")])
    assert at["h100"] == pytest.approx((0.3 * 0.9, 0.5 * 0.73))
    assert at["a100"] == own  # the anchor's silicon has no factors: the target's own
    # inside the span (a B200 beside it), or a target with factors of its own: its own efficiencies
    assert anchor_efficiencies("h100", "mixed", {"b200"}, {}, own, [on("b200")]) == {"b200": own}
    assert anchor_efficiencies("h200", "mixed", {"h100"}, factors, own, [on("h100")]) == {"h100": own}


def test_the_b200_from_the_figures_before_it_is_scaled_at_its_anchors_factors():
    points = est.points_from_reference(load_reference())
    no_gb100 = [p for p in points if silicon(p.hardware_key) != "gb100"]
    e = est.estimate("resnet50", "b200", "mixed", no_gb100)
    assert e is not None and e.anchor is not None and e.beyond > 0
    fit = step_fit.fit(est.fit_figures(est.group_points(est.without_pipeline_bound(no_gb100))))
    assert fit is not None and (seen := fit.borrowed_from(e.anchor.hardware_key))
    assert f"beyond every fitted device, at the factors of the {seen} silicon" in e.how
    a, cost = e.anchor, step_model.cost_of("resnet50", None, "image")
    ea = fit.efficiencies(a.hardware_key, "mixed")
    fc, fm = fit.factors[seen]
    # a share of peak or bandwidth above 1 is none a chip reaches: held at 1, as anchor_efficiencies holds it
    ed = (min(fit.efficiencies("b200", "mixed")[0] * fc, 1.0), min(fit.efficiencies("b200", "mixed")[1] * fm, 1.0))
    t_a = step_model.step_seconds(cost, a.hardware_key, "mixed", *ea, fit.overhead_s, a.batch)
    t_d = step_model.step_seconds(cost, "b200", "mixed", *ed, fit.overhead_s, a.batch)
    assert e.examples_per_sec == pytest.approx(a.examples_per_sec * t_a / t_d)
