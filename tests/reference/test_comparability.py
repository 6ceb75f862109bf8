"""Comparability: settings that change speed are detected and named; local runs find their references."""

from __future__ import annotations

import math

import pytest

from engine.reference import analysis


def _row(**kw):
    base = {
        "ref_id": "x",
        "hardware": "GPU A",
        "hardware_key": "v100",
        "hardware_count": 1,
        "count_unit": "gpu",
        "model": "resnet50",
        "task": "training",
        "dataset": "imagenet",
        "data_kind": "synthetic",
        "batch_size": 64,
        "batch_scope": "global",
        "precision": "float32",
        "xla": False,
        "framework": "tensorflow",
        "framework_version": "2.21",
        "metric": "images_per_s",
        "value": 100.0,
    }
    return base | kw


def test_identical_settings_give_no_warning():
    assert analysis.comparability_warnings([_row(), _row(ref_id="y", hardware="GPU B")]) == []


@pytest.mark.parametrize(
    ("change", "word"),
    [
        ({"batch_size": 256}, "Global batch differs"),
        ({"precision": "mixed_float16"}, "Precision differs"),
        ({"xla": True}, "XLA differs"),
        ({"data_kind": "real"}, "synthetic vs real"),
        ({"framework": "pytorch"}, "Framework differs"),
        ({"hardware_count": 8}, "Device count differs"),
    ],
)
def test_one_differing_setting_is_named(change, word):
    warnings = analysis.comparability_warnings([_row(), _row(ref_id="y", hardware="GPU B", **change)])
    assert len(warnings) == 1 and word in warnings[0]
    assert "GPU A" in warnings[0] and "GPU B" in warnings[0]


def test_unstated_settings_are_reported():
    warnings = analysis.comparability_warnings([_row(), _row(ref_id="y", hardware="GPU B", precision="unknown")])
    assert warnings == ["Precision not stated for GPU B (GPU A: float32)."]


def test_article_001_rows_differ_in_batch_and_device_count(ref):
    rows = ref[ref["ref_id"].isin(["SEED-VN-FLOWERS-01", "SEED-VN-FLOWERS-02", "SEED-VN-FLOWERS-05"])]
    text = " ".join(analysis.comparability_warnings(rows))
    assert "Global batch differs" in text and "128" in text
    assert "Device count differs: 8 TPU cores" in text  # a v2-8 board vs one P100


def test_article_003_board_vs_gpu_and_doubtful_rows(ref):
    rows = ref[ref["ref_id"].isin(["SEED-RISEML-05", "SEED-RISEML-06", "SEC-HN-RISEML-01"])]
    text = " ".join(analysis.comparability_warnings(rows))
    assert "8 TPU cores" in text and "Doubtful figures" in text and "SECONDARY" in text


def test_differences_structure(ref):
    diffs = analysis.differences([_row(), _row(ref_id="y", precision="mixed_float16")])
    assert [d.setting for d in diffs] == ["precision"]
    assert diffs[0].values == {"float32": ["GPU A [x]"], "mixed_float16": ["GPU A [y]"]}


def test_a_local_conv_run_matches_the_seed_conv_rows(ref):
    result = {
        "run_id": "c1",
        "kind": "conv2d",
        "shape": "128x256x256x3 * 5x5x3x256",
        "dtype": "float32",
        "precision": "float32",
        "xla": False,
        "device": "cpu",
        "device_name": "Intel Xeon",
        "replicas": 1,
        "global_batch_size": 128,
        "step_time_ms_median": 1220.0,
        "tf_version": "2.21.0",
    }
    matches = analysis.match_references(result, ref)
    assert [m.ref_id for m in matches] == ["SEED-COLAB-CONV-01", "SEED-COLAB-CONV-02", "SEED-COLAB-CONV-03"]
    best = matches[0]
    assert best.speedup == pytest.approx(2.44 / 1.22) and best.unit == "s"
    assert matches[2].doubtful and any("NOT a TPU" in c for c in matches[2].caveats)
    assert matches[0].score > matches[2].score
    frame = analysis.matches_frame(matches)
    assert list(frame["ref_id"]) == [m.ref_id for m in matches] and "caveats" in frame


def test_a_local_train_run_ranks_the_same_settings_first(ref):
    result = {
        "run_id": "t1",
        "kind": "train",
        "model": "vgg19",
        "dataset": "flowers",
        "precision": "float32",
        "xla": False,
        "device": "gpu",
        "device_name": "Tesla T4",
        "replicas": 1,
        "global_batch_size": 32,
        "epochs": 25,
        "steps_per_epoch": 92,
        "examples_per_sec": 120.0,
        "total_s": 900.0,
        "first_epoch_s": 60.0,
        "step_time_ms_median": 260.0,
        "tf_version": "2.21.0",
    }
    matches = analysis.match_references(result, ref)
    assert matches[0].ref_id == "SEED-VN-FLOWERS-09"  # the T4 at batch 32
    assert matches[0].speedup == pytest.approx(947.92 / 900.0)
    assert any("per epoch" in c for c in matches[0].caveats)
    tpu128 = next(m for m in matches if m.ref_id == "SEED-VN-FLOWERS-07")
    assert tpu128.metric.startswith("examples_per_s")  # steps and batch known: compared as throughput
    assert tpu128.ref_value == pytest.approx(25 * 23 * 128 / 127.82)
    assert all(m.ref_id.startswith("SEED-VN-FLOWERS") for m in matches)
    assert all(not math.isnan(m.speedup) for m in matches)


def test_time_to_accuracy_rows_are_not_matched_to_a_fixed_length_run(ref):
    result = {
        "run_id": "r",
        "kind": "train",
        "model": "resnet50",
        "dataset": "synthetic",
        "precision": "mixed_float16",
        "xla": True,
        "device": "gpu",
        "device_name": "Tesla V100-SXM2-16GB",
        "replicas": 1,
        "global_batch_size": 256,
        "epochs": 2,
        "steps_per_epoch": 50,
        "examples_per_sec": 1200.0,
        "total_s": 30.0,
        "first_epoch_s": 20.0,
    }
    matches = analysis.match_references(result, ref, limit=5)
    assert len(matches) == 5
    assert all(not m.ref_id.startswith(("MLPERF", "DAWNBENCH")) for m in analysis.match_references(result, ref))
    assert matches[0].ref_id in ("NV-DLE-TF-RN50-06",)  # V100, batch 256, AMP + XLA, TensorFlow
