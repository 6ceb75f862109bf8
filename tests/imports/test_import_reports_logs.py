"""Issue 22 items 2 and 3 on small files the tests write in the shapes those tools document (no real file is
copied): an MLPerf-style system summary (accelerator columns beside host_processor_*), an optimum-benchmark-style
nested report (config + environment + report with per-iteration latencies), an AlgoPerf-style training log with
its `*_meta_data_0.json` sidecar, and a headerless nvidia-smi monitor log whose file name names the device."""

from __future__ import annotations

import json

import pytest

from engine.imports.importer import apply_import, read_raw
from engine.imports.read.foreign_json import is_sidecar, read_sidecar, sidecar_for
from engine.imports.view.imported import time_to_target
from engine.imports.view.imported_rates import rates_of_rows
from engine.results import history

MLPERF = [
    {"submitter": "NVIDIA", "system_name": "dgxh100_n1_ngc23.09", "division": "closed",
     "host_processor_model_name": "Intel(R) Xeon(R) Platinum 8480C", "host_processors_per_node": 2,
     "host_processor_core_count": 56, "accelerator_model_name": "NVIDIA H100-SXM5-80GB", "accelerator_count": 8,
     "framework": "PyTorch NVIDIA Release 23.09", "results": {"resnet": 13.5, "bert": 5.4}},
    {"submitter": "Google", "system_name": "tpu-v5p-128", "division": "closed",
     "host_processor_model_name": "AMD EPYC 7B13", "host_processors_per_node": 2, "host_processor_core_count": 64,
     "accelerator_model_name": "TPU v5p", "accelerator_count": 128, "framework": "JAX 0.4",
     "results": {"resnet": 4.1, "bert": None}},
]  # fmt: skip
REPORT = {
    "config": {"name": "pytorch_bert", "backend": {"name": "pytorch", "model": "bert-base-uncased"},
               "scenario": {"name": "inference", "input_shapes": {"batch_size": 4, "sequence_length": 128}},
               "environment": {"gpu": ["NVIDIA A100-SXM4-80GB"], "gpu_count": 1, "torch_version": "2.3.0"}},
    "report": {"forward": {"memory": None, "energy": None,
                           "latency": {"unit": "s", "count": 5, "mean": 0.0104, "p50": 0.0102, "p90": 0.0109,
                                       "stdev": 0.0004, "values": [0.0100, 0.0102, 0.0101, 0.0109, 0.0108]},
                           "throughput": {"unit": "samples/s", "value": 384.6}}},
}  # fmt: skip
ALGO = (
    "global_step,preemption_count,score,accumulated_eval_time,accumulated_submission_time,accumulated_logging_time,"
    "total_duration,train/accuracy,train/loss,validation/accuracy,validation/loss,test/accuracy,test/loss\n"
    "1,0,0,10.5,0.0,1.0,12.0,0.10,2.3,0.10,2.3,0.09,2.3\n"
    "1000,0,0,20.5,3600.0,2.0,3700.0,0.55,1.3,0.45,1.4,0.44,1.4\n"
    "2000,2,0,30.5,7200.0,3.0,7400.0,0.85,0.6,0.74,0.9,0.70,0.9\n"
    "3000,2,0,40.5,10800.0,4.0,11100.0,0.95,0.3,0.78,0.8,0.76,0.8\n"
)
META = {"workload": "imagenet_resnet", "framework": "jax", "accelerator": "8x V100 16GB", "num_gpus": 8,
        "hyperparameters": {"learning_rate": 0.1}}  # fmt: skip
SMI = "".join(f"2020/06/23 19:08:{s:02d}.478, {50 + s}, {min(99, s * 9)} %, {s * 512} MiB\n" for s in range(30))


def test_an_mlperf_style_summary_takes_the_accelerator_columns_and_gives_minutes_to_train():
    raw = read_raw(json.dumps(MLPERF).encode(), "mlperf_training_summary.json")
    g = raw.guess
    assert g.fmt == "MLPerf-style system summary"
    assert g.roles["accelerator_model_name"] == "device" and g.roles["accelerator_count"] == "count"
    host = ("host_processor_model_name", "host_processors_per_node", "host_processor_core_count", "system_name")
    assert {g.roles[c] for c in host} == {"label"}  # never the device, the model or the count
    rows, notes = apply_import(raw.frame, g, "mlperf_training_summary.json")
    metric = "Time to train (min)"
    assert history.metric_columns(rows) == [metric] and history.higher_is_better(metric) is False
    h100 = rows[rows["hardware_key"] == "h100"].set_index("model")
    assert h100.loc["resnet", "device_count"] == 8 and h100.loc["bert", metric] == 5.4
    assert rows[rows["device_label"] == "TPU v5p"]["device_count"].tolist() == [128]
    assert "results.bert (1)" in notes[0]  # the benchmark Google did not submit
    (rate,) = [r for r, _ in rates_of_rows(rows, "m") if r.workload == "resnet" and "TPU" in r.label]
    assert rate.unit.startswith("1 ÷ Time to train (min)") and rate.value == pytest.approx(1 / 4.1)


