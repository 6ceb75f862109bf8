"""Step-time statistics: median and 10th/90th percentiles in ms, interpolated linearly between ranks."""

from __future__ import annotations

import math

from engine.worker.stats import summarize_ms


def test_percentiles_interpolate_between_ranks_and_report_milliseconds():
    got = summarize_ms([i / 1000 for i in range(1, 11)])  # 1 … 10 ms
    assert math.isclose(got["step_time_ms_median"], 5.5)
    assert math.isclose(got["step_time_ms_p10"], 1.9)
    assert math.isclose(got["step_time_ms_p90"], 9.1)


def test_one_time_is_every_percentile_and_no_times_are_not_a_number():
    assert set(summarize_ms([0.002]).values()) == {2.0}
    assert all(math.isnan(v) for v in summarize_ms([]).values())
