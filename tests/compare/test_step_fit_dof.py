"""The step fit's range is read from residuals scaled for the parameters fitted on them (step_fit._dof_scale): an
in-sample residual understates a new figure's error, the more the fewer figures each parameter has — the launches'
fits (9–50 figures) held 71–79 % of their figures in a 90 % band before the scaling, 81–86 % after (BENCHMARKS.md,
eighth round)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.compare.estimate import estimate as est
from engine.compare.estimate import launch_check as lc
from engine.compare.estimate import path_check as pc
from engine.compare.estimate import step_fit
from engine.reference.data import load_reference


@pytest.fixture(scope="module")
def table():
    ref = load_reference()
    return est.points_from_reference(ref), pc.training_rates(ref)


def _figures(points):
    return est.fit_figures(est.group_points(est.without_pipeline_bound(points)))


def _raw_residuals(figures) -> list[float]:
    d = step_fit._data(figures)
    p = step_fit._optimise(d)
    modelled = step_fit._log_rates(d, p)
    return step_fit._residuals(d, d.log_true - modelled, modelled)


def test_the_scale_counts_the_residuals_and_the_parameters(table):
    points, _ = table
    d = step_fit._data(_figures(points))
    m = len(d.rows) - len(d.models)  # a residual is a difference within one model: its level cancels
    q = step_fit.SHARED_PARAMETERS + len(d.spoken)  # each freed silicon's penalised factor pair counts as one
    assert m > q + 1
    assert step_fit._dof_scale(d) == pytest.approx(math.sqrt(m / (m - q)))
    assert 1.0 < step_fit._dof_scale(d) < 1.3  # many figures per parameter: a small correction


def test_a_launch_fit_on_few_figures_states_a_wider_band_than_its_raw_residuals(table):
    points, rates = table
    years = lc.point_years(rates)
    whole, before_2024 = _figures(points), _figures([p for p in points if years.get(p, 2099) < 2024])
    assert len(before_2024) < len(whole) / 2
    for figures in (whole, before_2024):
        fit = step_fit.fit(figures)
        assert fit is not None
        scale = step_fit._dof_scale(step_fit._data(figures))
        assert np.allclose(fit.residuals, [r * scale for r in _raw_residuals(figures)])
    assert step_fit._dof_scale(step_fit._data(before_2024)) > step_fit._dof_scale(step_fit._data(whole))
    raw, scaled = step_fit.band(_raw_residuals(before_2024)), step_fit.band(step_fit.fit(before_2024).residuals)
    assert scaled[0] < raw[0] and scaled[1] > raw[1]


def test_a_saturated_fit_keeps_one_degree_of_freedom(table):
    points, rates = table
    years = lc.point_years(rates)
    early = step_fit._data(_figures([p for p in points if years.get(p, 2099) < 2021]))
    m, q = len(early.rows) - len(early.models), step_fit.SHARED_PARAMETERS + len(early.spoken)
    assert 0 < m <= q + 1  # as many parameters as residuals: they say nothing of the error by themselves
    assert step_fit._dof_scale(early) == pytest.approx(math.sqrt(m))
