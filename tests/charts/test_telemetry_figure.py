"""The Run page's telemetry figure and the samples' CSV, from samples written here."""

from __future__ import annotations

import pytest

from engine.charts.base import is_empty
from engine.charts.telemetry import rapl_power, telemetry_figure

T0 = 1_700_000_000.0


def test_panels_share_one_time_axis_and_the_warm_up_is_shaded():
    samples = [
        {"t": T0 + i, "cpu_pct": 50.0 + i, "rss_mb": 300.0, "gpu0_power_w": 100.0 + i, "gpu0_util_pct": 90.0}
        for i in range(5)
    ]
    fig = telemetry_figure(samples, (T0 + 2, T0 + 4))
    names = {t.name for t in fig.data}
    assert {"host CPU", "worker RSS", "gpu0 power w", "gpu0 util pct"} <= names
    assert all(t.x[0] == 0 for t in fig.data)  # seconds since the first sample
    shapes = [s for s in fig.layout.shapes if s.type == "rect"]
    assert shapes and shapes[0].x0 == 0 and shapes[0].x1 == pytest.approx(2)


def test_rapl_power_from_counter_steps_skips_a_wrap():
    samples = [{"t": T0 + i, "rapl_package-0_uj": v} for i, v in enumerate((0, 10_000_000, 30_000_000, 5))]
    ts, ws = rapl_power(samples)["RAPL package-0"]
    assert ws == pytest.approx([10.0, 20.0]) and ts == pytest.approx([T0 + 0.5, T0 + 1.5])


def test_too_few_samples_is_an_empty_figure_that_says_so():
    assert "No telemetry" in is_empty(telemetry_figure([{"t": T0, "cpu_pct": 1.0}]))


def test_samples_csv_has_every_key():
    from ui.run_telemetry import samples_csv

    text = samples_csv([{"t": T0, "cpu_pct": 1.0}, {"t": T0 + 1, "cpu_pct": 2.0, "gpu0_power_w": 70.0}])
    lines = text.strip().splitlines()
    assert lines[0] == "t,cpu_pct,gpu0_power_w" and len(lines) == 3
