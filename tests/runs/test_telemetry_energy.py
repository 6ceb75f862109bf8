"""Energy, power, thermal and cost figures from recorded NVML/RAPL-shaped samples written here."""

from __future__ import annotations

import math

import pytest

from engine.catalog.prices import default_price, load_prices
from engine.runs.energy_row import AppliedPrice, applied_price, cost_columns, energy_columns
from engine.runs.telemetry import (
    NOT_MEASURABLE,
    NVML_COUNTER,
    NVML_POWER,
    RAPL,
    counter_delta,
    power_integral,
    steady_energy,
    steady_window,
    thermal_notes,
    unwrap,
)

T0 = 1_700_000_000.0


def gpu_samples(watts=(100.0, 200.0, 200.0, 100.0), dt=0.5, counter=True):
    """A GPU whose power steps 100→200→200→100 W; its counter (mJ) is the exact trapezoid integral."""
    out, mj = [], 5_000_000.0
    for i, w in enumerate(watts):
        if i:
            mj += (watts[i - 1] + w) / 2 * dt * 1000
        s = {"t": T0 + i * dt, "gpu0_power_w": w, "gpu0_temp_c": 60.0}
        if counter:
            s["gpu0_energy_mj"] = mj
        out.append(s)
    return out


def test_power_integral_is_the_trapezoid_in_joules():
    joules, seconds = power_integral(gpu_samples(), "gpu0_power_w", (T0, T0 + 1.5))
    assert seconds == pytest.approx(1.5)
    assert joules == pytest.approx(75 + 100 + 75)  # (100+200)/2·0.5 + 200·0.5 + (200+100)/2·0.5


def test_window_edges_are_interpolated():
    joules, seconds = power_integral(gpu_samples(), "gpu0_power_w", (T0 + 0.25, T0 + 1.0))
    # 0.25 s from 150 W to 200 W, then 0.5 s at 200 W
    assert seconds == pytest.approx(0.75)
    assert joules == pytest.approx((150 + 200) / 2 * 0.25 + 100)


def test_nvml_counter_is_preferred_and_in_joules():
    e = steady_energy(gpu_samples(), (T0, T0 + 1.5), "gpu")
    assert e.source == NVML_COUNTER
    assert e.energy_j == pytest.approx(250.0)  # mJ → J
    assert e.avg_power_w == pytest.approx(250 / 1.5)


def test_power_integral_when_no_counter():
    e = steady_energy(gpu_samples(counter=False), (T0, T0 + 1.5), "gpu")
    assert e.source == NVML_POWER and e.energy_j == pytest.approx(250.0)


def test_rapl_counter_wraparound_is_undone():
    max_uj = 262_143_328_850
    vals = [max_uj - 30_000_000, max_uj - 10_000_000, 10_000_000, 30_000_000]  # wraps between 2nd and 3rd
    assert unwrap(vals, max_uj)[2] - unwrap(vals, max_uj)[1] == 20_000_000
    samples = [{"t": T0 + i, "rapl_package-0_uj": v, "rapl_dram_uj": 1_000_000 * i} for i, v in enumerate(vals)]
    e = steady_energy(samples, (T0, T0 + 3), "cpu", {"rapl_max_uj": {"rapl_package-0_uj": max_uj}})
    assert e.source == RAPL
    assert e.energy_j == pytest.approx(60.0 + 3.0)  # package 60 J + DRAM 3 J
    assert e.avg_power_w == pytest.approx(21.0)
    assert "package-0" in e.what and "dram" in e.what


def test_counter_without_max_range_is_left_as_read():
    got = counter_delta([{"t": T0, "c": 10}, {"t": T0 + 1, "c": 30}], "c", (T0 - 5, T0 + 5))
    assert got == (20, 1.0)  # the window is clipped to what was sampled


def test_not_measurable_without_counters_or_power():
    host_only = [{"t": T0 + i, "cpu_pct": 90.0, "rss_mb": 300.0} for i in range(4)]
    assert steady_energy(host_only, (T0, T0 + 3), "cpu").source == NOT_MEASURABLE
    assert steady_energy(host_only, (T0, T0 + 3), "gpu").source == NOT_MEASURABLE
    assert steady_energy([], (T0, T0 + 3), "cpu").source == NOT_MEASURABLE
    assert steady_energy(host_only, None, "cpu").source == NOT_MEASURABLE
    assert steady_energy(host_only[:1], (T0, T0 + 3), "cpu").energy_j is None


