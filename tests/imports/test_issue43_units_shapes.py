"""Issue 43, items 3 and 4: units wherever the file keeps them (header annotations, the file name, the folder path, a
sidecar named otherwise), a time per step turned into examples/s when the batch is known (both shown), and the
`key : value` text log. Small files written by the tests; the page's path and the CLI are the same pipeline."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from engine.cli import main
from engine.imports.facts.import_mapping import mapping_from_json
from engine.imports.importer import apply_import, read_raw
from engine.imports.read.foreign_json import sidecar_for
from engine.imports.view.default_view import add_views, pooled
from engine.results.history import metric_columns


@pytest.mark.parametrize(
    "header, metric, unit",
    [
        ("Throughput (T/s/GPU)", "Throughput per device", "tokens/s"),  # one GPU's rate, not tonnes or 't/s'
        ("Throughput (S/s)", "Throughput", "samples/s"),  # samples, never seconds per second
        ("MFU", "MFU", "%"),  # a percentage stays a percentage
        ("step time [ms]", "Time per step", "ms"),
        ("latency_ms", "Latency", "ms"),
        ("GPU util", "GPU util", "%"),
        ("images_per_sec", "Throughput", "images/s"),
    ],
)
def test_header_annotations_give_the_unit(header, metric, unit):
    text = f"gpu,model,{header}\nH100,bert,41.5\nA100,bert,30.5\n"
    spec = read_raw(text.encode(), "t.csv").guess.values[header]
    assert (spec.metric, spec.unit) == (metric, unit)


STEP_TIMES = "resnet50,vgg16\n100.0,250.0\n99.8,251.2\n100.2,249.9\n100.0,250.0\n"  # ms per training step


def test_ms_per_step_with_the_batch_in_the_name_and_a_sidecar_named_otherwise(tmp_path, capsys):
    """pytorch-gpu-benchmark's shape: one column per model, one timed iteration per row, no unit in the file; the
    batch and precision in the file name, the GPU in a `config.json` beside it."""
    name = "bench_bs64_half_model_train_benchmark.csv"
    (tmp_path / name).write_text(STEP_TIMES, encoding="utf-8")
    (tmp_path / "config.json").write_text(json.dumps({"gpu": "RTX 3090", "framework": "PyTorch 2.1"}), "utf-8")
    assert sidecar_for(name, ["config.json"], tables=1) == "config.json"  # the page pairs them too
    assert sidecar_for(name, ["config.json"], tables=2) is None  # two tables: which one is not said
    assert main(["results", "import", str(tmp_path / name), "--auto"]) == 0
    out, err = capsys.readouterr()
    long = pd.read_csv(pd.io.common.StringIO(out))
    rate = long[(long["model"] == "resnet50") & (long["metric"] == "examples_per_sec")]["value"]
    assert rate.median() == pytest.approx(64 / 0.1)  # 64 examples per 100 ms step
    time = long[(long["model"] == "resnet50") & (long["metric"] == "Time per step (ms)")]
    assert time["value"].median() == pytest.approx(100.0) and set(time["unit"]) == {"ms"}  # both shown
    assert set(long["device_label"]) == {"RTX 3090"} and set(long["precision"]) == {"fp16"}
    assert set(long["global_batch_size"]) == {64}
    assert (
        "settings from the sidecar config.json beside it" in err
        and "batch 64 from the file name" in err
        and "precision fp16 from the file name" in err
    )
    assert "unit ms per step from the file name" in err and "Throughput (examples/s) = the batch ÷" in err


def test_the_device_count_and_scenario_from_the_folder(tmp_path, capsys):
    folder = tmp_path / "8xMI300X" / "llama2-70b" / "Offline"
    folder.mkdir(parents=True)
    (folder / "results.csv").write_text("model,tokens_per_sec\nllama2-70b,21000\nllama2-70b,21400\n", "utf-8")
    assert main(["results", "import", str(folder / "results.csv"), "--auto"]) == 0
    out, err = capsys.readouterr()
    long = pd.read_csv(pd.io.common.StringIO(out))
    assert set(long["device_label"]) == {"MI300X"} and set(long["device_count"]) == {8}
    assert set(long["setting.scenario"]) == {"Offline"}
    assert "device 8x MI300X from the folder '8xMI300X'" in err and "scenario Offline from the folder" in err
    assert "device count from the device given for every row" in err


LOG = """Model : resnet50
Batch size : 64
Precision : fp16
Device : A100
Throughput : 1234.5 images/sec
Latency (ms) : 51.8

Model : resnet50
Batch size : 64
Precision : fp16
Device : H100
Throughput : 2234.5 images/sec
Latency (ms) : 28.8
"""


def test_a_key_value_log_is_one_row_per_summary():
    raw = read_raw(LOG.encode(), "bench.log")
    assert raw.how.startswith("`key : value` log, 2 records")
    rows, _ = apply_import(raw.frame, raw.guess, "bench.log")
    assert rows["device_label"].tolist() == ["A100", "H100", "A100", "H100"]
    assert set(metric_columns(rows)) == {"examples_per_sec", "Latency (ms)"}  # images/sec → examples/s axis
    assert rows["examples_per_sec"].dropna().tolist() == [1234.5, 2234.5]
    assert set(rows["global_batch_size"]) == {64} and set(rows["precision"]) == {"fp16"}


def test_a_reports_keys_split_into_benchmark_parameters_and_metric():
    """`gemm.fp16.m4096.time_ms`: benchmark `gemm.fp16`, parameter m = 4096 (a setting of its rows), metric Time."""
    record = {"gpu": "H100"} | {
        f"{op}.fp16.m{size}.{metric}": 1.0 + size / 1024 + i
        for i, op in enumerate(("gemm", "conv", "attn"))
        for size in (1024, 2048, 4096, 8192)
        for metric in ("time_ms", "tflops")
    }  # 24 keys
    text = "\n".join(json.dumps(record | {"gpu": gpu}) for gpu in ("H100", "A100")) + "\n"
    raw = read_raw(text.encode(), "kernels.jsonl")
    spec = raw.guess.values["gemm.fp16.m4096.time_ms"]
    assert (spec.model, spec.settings, spec.metric, spec.unit) == ("gemm.fp16", {"m": "4096"}, "Time", "ms")
    assert mapping_from_json(raw.guess.to_json()).values["gemm.fp16.m4096.time_ms"].settings == {"m": "4096"}
    rows, _ = apply_import(raw.frame, raw.guess, "kernels.jsonl")
    gemm = rows[(rows["model"] == "gemm.fp16") & (rows["device_label"] == "H100")].dropna(subset=["Time (ms)"])
    assert sorted(gemm["setting.m"].astype(int)) == [1024, 2048, 4096, 8192]  # four sizes, never one median
    view = add_views(rows)
    assert pooled(view, ["configuration", "workload"], "Time (ms)").empty
