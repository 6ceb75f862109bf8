"""The input-bound rule (issue 38): one function labels every run, and its text says what it does."""

from __future__ import annotations

import pytest

from engine.catalog.input_bound import BOUND_RULE_TEXT, BOUNDS, classify_bound, wait_pct


@pytest.mark.parametrize(
    ("train", "input_", "step", "wait", "expected"),
    [
        (44.0, None, 44.0, None, "compute"),  # synthetic data: no pipeline
        (35.0, 496.0, 44.0, 2.0, "compute"),  # the flowers run: pipeline 11x the step
        (20.0, 25.0, 60.0, 55.0, "input"),  # large JPEGs, one worker
        (40.0, 38.0, 44.0, 5.0, "input"),  # the pipeline alone under 0.9x the step alone
        (30.0, 200.0, 60.0, 30.0, "input"),  # fast alone, but the step waited: cores shared
        (40.0, 46.0, 44.0, 5.0, "balanced"),  # within ±10%
        (40.0, 200.0, 44.0, 15.0, "balanced"),  # room in the rates, some waiting
        (40.0, 100.0, None, None, "compute"),  # no step alone: the training rate stands in
        (40.0, 41.0, None, None, "balanced"),
    ],
)
def test_classify_bound(train, input_, step, wait, expected):
    assert classify_bound(train, input_, step, wait) == expected
    assert expected in BOUNDS


@pytest.mark.parametrize(
    ("input_", "wait", "expected"),
    [  # the thresholds pinned at their edges (issue 45): moving 10 % or 25 % (or 0.9x / 1.1x) fails here
        (200.0, 9.9, "compute"),
        (200.0, 10.0, "balanced"),
        (200.0, 24.9, "balanced"),
        (200.0, 25.0, "input"),
        (89.9, None, "input"),  # step alone 100: under 0.9x
        (90.0, None, "balanced"),
        (110.0, None, "balanced"),
        (110.1, None, "compute"),  # over 1.1x
    ],
)
def test_every_threshold_at_its_edge(input_, wait, expected):
    assert classify_bound(50.0, input_, 100.0, wait) == expected


def test_the_rule_text_states_every_threshold():
    for fragment in ("0.9x", "1.1x", "25%", "10%", "Synthetic data: 'compute'"):
        assert fragment in BOUND_RULE_TEXT


def test_wait_pct_is_a_share_of_the_whole_step():
    assert wait_pct(1.0, 4.0) == 25.0
    assert wait_pct(0.0, 0.0) == 0.0
    assert wait_pct(5.0, 4.0) == 100.0  # clock noise never gives more than the whole step
