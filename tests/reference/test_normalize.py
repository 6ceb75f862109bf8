"""Normalisation: per chip/board/core/die, throughput ↔ time, units, peaks by precision, local rows."""

from __future__ import annotations

import pytest

from engine.reference import analysis


def test_a_cloud_tpu_board_is_four_chips_and_eight_cores():
    assert analysis.units_between("tpu_v2_8", "board", "chip") == 4
    assert analysis.units_between("tpu_v2_8", "board", "core") == 8
    per_chip = analysis.per_unit(21402, "examples_per_s", "tpu_v2_8", 1, "board", "chip")
    assert per_chip.value == pytest.approx(21402 / 4) and per_chip.unit == "examples/s per chip"
    assert analysis.per_unit(180, "peak_tflops", "tpu_v2_8", 1, "board", "chip").value == 45


def test_a_colab_k80_is_half_a_board():
    assert analysis.units_between("k80", "board", "die") == 2
    assert analysis.per_unit(8.74, "peak_tflops", "k80", 1, "board", "die").value == pytest.approx(4.37)
    assert analysis.per_unit(300, "tdp_w", "k80", 1, "board", "die").value == 150


def test_times_become_device_time_and_ratios_do_not_scale():
    t = analysis.per_unit(127.82, "train_time_s", "tpu_v2_8", 1, "board", "chip")
    assert t.value == pytest.approx(4 * 127.82) and t.unit == "chip·s"
    assert analysis.per_unit(12.9, "speedup_vs", "tpu_v2_8", 1, "board", "chip").value == 12.9
    assert analysis.per_unit(100.0, "images_per_s", "cpu", 8, "node", "chip") is None  # CPU nodes have no chips here


def test_add_per_unit_on_reference_rows(ref):
    pods = ref[ref["ref_id"].isin(["MLPERF-V05-04", "GCP-TPU-V3-DOC-06", "DAWNBENCH-01"])]
    out = analysis.add_per_unit(pods, "chip").set_index("ref_id")
    assert out.loc["GCP-TPU-V3-DOC-06", "value_per_unit"] == pytest.approx(126000 / 1024)
    assert out.loc["MLPERF-V05-04", "value_per_unit"] == pytest.approx(674.9 * 256)
    assert out.loc["DAWNBENCH-01", "value_per_unit"] != out.loc["DAWNBENCH-01", "value_per_unit"]  # NaN: CPU nodes


def test_throughput_and_time_per_epoch():
    # article 000: 5 epochs x 100 steps x batch 1024 in ~40 s on the Colab TPU
    assert analysis.examples_per_s_from_time(40, 5, 100, 1024) == 12800
    assert analysis.epoch_time_s_from_throughput(12800, 100, 1024) == 8.0
    assert analysis.train_time_s_from_throughput(12800, 5, 100, 1024) == 40.0
    with pytest.raises(ValueError):
        analysis.examples_per_s_from_time(0, 1, 1, 1)


def test_reference_throughput_where_steps_and_batch_are_known(ref):
    rows = ref.set_index("ref_id")
    vgg_tpu_128 = rows.loc["SEED-VN-FLOWERS-07"].to_dict() | {"ref_id": "SEED-VN-FLOWERS-07"}
    assert analysis.reference_throughput(vgg_tpu_128) == pytest.approx(25 * 23 * 128 / 127.82)
    assert analysis.reference_throughput(rows.loc["SEED-VN-FLOWERS-06"].to_dict()) is None  # batch 32: steps not stated
    assert analysis.reference_throughput(rows.loc["MLPERF-V05-01"].to_dict()) is None  # time-to-accuracy


def test_global_batch(ref):
    rows = ref.set_index("ref_id")
    assert analysis.global_batch(rows.loc["TF-BENCH-2017-03"].to_dict()) == 64 * 8  # 64 per GPU on 8 P100s
    assert analysis.global_batch(rows.loc["SEED-VN-FLOWERS-07"].to_dict()) is None  # TPU "128": scope not stated
    assert analysis.global_batch(rows.loc["SEED-VN-FLOWERS-08"].to_dict()) == 32


def test_unit_conversions_and_axis_titles():
    assert analysis.convert(1, "h", "s") == 3600 and analysis.convert(250, "ms", "s") == 0.25
    assert analysis.convert(32, "GiB", "GB") == pytest.approx(34.359738368)
    assert analysis.to_canonical("memory_gb", 32, "GiB") == pytest.approx(34.36, abs=0.01)
    with pytest.raises(ValueError):
        analysis.convert(1, "s", "GB")
    assert analysis.axis_title("images_per_s") == "Throughput (images/s)"
    assert analysis.axis_title("train_time_s") == "Training time (s)"


def test_peak_by_precision(ref):
    t4 = analysis.peak_tflops(ref, "t4", "mixed_float16")
    assert t4.tflops == 65.13 and t4.precision == "float16"
    assert analysis.peak_tflops(ref, "t4", "float32").tflops == 8.141
    a100 = analysis.peak_tflops(ref, "a100", "mixed_bfloat16")
    assert a100.tflops == 312 and a100.precision == "bf16_fp16"
    assert any("TF32" in c for c in analysis.peak_tflops(ref, "a100", "float32").caveats)
    k80 = analysis.peak_tflops(ref, "k80", "float32", per="die")
    assert k80.tflops == pytest.approx(4.37)
    v2 = analysis.peak_tflops(ref, "tpu_v2_8", "mixed_bfloat16", per="chip")
    assert v2.tflops == 45 and v2.caveats  # the source does not state the precision
    assert analysis.peak_tflops(ref, "tpu_v3_8", "mixed_bfloat16", per="board").tflops == 4 * 123
    assert analysis.peak_tflops(ref, "cpu", "mixed_float16") is None


def test_local_result_rows_and_device_keys():
    assert analysis.hardware_key_for_device("gpu", "Tesla T4") == "t4"
    assert analysis.hardware_key_for_device("gpu", "NVIDIA A100-SXM4-40GB") == "a100"
    assert analysis.hardware_key_for_device("gpu", "Quadro RTX 8000") == "gpu_unknown"
    assert analysis.hardware_key_for_device("cpu", "Intel Xeon") == "cpu"
    result = {
        "run_id": "r1",
        "kind": "train",
        "model": "resnet50",
        "dataset": "synthetic",
        "precision": "mixed_bfloat16",
        "xla": True,
        "device": "tpu",
        "device_name": "TPU v2",
        "replicas": 8,
        "global_batch_size": 1024,
        "epochs": 3,
        "steps_per_epoch": 10,
        "examples_per_sec": 2900.0,
        "total_s": 30.0,
        "first_epoch_s": 20.0,
        "step_time_ms_median": 350.0,
    }
    rows = analysis.local_result_rows(result).set_index("metric")
    assert rows.loc["examples_per_s", "value"] == 2900.0
    assert rows.loc["epoch_time_s", "value"] == 5.0  # (30 - 20) / 2 later epochs
    first = rows.iloc[0]
    assert (first["hardware_key"], first["hardware_count"], first["count_unit"]) == ("tpu_v2", 8, "core")
    assert (first["dataset"], first["data_kind"], first["source_kind"]) == ("imagenet", "synthetic", "local")
    micro = analysis.local_result_rows(
        {"run_id": "m", "kind": "matmul", "dtype": "float32", "device": "cpu", "step_time_ms_median": 250.0}
    )
    assert micro.set_index("metric").loc["op_time_s", "value"] == 0.25
    assert micro.iloc[0]["model"] == "matmul"
