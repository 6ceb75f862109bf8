"""The quirks of real public results files, each reproduced in a small file the test writes (never a copy):
a vendor throughput table (lambdal/deeplearning-benchmark's pytorch-train-throughput-fp32.csv shape), a
DAWNBench ImageNet entry (TSV + its JSON sidecar, stanford-futuredata/dawn-bench-entries), and a headerless
nvidia-smi log without a device column (lambdal's results/*/…_monitor.csv). See docs/importing.md."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from engine.imports.identity.systems import preview
from engine.imports.importer import apply_import, read_raw
from engine.imports.read.foreign_json import read_sidecar
from engine.imports.view.imported import scaling, time_to_target, to_long
from engine.results import history
from engine.results.errors import CsvError

# Lambda's shape: unitless model columns, a float count, 'watt' and a purchase 'price', host-prefixed
# system names, '8xV100' without a space, and 0.0 where a benchmark did not run.
VENDOR = (
    "name_gpu,num_gpu,watt,price,resnet50,bert_large_squad\n"
    "LambdaCloud A10,1.0,150.0,3125.0,349.0,19.0\n"
    "H100 80GB SXM5,1.0,700.0,36718.75,1753.0,141.0\n"
    "Dell 2x H100 80GB SXM5,2.0,1400.0,73437.5,3744.0,0.0\n"
    "LambdaCloud 8xV100 16GB,8.0,2400.0,79500.0,2817.0,70.0\n"
)
DAWN_TSV = "epoch\thours\ttop1Accuracy\ttop5Accuracy\n1\t0.25\t20.5\t41.0\n2\t0.5\t60.25\t83.0\n3\t0.75\t76.1\t93.1\n"
DAWN_JSON = {
    "version": "v1.0",
    "framework": "PyTorch 0.4.1",
    "model": "ResNet-50",
    "hardware": "4 p3.16xlarge (AWS)",
    "costPerHour": 97.92,
    "timestamp": "2018-09-06",
    "misc": {"mixed_precision": True, "batchSize": [{"batch_size": 8192, "epochs": 6}, {"batch_size": 16384}]},
}
SMI = "".join(f"{t}, {u} %, {m} MiB\n" for t, u, m in [(54, 0, 0), (56, 82, 10244), (70, 99, 9898), (71, 99, 9898)])


def test_a_vendor_throughput_table_reads_as_throughput_per_model_with_price_and_power():
    name = "vendor-train-throughput-fp16.csv"
    raw = read_raw(VENDOR.encode(), name)
    assert raw.guess.roles["price"] == "cost"  # a purchase price, not USD per hour
    assert raw.guess.roles["watt"] == "power" and raw.guess.roles["num_gpu"] == "count"
    assert {v.metric for v in raw.guess.values.values()} == {"Throughput"}  # from the file name
    assert raw.guess.constants["precision"] == "fp16"
    rows, notes = apply_import(raw.frame, raw.guess, name)
    assert len(rows) == 7 and "bert_large_squad (1)" in notes[0]  # the 0.0 is a benchmark that did not run
    metric = "examples_per_sec"  # images/s, lambdal's unit for resnet50: AccelBench's own axis, higher is better
    assert raw.guess.values["resnet50"].unit == "images/s" and raw.guess.values["resnet50"].direction == ""
    long = to_long(rows)
    per_usd, per_w = "Throughput per USD (examples/s per USD)", "Throughput per W (examples/s per W)"
    assert {per_usd, per_w, metric} <= set(long["metric"])
    assert history.metric_columns(rows)[0] == metric and history.metric_columns(rows)[-2:] == [per_usd, per_w]
    a10 = rows[(rows["model"] == "resnet50") & (rows["system"] == "LambdaCloud A10")].iloc[0]
    assert a10["device_label"] == "A10" and a10["precision"] == "fp16"
    assert a10[per_usd] == pytest.approx(349 / 3125)
    h100 = rows[rows["hardware_key"] == "h100"]
    assert sorted(h100["device_count"].dropna().unique()) == [1, 2]
    sc = scaling(rows[rows["model"] == "resnet50"], metric)
    assert sc.loc[sc["device_count"] == 2, "speedup"].iloc[0] == pytest.approx(3744 / 1753)


def test_host_and_cloud_prefixes_in_system_names():
    names = pd.Series(["LambdaCloud A10", "Dell 2x H100 80GB SXM5", "LambdaCloud 8xV100 16GB", "a2-highgpu-8g"])
    table = preview(names).set_index("system")
    assert table.loc["LambdaCloud A10", "device_model"] == "A10"
    assert table.loc["LambdaCloud A10", "provider"] == "LambdaCloud"
    assert table.loc["Dell 2x H100 80GB SXM5", ["device_count", "hardware_key"]].tolist() == [2, "h100"]
    assert table.loc["LambdaCloud 8xV100 16GB", ["device_count", "hardware_key"]].tolist() == [8, "v100"]
    assert table.loc["a2-highgpu-8g", ["device_count", "hardware_key"]].tolist() == [8, "a100"]


def test_a_dawnbench_entry_with_its_nested_sidecar_gives_time_and_cost_to_target():
    side = read_sidecar(json.dumps(DAWN_JSON, indent=4).encode(), "entry.json")
    raw = read_raw(DAWN_TSV.encode(), "entry.tsv")
    assert raw.guess.fmt == "DAWNBench training log" and raw.guess.time_unit == "h"
    rows, _ = apply_import(raw.frame, raw.guess, "entry.tsv", side)  # a batch-size schedule is not one number
    first = rows.iloc[0]
    assert (first["device_label"], first["device_count"]) == ("V100", 32)  # 4 instances × 8 V100
    assert first["precision"] == "mixed" and first["model"] == "ResNet-50" and pd.isna(first["global_batch_size"])
    assert first["meta.misc.batchSize"].startswith("[")
    tt = time_to_target(rows, "Top-1 accuracy (%)", 76.0)
    assert tt["hours"].iloc[0] == pytest.approx(0.75)
    assert tt["cost_usd"].iloc[0] == pytest.approx(0.75 * 97.92)


def test_a_headerless_nvidia_smi_log_without_a_device_column_takes_a_typed_device():
    raw = read_raw(SMI.encode(), "23-06-2020_19-08-09_monitor.csv")
    assert raw.guess.shape == "telemetry"
    assert {c: (v.metric, v.unit) for c, v in raw.guess.values.items()} == {
        "column 1": ("Temperature", "C"),  # temperature.gpu prints no unit
        "column 2": ("Utilization", "%"),
        "column 3": ("Memory used", "MiB"),
    }
    with pytest.raises(CsvError, match="type the device for every row"):
        apply_import(raw.frame, raw.guess, "log.csv")
    raw.guess.constants["device"] = "RTX 2080 Ti"
    rows, _ = apply_import(raw.frame, raw.guess, "log.csv")
    assert set(rows["device_label"]) == {"RTX 2080 Ti"} and rows["Temperature (C)"].max() == 71
    assert rows["step"].tolist()[:4] == [1, 2, 3, 4]  # samples in order: a log over time, not repeated runs


def test_a_gpu_index_column_stays_an_id():
    raw = read_raw(b"0, 54, 10 %\n1, 60, 20 %\n0, 55, 11 %\n", "log.csv")
    assert raw.guess.roles["column 1"] == "label" and raw.guess.values["column 2"].metric == "Temperature"
