"""The sampler thread (fake powercap tree written here) and a real tiny CPU worker run's telemetry."""

from __future__ import annotations

import time

import pytest
from conftest import last_json

from engine.runs.store import Store
from engine.runs.telemetry import NOT_MEASURABLE, RAPL, steady_energy
from engine.worker.telemetry import Sampler, rapl_zones


def _zone(root, name, label, uj, max_uj=1000):
    z = root / name
    z.mkdir(parents=True)
    (z / "name").write_text(label + "\n")
    (z / "energy_uj").write_text(f"{uj}\n")
    (z / "max_energy_range_uj").write_text(f"{max_uj}\n")
    return z


def test_rapl_zones_keep_package_and_dram_only(tmp_path):
    _zone(tmp_path, "intel-rapl:0", "package-0", 5)
    _zone(tmp_path, "intel-rapl:0:0", "core", 3)
    _zone(tmp_path, "intel-rapl:0:1", "dram", 2)
    unreadable = _zone(tmp_path, "intel-rapl:1", "package-1", 1)
    (unreadable / "energy_uj").unlink()  # root-only on most kernels: reads fail, the zone is left out
    assert set(rapl_zones(tmp_path)) == {"rapl_package-0_uj", "rapl_dram_uj"}


def test_sampler_thread_reads_host_and_rapl_and_brackets_the_work(tmp_path):
    pkg = _zone(tmp_path, "intel-rapl:0", "package-0", 100, max_uj=10**12)
    sampler = Sampler(interval_s=0.02, powercap=tmp_path).start()
    t0 = time.time()
    for uj in (2_000_100, 4_000_100):
        time.sleep(0.1)
        (pkg / "energy_uj").write_text(f"{uj}\n")
    t1 = time.time()
    samples = sampler.stop()
    assert len(samples) >= 5
    assert samples[0]["t"] <= t0 and samples[-1]["t"] >= t1
    assert all("cpu_pct" in s and s["rss_mb"] > 0 for s in samples)
    e = steady_energy(samples, (samples[0]["t"], samples[-1]["t"]), "cpu", sampler.meta)
    assert e.source == RAPL and e.energy_j is not None and abs(e.energy_j - 4.0) < 1e-6


def test_a_real_cpu_run_stores_host_telemetry_and_says_energy_is_not_measurable(cli, db):
    proc = cli("run", "--bench", "matmul", "--m", "256", "--n", "256", "--k", "256", "--repeats", "20", "--json")
    assert proc.returncode == 0, proc.stderr
    row = last_json(proc.stdout)
    assert row["status"] == "ok"
    assert row["energy_source"] == NOT_MEASURABLE  # this VM: no RAPL readable, no GPU
    assert row.get("energy_j") is None and row.get("joules_per_example") is None
    assert NOT_MEASURABLE in row["notes"]
    series = Store(db).get_series(row["run_id"], "telemetry")
    assert len(series) >= 2 and all("cpu_pct" in s and "rss_mb" in s for s in series)
    (window,) = Store(db).get_series(row["run_id"], "steady_window")
    assert series[0]["t"] <= window["start"] < window["end"] <= series[-1]["t"]


class _FakeNvml:
    """pynvml's shape for one GPU whose energy counter grows 100 J per reading; clock throttle unsupported."""

    NVML_CLOCK_SM, NVML_CLOCK_MEM, NVML_TEMPERATURE_GPU, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1, 2, 0, 1

    def __init__(self):
        self.mj = 0

    def nvmlInit(self):
        pass

    def nvmlDeviceGetCount(self):
        return 1

    def nvmlDeviceGetHandleByIndex(self, i):
        return f"h{i}"

    def nvmlDeviceGetEnforcedPowerLimit(self, h):
        return 700_000  # mW

    def nvmlDeviceGetTemperatureThreshold(self, h, kind):
        return 90

    def nvmlDeviceGetPowerUsage(self, h):
        return 350_000  # mW

    def nvmlDeviceGetTotalEnergyConsumption(self, h):
        self.mj += 100_000
        return self.mj

    def nvmlDeviceGetClockInfo(self, h, which):
        return 1980 if which == 1 else 2619

    def nvmlDeviceGetTemperature(self, h, which):
        return 55

    def nvmlDeviceGetUtilizationRates(self, h):
        return type("U", (), {"gpu": 97})()

    def nvmlDeviceGetMemoryInfo(self, h):
        return type("M", (), {"used": 2 * 2**30})()

    def nvmlDeviceGetCurrentClocksThrottleReasons(self, h):
        raise RuntimeError("NVMLError_NotSupported")


def test_nvml_readings_units_and_unsupported_calls(monkeypatch, tmp_path):
    import sys

    fake = _FakeNvml()
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    sampler = Sampler(powercap=tmp_path)
    assert sampler.meta["gpu_power_limit_w"] == {"gpu0": 700.0} and sampler.meta["gpu_slowdown_c"] == {"gpu0": 90}
    a, b = sampler.sample(), sampler.sample()
    assert a["gpu0_power_w"] == 350.0 and a["gpu0_sm_mhz"] == 1980 and a["gpu0_mem_used_mb"] == 2048.0
    assert a["gpu0_util_pct"] == 97 and "gpu0_throttle" not in a  # unsupported: left out, not retried
    assert "gpu0_throttle" in sampler.nvml.broken
    b["t"] = a["t"] + 1.0
    e = steady_energy([a, b], (a["t"], b["t"]), "gpu", sampler.meta)
    assert e.source == "nvml-counter" and e.energy_j == 100.0 and e.avg_power_w == 100.0


def test_worker_columns_for_an_h100_run_use_the_table_price_and_label_the_tdp_estimate():
    from types import SimpleNamespace

    from engine.runs.progress import Reporter
    from engine.worker.energy import telemetry_columns, telemetry_series

    report = Reporter(None)
    for i in range(10):
        report.record("step", epoch=1, step=i + 1, step_time_ms=100.0)
    report.times["step"] = [1000.0 + 0.1 * (i + 1) for i in range(10)]
    samples = [{"t": 1000.0 + 0.25 * i, "gpu0_power_w": 500.0, "gpu0_energy_mj": 500_000 * 0.25 * i} for i in range(6)]
    sampler = SimpleNamespace(samples=samples, meta={}, stop=lambda: samples)
    row = {"examples_per_sec": 10_000.0, "device_name": "NVIDIA H100 80GB HBM3", "replicas": 1, "notes": "own"}
    cols = telemetry_columns(sampler, report, "gpu", None, row, wall_s=2.0)
    assert cols["energy_source"] == "nvml-counter" and cols["avg_power_w"] == pytest.approx(500.0)
    assert cols["joules_per_example"] == pytest.approx(0.05)
    assert cols["energy_tdp_estimate_j"] == pytest.approx(700 * 0.9) and "ESTIMATE" in cols["notes"]
    assert cols["notes"].startswith("own; ")
    assert "price table" in cols["price_source"] and "6.88" in cols["price_source"]
    assert cols["cost_usd_per_million_examples"] == pytest.approx(6.88 / 3600 * 100)
    (window,) = telemetry_series(sampler, report)["steady_window"]
    assert window == {"start": pytest.approx(1000.1), "end": pytest.approx(1001.0)}