def test_a_nested_report_is_runs_with_latency_median_p90_and_spread_not_a_sidecar():
    data = json.dumps(REPORT).encode()
    assert not is_sidecar(data, "benchmark.json")
    raw = read_raw(data, "benchmark.json")
    assert raw.guess.fmt.startswith("nested benchmark report")
    rows, _ = apply_import(raw.frame, raw.guess, "benchmark.json")
    one = rows.max(numeric_only=True)
    assert one["Latency median (s)"] == pytest.approx(0.0102) and one["Latency p90 (s)"] == pytest.approx(0.01086)
    assert one["Latency spread (%)"] == pytest.approx(4.02, abs=0.01) and one["examples_per_sec"] == 384.6
    assert set(rows["device_label"]) == {"A100 80GB"} and set(rows["model"]) == {"bert-base-uncased"}
    assert set(rows["global_batch_size"]) == {4} and history.higher_is_better("Latency p90 (s)") is False
    assert history.metric_columns(rows)[0] == "examples_per_sec"


def test_an_algoperf_style_log_pairs_its_meta_data_sidecar_and_keeps_splits_apart_on_train_time():
    name, side_name = "imagenet_resnet_eval_measurements.csv", "imagenet_resnet_meta_data_0.json"
    assert sidecar_for(name, [side_name, "other.json"]) == side_name
    assert sidecar_for("eval_measurements.csv", ["meta_data_0.json"]) == "meta_data_0.json"
    raw = read_raw(ALGO.encode(), name)
    g = raw.guess
    assert g.roles["preemption_count"] == "label"  # never the device count
    per_node = read_raw(b"gpu,gpus_per_node,preemption_count,img_per_sec\nA100,8,1,900\n", "n.csv").guess.roles
    assert per_node["gpus_per_node"] == "count" and per_node["preemption_count"] == "label"
    assert g.roles["accumulated_submission_time"] == "time" and g.roles["accumulated_eval_time"] == "label"
    rows, _ = apply_import(raw.frame, g, name, read_sidecar(json.dumps(META).encode(), side_name))
    splits = ["Train accuracy (%)", "Validation accuracy (%)", "Test accuracy (%)"]
    assert set(splits) <= set(history.metric_columns(rows))  # three curves, not one zig-zag
    assert set(rows["device_label"]) == {"V100"} and set(rows["device_count"]) == {8}
    assert set(rows["model"]) == {"imagenet_resnet"}
    tt = time_to_target(rows, "Validation accuracy (%)", 74.0)
    assert tt["hours"].tolist() == [pytest.approx(2.0)]  # elapsed train time, not eval time


def test_a_headerless_telemetry_log_draws_over_time_with_the_device_from_its_file_name():
    raw = read_raw(SMI.encode(), "8xA100_80GB_SXM4_monitor.csv")
    assert raw.guess.shape == "telemetry" and raw.guess.constants["device"] == "8x A100 80GB SXM4"
    rows, _ = apply_import(raw.frame, raw.guess, "8xA100_80GB_SXM4_monitor.csv")
    assert set(rows["device_label"]) == {"A100 80GB"} and set(rows["device_count"]) == {8}
    series, bucket = history.time_series(rows, "Utilization (%)", None)
    assert bucket == "second" and len(series) == 30 and series["Utilization (%)"].max() == 99
    bare = read_raw(SMI.encode(), "23-06-2020_19-08-09_monitor.csv")  # a name with no device: the user types it
    assert "device" not in bare.guess.constants


def test_accelerators_per_node_times_number_of_nodes_is_the_device_count():
    doc = [{"system_name": "dgxh100_n64", "host_processor_model_name": "Xeon 8480C", "host_processors_per_node": 2,
            "accelerator_model_name": "NVIDIA H100-SXM5-80GB", "accelerators_per_node": 8, "number_of_nodes": 64,
            "results": {"bert": 0.12}}]  # fmt: skip
    raw = read_raw(json.dumps(doc).encode(), "summary.json")
    assert raw.guess.roles["accelerators_per_node"] == "count" and raw.guess.roles["number_of_nodes"] == "nodes"
    rows, _ = apply_import(raw.frame, raw.guess, "summary.json")
    assert rows["device_count"].tolist() == [512] and rows["device_label"].tolist() == ["H100"]
