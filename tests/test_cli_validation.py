"""Malformed CLI input: exit 2, one line on stderr naming the field, nothing stored, no TensorFlow.

Called in-process through `engine.cli.main`; one subprocess test checks that `python -m engine`
gives the same exit code and line. (How fast a refusal comes back is measured by
bench/bench_limits.py, not asserted here.)
"""

from __future__ import annotations

import json
import sys

import pytest
from conftest import needs_no_gpu, run_cli

from engine.cli import EXIT_INVALID, main
from engine.runs.store import Store

BAD = [
    ["run"],
    ["run", "--bench", "matmul", "--m", "abc"],
    ["run", "--bench", "matmul", "--m", "0"],
    ["run", "--bench", "matmul", "--dtype", "float64"],
    pytest.param(["run", "--bench", "matmul", "--device", "gpu"], marks=needs_no_gpu),
    pytest.param(["run", "--bench", "matmul", "--device", "tpu"], marks=needs_no_gpu),
    ["run", "--bench", "matmul", "--repeats", "-3"],
    ["run", "--bench", "matmul", "--timeout-s", "abc"],
    ["run", "--bench", "conv2d", "--kernel-size", "9", "--height", "4", "--width", "4"],
    ["run", "--bench", "matmul", "--epochs", "3"],
    ["run", "--bench", "matmul", "--processes", "2"],
    ["run", "--bench", "matmul", "--model", "fashion_cnn"],
    ["run", "--bench", "sort"],
    ["run", "--model", "nope", "--dataset", "synthetic"],
    ["run", "--model", "fashion_cnn", "--dataset", "reuters"],
    ["run", "--model", "fashion_cnn", "--batch-size", "255", "--logical-devices", "2"],
    pytest.param(["run", "--model", "fashion_cnn", "--device", "gpu"], marks=needs_no_gpu),
    ["run", "--model", "fashion_cnn", "--m", "5"],
    ["run", "--model", "fashion_cnn", "--price-per-hour", "-1"],
    ["run", "--bench", "matmul", "--frobnicate"],
    ["results", "show", "no-such-run"],
    ["results", "import", "/no/such/file.csv"],
    ["cancel", "no-such-run"],
    ["models", "--dataset", "nope"],
    ["launch"],
]

# training runs that cannot work, refused before anything starts: (flags after --model fashion_cnn, text)
IMPOSSIBLE_TRAINING = [
    pytest.param(["--device", "gpu"], "--device: no GPU found", marks=needs_no_gpu),
    pytest.param(["--device", "tpu"], "--device: no TPU found", marks=needs_no_gpu),
    (["--logical-devices", "3", "--batch-size", "64"], "--batch-size: the global batch 64 does not divide across 3"),
    (["--logical-devices", "2", "--strategy", "one_device"], "--logical-devices"),
    (["--dataset", "flowers"], "--data-dir"),
    # --processes (issue 30): refused before any process starts, nothing stored
    (["--processes", "0", "--backend", "torch"], "--processes: must be from 1 to 64, got 0"),
    (["--processes", "2", "--backend", "keras-torch"], "--processes: 2 processes run with --backend torch, jax"),
    (
        ["--processes", "2", "--backend", "torch", "--batch-size", "63"],
        "--batch-size: the global batch 63 does not split",
    ),
    (["--processes", "2", "--backend", "torch", "--strategy", "mirrored"], "--processes: a 2-process run is already"),
    (["--precision", "mixed_float16", "--device", "tpu", "--tpu", "x"], "--precision"),
]


@pytest.fixture
def no_tensorflow(monkeypatch):
    """Any `import tensorflow` / `import keras` from here on raises ImportError (the refusal path must not need it)."""
    for name in ("tensorflow", "keras"):
        monkeypatch.setitem(sys.modules, name, None)


def refused(args: list[str], capsys) -> str:
    """Run the CLI in-process on input it must refuse; returns its one stderr line."""
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == EXIT_INVALID
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("accelbench: error:")
    assert out == ""
    return lines[0]


@pytest.mark.parametrize("args", BAD, ids=lambda a: " ".join(a))
def test_bad_input_exits_2_with_one_line_and_stores_nothing(db, no_tensorflow, capsys, args):
    refused(args, capsys)
    assert not db.exists() or Store(db).count_runs() == 0


@pytest.mark.parametrize("args,field", IMPOSSIBLE_TRAINING)
def test_impossible_training_runs_are_refused_before_starting(db, no_tensorflow, capsys, args, field):
    assert field in refused(["run", "--model", "fashion_cnn", *args], capsys)
    assert Store(db).count_runs() == 0


@needs_no_gpu
def test_gpu_refusal_lists_what_exists(db, capsys):
    line = refused(["run", "--bench", "matmul", "--device", "gpu"], capsys)
    assert "no GPU found" in line and "this machine has: CPU" in line


@needs_no_gpu
def test_devices_lists_cpu_with_peak(capsys):
    assert main(["devices", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["cpu"]["cores"] >= 1 and info["cpu"]["peak_gflops_fp32"] > 0
    assert info["gpus"] == [] and info["tpu"] is None


def test_python_m_engine_exits_2_with_the_same_line(db):
    proc = run_cli("run", "--bench", "matmul", "--m", "0")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == "accelbench: error: --m: must be from 1 to 1000000, got 0"
    assert proc.stdout == ""
    assert not db.exists() or Store(db).count_runs() == 0
