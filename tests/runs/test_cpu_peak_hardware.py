"""The CPU peak's clock: the maximum the cores reach where the OS says, else a base clock marked a floor
(a real run's share of it: tests/worker/test_backend_runs.py)."""

from __future__ import annotations

from engine.runs import hardware
from engine.runs.hardware import CLOCK_BASE_NAME, CLOCK_CURRENT, CLOCK_MAX, pick_clock


def test_the_cpufreq_maximum_wins_over_a_base_clock():
    assert pick_clock(3900.0, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", 2500.0) == (3.9, CLOCK_MAX)


def test_without_a_maximum_the_base_clock_of_the_model_name_then_the_current_clock():
    assert pick_clock(0.0, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", 1200.0) == (2.5, CLOCK_BASE_NAME)
    assert pick_clock(0.0, "Intel(R) Xeon(R) Processor", 2600.0) == (2.6, CLOCK_CURRENT)
    assert pick_clock(0.0, "", 0.0) == (0.0, "")


def test_this_machines_cpu_says_whether_its_peak_is_a_floor():
    cpu = hardware.cpu_info()
    assert cpu.clock_basis in (CLOCK_MAX, CLOCK_BASE_NAME, CLOCK_CURRENT, "")
    assert cpu.peak_is_floor == (cpu.clock_basis != CLOCK_MAX)
    assert cpu.peak_gflops_fp32 == round(cpu.cores * cpu.clock_ghz * cpu.flops_per_cycle_fp32, 1)
