"""A model with no figure anywhere (engine.compare.estimate.no_figure): modelled at the run's batch with the fit's
per-step overhead, and no estimate for a stand-in model (its units are another model's). Fitted on the real
reference table."""

from __future__ import annotations

import pytest

from engine.compare.estimate import step_fit, step_model
from engine.compare.estimate.estimate import estimate, fit_figures, group_points, points_from_reference
from engine.compare.estimate.no_figure import level_rate
from engine.compare.facts.workload import model_kind


@pytest.fixture(scope="module")
def groups(ref):
    return group_points(points_from_reference(ref))


@pytest.fixture(scope="module")
def fit(groups):
    got = step_fit.fit(fit_figures(groups))
    assert got is not None and got.overhead_s > 0  # the figures themselves choose a per-step overhead
    return got


def test_a_small_model_at_a_small_batch_is_overhead_bound(fit):
    cost = step_model.cost_of("tiny_cnn", None, model_kind("tiny_cnn"))
    assert cost is not None
    roof, *_ = level_rate(cost, fit, "h100", "float32", model_kind("tiny_cnn"), None)
    at_32, *_ = level_rate(cost, fit, "h100", "float32", model_kind("tiny_cnn"), 32)
    at_4096, *_ = level_rate(cost, fit, "h100", "float32", model_kind("tiny_cnn"), 4096)
    # the overhead caps a step's rate at batch ÷ overhead; at a large batch it matters far less
    assert at_32 < 32 / fit.overhead_s and at_32 < at_4096 < roof
    assert at_4096 / roof > 10 * at_32 / roof


def test_a_stand_in_model_with_no_figure_gets_no_estimate(groups, fit):
    stand_in = next(m for m, _, _ in groups if (c := step_model.cost_of(m, None, model_kind(m))) and c.stand_in)
    cost = step_model.cost_of(stand_in, None, model_kind(stand_in))
    assert level_rate(cost, fit, "h100", "mixed", model_kind(stand_in), 256) is None
    # with its own figures gone, the estimator says nothing rather than the kind's level in another model's units
    without = {k: g for k, g in groups.items() if k[0] != stand_in}
    assert estimate(stand_in, "b200", "mixed", without) is None
