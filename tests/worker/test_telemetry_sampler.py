"""The sampler thread (fake powercap tree written here) and a real tiny CPU worker run's telemetry."""

from __future__ import annotations

import time

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