def test_energy_columns_measured_per_example_and_per_watt():
    row = {"examples_per_sec": 1000.0, "gflops": 500.0}
    cols, notes = energy_columns(gpu_samples(), {}, (T0, T0 + 1.5), row, "gpu", tdp_w=700)
    watts = 250 / 1.5
    assert cols["energy_source"] == NVML_COUNTER
    assert cols["joules_per_example"] == pytest.approx(watts / 1000)
    assert cols["examples_per_joule"] == pytest.approx(1000 / watts)
    assert cols["gflops_per_watt"] == pytest.approx(500 / watts)
    assert cols["energy_tdp_estimate_j"] == pytest.approx(700 * 1.5)
    assert any("ESTIMATE, not measured" in n for n in notes)


def test_energy_columns_not_measurable_gives_no_energy_even_with_a_tdp():
    host = [{"t": T0 + i, "cpu_pct": 50.0} for i in range(4)]
    cols, notes = energy_columns(host, {}, (T0, T0 + 3), {"examples_per_sec": 10.0}, "gpu", tdp_w=70)
    assert cols["energy_source"] == NOT_MEASURABLE
    assert not {"energy_j", "avg_power_w", "joules_per_example", "examples_per_joule"} & set(cols)
    assert cols["energy_tdp_estimate_j"] == pytest.approx(210)  # labelled, in its own column
    assert any(NOT_MEASURABLE in n for n in notes)


def test_thermal_notes_power_limit_hot_gpu_and_slow_cpu():
    samples = [{"t": T0 + i, "gpu0_power_w": 69.5, "gpu0_temp_c": 88.0, "cpu_mhz": 1200.0} for i in range(4)]
    meta = {"gpu_power_limit_w": {"gpu0": 70.0}, "gpu_slowdown_c": {"gpu0": 90.0}, "cpu_base_mhz": 2000.0}
    notes = " | ".join(thermal_notes(samples, (T0, T0 + 3), meta))
    assert "power limit" in notes and "ran hot" in notes and "below its base clock" in notes
    assert thermal_notes(gpu_samples(), (T0, T0 + 1.5), {"gpu_power_limit_w": {"gpu0": 400.0}}) == []
    throttled = [{**s, "gpu0_throttle": 0x04 | 0x01} for s in gpu_samples()]
    (note,) = thermal_notes(throttled, (T0, T0 + 1.5), {})
    assert "software power cap" in note and "thermal" not in note
    outside = thermal_notes(throttled, (T0 + 10, T0 + 11), {})  # only the timed window counts
    assert outside == []


def test_steady_window_follows_the_step_clock_rule():
    steps = [{"epoch": 1, "step": i + 1, "step_time_ms": 100.0} for i in range(10)]
    times = [T0 + 0.1 * (i + 1) for i in range(10)]
    w = steady_window({"step": steps}, {"step": times})
    assert w == (pytest.approx(T0 + 0.1), pytest.approx(T0 + 1.0))  # first ⌈10/10⌉ = 1 step is warm-up
    two = [{"epoch": 1 + i // 5, "step_time_ms": 100.0} for i in range(10)]
    assert steady_window({"step": two}, {"step": times})[0] == pytest.approx(T0 + 0.5)
    reps = [{"repeat": i + 1, "time_ms": 200.0} for i in range(3)]
    assert steady_window({"repeat": reps}, {"repeat": [T0 + 1, T0 + 1.2, T0 + 1.4]})[0] == pytest.approx(T0 + 0.8)
    assert steady_window({}, {}) is None


def test_cost_user_price_wins_and_is_named():
    price = applied_price(2.0, 6.5, "table row", 1)
    assert price == AppliedPrice(2.0, "user: price per hour given with the run")
    cols = cost_columns({"examples_per_sec": 1000.0, "total_s": 36.0}, price, wall_s=99.0)
    assert cols["cost_usd"] == pytest.approx(0.02)
    assert cols["cost_usd_per_million_examples"] == pytest.approx(2.0 / 3600 * 1000)  # 1000 s per million
    assert cost_columns({}, None, 1.0) == {}
    epoch = cost_columns({"examples_per_sec": 1000.0}, price, wall_s=1.0, epoch_examples=60_000)
    assert epoch["cost_usd_per_epoch"] == pytest.approx(2.0 / 3600 * 60)  # 60 s per 60,000-example epoch


def test_table_price_times_units_says_which_row():
    price = applied_price(None, 3.06, "AWS V100", 4)
    assert price is not None and price.usd_per_hour == pytest.approx(12.24) and "× 4" in price.source


def test_price_table_has_both_seed_tpu_prices_with_dates_and_one_default():
    tpu = [p for p in load_prices() if p.hardware_key == "tpu_v2_8"]
    assert {p.usd_per_hour for p in tpu} == {6.5, 4.5}
    assert all(p.date and p.source for p in tpu)
    chosen = default_price("tpu_v2_8")
    assert chosen is not None and chosen.usd_per_hour == 6.5 and "2018-02" in chosen.label()
    assert default_price("cpu") is None
    assert all(math.isfinite(p.usd_per_hour) and p.usd_per_hour > 0 for p in load_prices())
