"""bench/gpu_check.py's --smoke path on this CPU with JAX: runs, exports the CSV, names each run; and the
reference-pack converter turns that CSV into reference rows the app's loader accepts."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest
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
    from engine.catalog import catalog

    done = subprocess.run(
        [sys.executable, "bench/gpu_check.py", "--out", "unused", "--list"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # a hang guard
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
            timeout=300,  # a hang guard
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


def test_repeats_of_one_configuration_pool_to_their_median_and_compile_modes_stay_apart():
    """The H100 ran ResNet-50 mixed bf16 on Keras-JAX three times (2026-11-23, twice on 11-25): one row, the
    middle run, its notes led by the spread; native PyTorch compiled and eager are two configurations, and so
    are a micro op synced after every call (the engine before 11-25) and one timed in windows."""
    rows = accelbench_pack.pack_rows()
    jax_r50 = [
        r
        for r in rows
        if (r["hardware_key"], r["model"], r["framework"], r["precision"])
        == ("h100", "resnet50", "keras-jax", "mixed_bfloat16")
    ]
    assert len(jax_r50) == 1 and round(float(jax_r50[0]["value"])) == 4640
    assert jax_r50[0]["notes"].startswith("Median of 3 runs of this configuration (4,521–5,262 examples/s: ")
    torch_r50 = {
        r["framework_label"]: float(r["value"])
        for r in rows
        if (r["hardware_key"], r["model"], r["framework"]) == ("h200", "resnet50", "pytorch")
    }
    assert sorted(torch_r50) == [
        "pytorch (torch 2.11.0+cu130, eager: no torch.compile)",
        "pytorch (torch 2.11.0+cu130, torch.compile)",
    ]
    labels = {r["framework_label"] for r in rows if r["model"] == "matmul" and r["hardware_key"] == "h100"}
    assert any(label.endswith("synced after every call)") for label in labels)
    assert any(not label.endswith("call)") for label in labels)


def test_pool_repeats_keeps_a_lone_row_untouched():
    row = {k: "" for k in accelbench_pack.REPEAT_KEY} | {"value": "5.0", "notes": "AccelBench run x: y", "unit": "u"}
    assert accelbench_pack.pool_repeats([row]) == [row]
    two = [
        row | {"value": "4.0", "notes": "AccelBench run a: n"},
        row | {"value": "6.0", "notes": "AccelBench run b: n"},
    ]
    (pooled,) = accelbench_pack.pool_repeats(two)
    assert (
        pooled["value"] == "4.0"
        and pooled["notes"] == "Median of 2 runs of this configuration (4–6 u: a 4, b 6). AccelBench run a: n"
    )


def test_the_lent_plan_puts_real_data_first_then_the_pack_then_the_peers(tmp_path):
    """Issue 44's one prepared run: the flowers JPEGs at 1, 4 and all host cores first (the host cap's check), then
    ResNet-50, BERT-base and GPT-2 small at both precisions on native torch, compiled, then the matmul peers."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "bench" / "gpu_check.py")
    assert spec is not None and spec.loader is not None
    gc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gc)
    runs = gc.lent_plan(False, "gpu", tmp_path / "flowers", 16)
    labels = [label for label, _ in runs]
    assert labels[:3] == [f"resnet50 flowers workers={w} torch" for w in (1, 4, 16)]
    assert labels[3:9] == [f"{m} {p} torch" for m in ("resnet50", "bert_base", "gpt2_small")
                           for p in ("float32", "mixed_bfloat16")]  # fmt: skip
    assert labels[9:] == ["matmul bfloat16 jax", "matmul bfloat16 torch"]
    first = runs[0][1]
    assert first[first.index("--batch-size") + 1] == "256" and "--no-compile" not in first
    assert first[first.index("--data-dir") + 1] == str(tmp_path / "flowers") and first[-2:] == ["--device", "gpu"]


# real runs on this CPU: ResNet-50 on sampled JPEGs twice, two matmuls — 2 min alone, 5.5–8 min beside the other test
# worker (scripts/test.sh runs two), so its hang guards sit well above that
@pytest.mark.slow
@pytest.mark.timeout(1000)
def test_gpu_check_sh_plan_lent_smoke_exports_after_every_run(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        ["bash", "bench/gpu_check.sh", str(out), "--plan", "lent", "--smoke", "--no-peer",
         "--only", "resnet50 flowers,matmul bfloat16"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    with (out / "gpu_check.csv").open() as f:
        rows = list(csv.DictReader(f))
    flowers = [r for r in rows if r["dataset"] == "flowers"]
    assert sorted(r["input_workers"] for r in flowers) == ["1", "2"]
    assert all(r["status"] == "ok" and r["backend"] == "torch" and r["model"] == "resnet50" for r in flowers)
    assert {(r["model"], r["backend"]) for r in rows if r["model"] == "matmul"} == {("matmul", "jax"), ("matmul", "torch")}
    assert (out / "flowers").is_dir() and "0 run(s) not ok" in done.stdout
