"""Malformed CLI input: exit 2 within a second, one line on stderr naming the field, nothing stored."""

from __future__ import annotations

import time

import pytest

from engine.runs.store import Store

BAD = [
    ["run"],
    ["run", "--bench", "matmul", "--m", "abc"],
    ["run", "--bench", "matmul", "--m", "0"],
    ["run", "--bench", "matmul", "--dtype", "float64"],
    ["run", "--bench", "matmul", "--device", "gpu"],
    ["run", "--bench", "matmul", "--device", "tpu"],
    ["run", "--bench", "matmul", "--repeats", "-3"],
    ["run", "--bench", "matmul", "--timeout-s", "abc"],
    ["run", "--bench", "conv2d", "--kernel-size", "9", "--height", "4", "--width", "4"],
    ["run", "--bench", "matmul", "--epochs", "3"],
    ["run", "--bench", "matmul", "--model", "fashion_cnn"],
    ["run", "--bench", "sort"],
    ["run", "--model", "nope", "--dataset", "synthetic"],
    ["run", "--model", "fashion_cnn", "--dataset", "reuters"],
    ["run", "--model", "fashion_cnn", "--batch-size", "255", "--logical-devices", "2"],
    ["run", "--model", "fashion_cnn", "--device", "gpu"],
    ["run", "--model", "fashion_cnn", "--m", "5"],
    ["run", "--model", "fashion_cnn", "--price-per-hour", "-1"],
    ["run", "--bench", "matmul", "--frobnicate"],
    ["results", "show", "no-such-run"],
    ["results", "import", "/no/such/file.csv"],
    ["cancel", "no-such-run"],
    ["models", "--dataset", "nope"],
    ["launch"],
]


@pytest.mark.parametrize("args", BAD, ids=lambda a: " ".join(a))
def test_bad_input_exits_2_fast_and_stores_nothing(cli, db, args):
    t0 = time.monotonic()
    proc = cli(*args)
    elapsed_s = time.monotonic() - t0
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("accelbench: error:")
    assert elapsed_s < 1.0  # the interpreter start is most of it: no TensorFlow import on this path
    assert not db.exists() or Store(db).count_runs() == 0


def test_gpu_refusal_lists_what_exists(cli):
    proc = cli("run", "--bench", "matmul", "--device", "gpu")
    assert "no GPU found" in proc.stderr and "this machine has: CPU" in proc.stderr


def test_devices_lists_cpu_with_peak(cli):
    proc = cli("devices", "--json")
    assert proc.returncode == 0
    import json

    info = json.loads(proc.stdout)
    assert info["cpu"]["cores"] >= 1 and info["cpu"]["peak_gflops_fp32"] > 0
    assert info["gpus"] == [] and info["tpu"] is None
