"""bench/gpu_check.py's --smoke path on this CPU with JAX: runs, exports the CSV, names each run; and the
reference-pack converter turns that CSV into reference rows the app's loader accepts."""

from __future__ import annotations

import csv
import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "data" / "reference"))

import accelbench_pack  # noqa: E402

from engine.reference.data import COLUMN_NAMES, load_reference  # noqa: E402


def _write(rows: list[dict[str, str]], path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(COLUMN_NAMES), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def test_gpu_check_smoke_exports_a_csv_that_becomes_reference_rows(tmp_path):
    out = tmp_path / "out"
    cmd = [sys.executable, "bench/gpu_check.py", "--out", str(out), "--smoke", "--backends", "jax", "--no-peer"]
    done = subprocess.run(
        [*cmd, "--only", "matmul float32,reuters_conv1d float32"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    with (out / "gpu_check.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {(r["model"], r["backend"], r["status"]) for r in rows} == {
        ("matmul", "jax", "ok"),
        ("reuters_conv1d", "jax", "ok"),
    }
    assert "Backends:" in done.stdout and "0 run(s) not ok" in done.stdout

    refs = accelbench_pack.rows_from_results(out / "gpu_check.csv")
    _write(refs, tmp_path / "ref.csv")
    df = load_reference(tmp_path / "ref.csv")  # the app's own schema check
    assert list(df["source_kind"]) == ["accelbench", "accelbench"]
    assert list(df["framework"]) == ["keras-jax", "keras-jax"]
    by_metric = dict(zip(df["metric"], df["model"], strict=True))
    assert by_metric == {"op_time_s": "matmul", "examples_per_s": "reuters_conv1d"}
    micro = df[df["metric"] == "op_time_s"].iloc[0]
    assert micro["shape"] == "(128x128)@(128x128)" and micro["hardware_key"] == "cpu"
    assert "command: bench/gpu_check.sh OUT" in micro["notes"]


def test_the_pack_plan_covers_every_zoo_model_both_precisions_every_backend():
    from engine.spec import catalog

    done = subprocess.run(
        [sys.executable, "bench/gpu_check.py", "--out", "unused", "--list"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    labels = set(done.stdout.split("\n"))
    for model in catalog.MODEL_NAMES:
        for prec in ("mixed_bfloat16", "float32"):
            assert {f"{model} {prec} jax", f"{model} {prec} keras-torch"} <= labels
    for op in ("matmul", "conv2d"):
        assert {f"{op} bfloat16 jax", f"{op} float32 keras-torch"} <= labels
    assert {"resnet50 mixed_bfloat16 torch", "gpt2_small float32 torch"} <= labels  # native subset
    assert "xception float32 torch" not in labels  # Keras-only: no native xception
    parts = [
        subprocess.run(
            [sys.executable, "bench/gpu_check.py", "--out", "unused", "--list", "--part", f"{k}/3"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.split()  # fmt: skip
        for k in (1, 2, 3)
    ]
    assert sum(len(p) for p in parts) == len(done.stdout.split())


def test_the_committed_reference_file_holds_the_committed_pack():
    """data/reference/measured/*.csv → the accelbench_pack rows of reference_numbers.csv, digit for digit."""
    with (ROOT / "data" / "reference" / "reference_numbers.csv").open(newline="", encoding="utf-8") as f:
        committed = [r for r in csv.DictReader(f) if r["origin"] == "accelbench_pack"]
    assert committed and committed == accelbench_pack.pack_rows()
    ids = [r["ref_id"] for r in committed]
    assert len(set(ids)) == len(ids) and ids[0] == "ACCELBENCH-H100-2026-11-23-01"
