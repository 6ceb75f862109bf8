"""Normalisation: per chip/board/core/die, units, local rows; the hardware table's peaks against the sourced rows."""

from __future__ import annotations

import pytest

from engine.catalog import hardware_table
from engine.reference import normalize, units
from engine.reference.data import load_reference


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def test_a_cloud_tpu_board_is_four_chips_and_eight_cores():
    assert units.units_between("tpu_v2_8", "board", "chip") == 4
    assert units.units_between("tpu_v2_8", "board", "core") == 8
    per_chip = normalize.per_unit(21402, "examples_per_s", "tpu_v2_8", 1, "board", "chip")
    assert per_chip.value == pytest.approx(21402 / 4) and per_chip.unit == "examples/s per chip"
    assert normalize.per_unit(180, "peak_tflops", "tpu_v2_8", 1, "board", "chip").value == 45


def test_a_colab_k80_is_half_a_board():
    assert units.units_between("k80", "board", "die") == 2
    assert normalize.per_unit(8.74, "peak_tflops", "k80", 1, "board", "die").value == pytest.approx(4.37)
    assert normalize.per_unit(300, "tdp_w", "k80", 1, "board", "die").value == 150


def test_times_become_device_time_and_ratios_do_not_scale():
    t = normalize.per_unit(127.82, "train_time_s", "tpu_v2_8", 1, "board", "chip")
    assert t.value == pytest.approx(4 * 127.82) and t.unit == "chip·s"
    assert normalize.per_unit(12.9, "speedup_vs", "tpu_v2_8", 1, "board", "chip").value == 12.9
    assert normalize.per_unit(100.0, "images_per_s", "cpu", 8, "node", "chip") is None  # CPU nodes have no chips here


def test_add_per_unit_on_reference_rows(ref):
    pods = ref[ref["ref_id"].isin(["MLPERF-V05-04", "GCP-TPU-V3-DOC-06", "DAWNBENCH-01"])]
    out = normalize.add_per_unit(pods, "chip").set_index("ref_id")
    assert out.loc["GCP-TPU-V3-DOC-06", "value_per_unit"] == pytest.approx(126000 / 1024)
    assert out.loc["MLPERF-V05-04", "value_per_unit"] == pytest.approx(674.9 * 256)
    assert out.loc["DAWNBENCH-01", "value_per_unit"] != out.loc["DAWNBENCH-01", "value_per_unit"]  # NaN: CPU nodes


def test_global_batch(ref):
    rows = ref.set_index("ref_id")
    assert normalize.global_batch(rows.loc["TF-BENCH-2017-03"].to_dict()) == 64 * 8  # 64 per GPU on 8 P100s
    assert normalize.global_batch(rows.loc["SEED-VN-FLOWERS-07"].to_dict()) is None  # TPU "128": scope not stated
    assert normalize.global_batch(rows.loc["SEED-VN-FLOWERS-08"].to_dict()) == 32


def test_unit_conversions_and_axis_titles():
    assert units.convert(1, "h", "s") == 3600 and units.convert(250, "ms", "s") == 0.25
    assert units.convert(32, "GiB", "GB") == pytest.approx(34.359738368)
    assert units.to_canonical("memory_gb", 32, "GiB") == pytest.approx(34.36, abs=0.01)
    with pytest.raises(ValueError):
        units.convert(1, "s", "GB")
    assert units.axis_title("images_per_s") == "Throughput (images/s)"
    assert units.axis_title("train_time_s") == "Training time (s)"


def test_local_result_rows_and_device_keys():
    assert units.hardware_key_for_device("gpu", "Tesla T4") == "t4"
    assert units.hardware_key_for_device("gpu", "NVIDIA A100-SXM4-40GB") == "a100"
    assert units.hardware_key_for_device("gpu", "Quadro RTX 8000") == "gpu_unknown"
    assert units.hardware_key_for_device("cpu", "Intel Xeon") == "cpu"
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
    rows = normalize.local_result_rows(result).set_index("metric")
    assert rows.loc["examples_per_s", "value"] == 2900.0
    assert rows.loc["epoch_time_s", "value"] == 5.0  # (30 - 20) / 2 later epochs
    first = rows.iloc[0]
    assert (first["hardware_key"], first["hardware_count"], first["count_unit"]) == ("tpu_v2", 8, "core")
    assert (first["dataset"], first["data_kind"], first["source_kind"]) == ("imagenet", "synthetic", "local")
    micro = normalize.local_result_rows(
        {"run_id": "m", "kind": "matmul", "dtype": "float32", "device": "cpu", "step_time_ms_median": 250.0}
    )
    assert micro.set_index("metric").loc["op_time_s", "value"] == 0.25
    assert micro.iloc[0]["model"] == "matmul"


def test_the_hardware_table_peaks_agree_with_the_sourced_datasheet_rows(ref):
    assert hardware_table.peak_tflops("t4", "mixed_float16") == 65.0
    assert hardware_table.peak_tflops("a100", "mixed_bfloat16") == 312.0
    assert hardware_table.peak_tflops("k80") == pytest.approx(4.37)  # one die
    assert hardware_table.peak_tflops("tpu_v2_8", "mixed_bfloat16") == 45.0  # per chip
    assert hardware_table.peak_tflops("cpu") is None
    rows = ref[(ref["metric"] == "peak_tflops") & ~ref["doubtful"] & ref["precision"].isin(["float32", "float16"])]
    sourced: dict[tuple[str, str], list[float]] = {}
    for r in rows.to_dict("records"):
        dev = hardware_table.BY_KEY[r["hardware_key"]]
        per = normalize.per_unit(
            r["value"], "peak_tflops", r["hardware_key"], r["hardware_count"], r["count_unit"], dev.peak_unit
        )
        if per and dev.peak_tflops.get(r["precision"]):
            sourced.setdefault((dev.key, r["precision"]), []).append(per.value)
    assert len(sourced) >= 3
    for (key, precision), values in sourced.items():  # variants differ (P100 PCIe 9.3 vs SXM2 10.6): one must agree
        table = hardware_table.BY_KEY[key].peak_tflops[precision]
        assert any(table == pytest.approx(v, rel=0.03) for v in values), (key, precision, values)
