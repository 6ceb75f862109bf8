"""Issue 43, class B of the foreign corpus: the device and its count where a file states them only in its name or in
a packed platform name — mac-ml-speed-test's result files named after torch/TensorFlow's device name
(`NVIDIA_TITAN_RTX_…`, `Apple_M3_Max_…`, `…_GTX_1070_4GPU_…`), MLPerf Training platforms (`gpu-v100-8`,
`tpu-v3-32`, `gaudi-8`, `1xXE9712x4GB200`), a CPU-only MLPerf HPC system (accelerators_per_node 0) — and a free-text
column (a prompt that mentions a GPU) that is never the device. Small files written here in each tool's shape."""

from __future__ import annotations

import json

import pytest

from engine.imports.facts.system_names import parse_system
from engine.imports.importer import apply_import, read_raw
from engine.results.errors import CsvError

_MAC_ML = "global_batch_size,avg_time_per_epoch\n16,52.2\n64,20.1\n"


def _import(text: str, name: str):
    raw = read_raw(text.encode(), name)
    return apply_import(raw.frame, raw.guess, name, None)[0]


@pytest.mark.parametrize(
    ("name", "device", "count"),
    [
        ("NVIDIA_TITAN_RTX_CIFAR100_resnet50_32_pytorch_results.csv", "TITAN RTX", 1),
        ("Apple_M3_Max_FOOD101_ResNet50_224_tensorflow_results.csv", "Apple M3 Max", 1),
        ("NVIDIA_GeForce_GTX_1070_4GPU_CIFAR100_resnet50_32_pytorch_results.csv", "GTX 1070", 4),
    ],
)
def test_a_device_named_only_by_the_file_name(name, device, count):
    frame = _import(_MAC_ML, name)
    assert set(frame["device_label"]) == {device}
    assert set(frame["device_count"]) == {count}


def test_a_device_further_into_the_name_is_read_but_not_counted():
    frame = _import(_MAC_ML, "resnet50-train-amp-nchw-rtx3090.csv")
    assert set(frame["device_label"]) == {"RTX 3090"}  # one device with the `RTX 3090` other files name
    assert frame["device_count"].isna().all()  # nothing says how many ran


def test_one_record_with_its_device_only_in_the_file_name_has_no_count():
    """A one-run summary (LoadGen's `key : value` lines) names no hardware; the device read from the name it was saved
    under does not say how many ran it (the one-device rule is for a device's own name inside the file)."""
    summary = "Scenario : Offline\nSamples per second: 0.342746\nResult is : VALID\n"
    frame = _import(summary, "mlperf_rtx4090_sdxl_log_summary.txt")
    assert set(frame["device_label"]) == {"RTX 4090"}
    assert frame["device_count"].isna().all()


@pytest.mark.parametrize(
    ("platform", "device", "count"),
    [
        ("gpu-v100-8", "V100", 8),  # NAME-N
        ("gaudi-8", "Gaudi", 8),  # Gaudi's generations are 1-3: 8 is a count
        ("tpu-v3-32", "TPU v3", 16),  # a v3 slice counts TensorCores, two per chip
        ("tpu-v4-8", "TPU v4", 4),
        ("TPU v5 lite-16", "TPU v5e", 16),  # v5e slices count chips
        ("1xXE9712x4GB200", "GB200", 4),  # N hosts × M accelerators
        ("2xXE9680x8H100-SXM-80GB", "H100", 16),
        ("fugaku_A64FX_tensorflow", "A64FX", None),
        ("bench_h100_2024", "H100", None),  # a date after the device is no count
    ],
)
def test_platform_names_that_pack_the_count(platform, device, count):
    read = parse_system(platform)
    assert (read.device_model, read.device_count) == (device, count)


def _mllog(platform: str, extra: list[dict], file: str = "train.py") -> str:
    events = [
        {"key": "submission_platform", "value": platform},
        *extra,
        {"key": "run_start", "value": None, "time_ms": 0},
        {"key": "eval_accuracy", "value": 0.7, "time_ms": 60000, "metadata": {"epoch_num": 1}},
        {"key": "run_stop", "value": None, "time_ms": 120000, "metadata": {"status": "success"}},
    ]
    lines = [
        {"namespace": "", "time_ms": 0, **e, "metadata": {"file": file, **(e.get("metadata") or {})}} for e in events
    ]
    return "\n".join(f":::MLLOG {json.dumps(e)}" for e in lines) + "\n"


def test_a_training_log_counts_its_platform():
    frame = _import(_mllog("gpu-v100-8", []), "result_0.txt")
    assert (set(frame["device_label"]), set(frame["device_count"])) == ({"V100"}, {8})


def test_the_implementation_folder_names_the_device_more_exactly():
    log = _mllog("gaudi-8", [], file="implementations/HLS-Gaudi2-PT/../PyTorch/run_pretraining.py")
    frame = _import(log, "result_0.txt")
    assert (set(frame["device_label"]), set(frame["device_count"])) == ({"Gaudi2"}, {8})


def test_a_cpu_only_hpc_system_counts_its_nodes():
    nodes = [{"key": "number_of_nodes", "value": 512}, {"key": "accelerators_per_node", "value": 0}]
    frame = _import(_mllog("fugaku_A64FX_tensorflow", nodes), "result_1.txt")
    assert (set(frame["device_label"]), set(frame["device_count"])) == ({"A64FX"}, {512})


def test_a_prompt_that_mentions_a_gpu_is_not_the_device():
    rows = [
        {"question": "Why is the A100 faster than the V100 when training large language models?", "tokens_per_s": 40},
        {"question": "Explain what an H100 is,\nstep by step.", "tokens_per_s": 41},
    ]
    with pytest.raises(CsvError, match="system or device"):
        _import(json.dumps(rows), "answers.json")  # History asks for the device


@pytest.mark.parametrize("name", ["CUDA - NVIDIA GeForce RTX 4090", "cuda:0 NVIDIA GeForce RTX 4090"])
def test_a_backend_before_the_device_is_not_its_provider_and_one_run_ran_on_one(name):
    """torch-based tools write the backend before the device's own name (`CUDA - …`, `cuda:0 …`)."""
    parsed = parse_system(name)
    assert (parsed.device_model, parsed.provider) == ("RTX 4090", "")
    record = f"metric,value,unit\ndevice,{name},\nbatch_size,8,\ntotal_train_time,81.59,seconds\n"
    frame = _import(record, "llm_finetune_bench.csv")
    assert set(frame["device_label"]) == {"RTX 4090"} and set(frame["device_count"]) == {1}
