"""Issue 31 item 7: `results import FILE --auto [--out mapped.csv]` maps another tool's file headless with the
mapping the History page proposes — a known format's, the batch-size table and the sidecar found beside FILE — and
writes the long CSV with unit, device_label, device_count, model, metric, value; what it guessed goes to stderr.
One small file the test writes per shape of docs/importing.md's real files (in-process through engine.cli.main)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from test_import_public_files2 import ALGO, BENCH, MLLOG, REPORT
from test_import_real_files import DAWN_JSON, DAWN_TSV, SMI, VENDOR

from engine.cli import main

LONG = ["unit", "device_label", "device_count", "model", "metric", "value"]
BS = "name_gpu,num_gpu,resnet50,bert_large_squad\nLambdaCloud A10,1,32,8\nH100 80GB SXM5,1,256,32\n"
META = {"gpu_model_name": "Tesla V100-SXM2-16GB", "gpu_count": 8, "python_version": "3.8.10"}
# shape: (files written beside each other, FILE, extra args, (device_label, device_count, model, metric) of a row
# that must be there, its unit)
SHAPES = {
    "vendor table + batch table": ({"pytorch-train-throughput-fp32.csv": VENDOR, "pytorch-train-bs-fp32.csv": BS},
                                   "pytorch-train-throughput-fp32.csv", [],
                                   ("H100", 2, "resnet50", "examples_per_sec"), "images/s"),
    "DAWNBench log + sidecar": ({"entry.tsv": DAWN_TSV, "entry.json": json.dumps(DAWN_JSON)}, "entry.tsv", [],
                                ("V100", 32, "ResNet-50", "Top-5 accuracy (%)"), "%"),
    "nvidia-smi log, device typed": ({"monitor.csv": SMI}, "monitor.csv", ["--device", "RTX 2080 Ti"],
                                     ("RTX 2080 Ti", None, "monitor", "Temperature (C)"), "C"),
    "nested report": ({"benchmark.json": json.dumps(BENCH)}, "benchmark.json", [],
                      (None, 1, "BAAI/bge-base-en-v1.5", "examples_per_sec"), "samples/s"),
    "report alone, device typed": ({"benchmark_report.json": json.dumps(REPORT)}, "benchmark_report.json",
                                   ["--device", "Tesla T4"], ("T4", None, "benchmark_report", "Load latency (s)"), "s"),
    "MLPerf log": ({"result_0.txt": MLLOG}, "result_0.txt", [], ("H100", 64, "ssd", "examples_per_sec"), "samples/s"),
    "AlgoPerf log + sidecar": ({"eval_measurements.csv": ALGO, "meta_data_0.json": json.dumps(META)},
                               "eval_measurements.csv", [], ("V100", 8, "eval_measurements", "Test accuracy (%)"), "%"),
}  # fmt: skip


@pytest.mark.parametrize("shape", list(SHAPES))
def test_auto_maps_each_shape_headless_to_a_long_csv_with_units(shape, tmp_path, db, capsys):
    files, name, extra, (device, count, model, metric), unit = SHAPES[shape]
    for file, text in files.items():
        (tmp_path / file).write_text(text, encoding="utf-8")
    out = tmp_path / "mapped.csv"
    assert main(["results", "import", str(tmp_path / name), "--auto", "--out", str(out), *extra]) == 0
    err = capsys.readouterr().err
    assert err.startswith("guessed") and f"rows from {name}" in err
    long = pd.read_csv(out)
    assert list(long.columns[:6]) == LONG and long["unit"].notna().all()
    row = long[long["model"] == model]
    if device:
        row = row[row["device_label"] == device]
    if count:
        row = row[row["device_count"] == count]
    if metric:
        row = row[row["metric"] == metric]
    assert len(row) and set(row["unit"]) == {unit}, long[LONG].drop_duplicates().head(12)
    if "batch table" in shape:
        assert "Batch size from pytorch-train-bs-fp32.csv" in err
        assert 256 in set(pd.read_csv(out)["global_batch_size"])
    if "sidecar" in shape:
        assert "settings from the sidecar" in err
    if shape == "nested report":
        assert "ran on the CPU" in err  # config.backend.device: cpu on a host with a Tesla T4


def test_a_file_that_names_no_device_asks_for_one(tmp_path, db, capsys):
    (tmp_path / "monitor.csv").write_text(SMI, encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["results", "import", str(tmp_path / "monitor.csv"), "--auto"])
    assert exc.value.code == 2 and "--device" in capsys.readouterr().err
