"""bench/gpu_check.py's --smoke path on this CPU with JAX: runs, exports the CSV, names each run."""

from __future__ import annotations

import csv
import subprocess
import sys

from conftest import ROOT


def test_gpu_check_smoke_exports_a_csv_of_ok_jax_runs(tmp_path):
    out = tmp_path / "out"
    cmd = [sys.executable, "bench/gpu_check.py", "--out", str(out), "--smoke", "--backends", "jax", "--no-peer"]
    done = subprocess.run(
        [*cmd, "--only", "matmul float32,reuters_conv1d"], cwd=ROOT, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    with (out / "gpu_check.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {(r["model"], r["backend"], r["status"]) for r in rows} == {
        ("matmul", "jax", "ok"),
        ("reuters_conv1d", "jax", "ok"),
    }
    assert "Backends:" in done.stdout and "0 run(s) not ok" in done.stdout
