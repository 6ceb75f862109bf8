"""Quirks of more real public results files (issue 22), each reproduced in a small file the test writes (never
a copy): optimum-benchmark's benchmark.json (a CPU run on a host with a GPU; a one-iteration `load` section) and
its bare benchmark_report.json (no environment), an MLPerf Training result log (`:::SYSJSON` + `:::MLLOG`
events), an MLPerf system description, and an AlgoPerf eval_measurements.csv with its meta_data_0.json. See
docs/importing.md."""

from __future__ import annotations

import json

import pytest

from engine.imports.importer import apply_import, read_raw
from engine.imports.read.foreign_json import is_sidecar, read_sidecar
from engine.imports.read.known_formats import system_description
from engine.imports.shape.sidecar import sidecar_roles
from engine.imports.view import default_view as dv
from engine.results import history, history_files
from engine.results.errors import CsvError

LAT = {"unit": "s", "count": 3, "values": [1.0, 1.2, 1.1], "p50": 1.1, "p90": 1.18, "stdev": 0.08, "mean": 1.1}
REPORT = {
    "load": {"latency": {"unit": "s", "values": [15.6], "count": 1}, "throughput": None},
    "forward": {"latency": LAT, "throughput": {"unit": "samples/s", "value": 5.6}},
}
BENCH = {
    "config": {"backend": {"name": "py-txi", "model": "BAAI/bge-base-en-v1.5", "device": "cpu", "device_ids": None},
               "scenario": {"input_shapes": {"batch_size": 64}},
               "environment": {"cpu": " Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", "gpu": ["Tesla T4"],
                               "gpu_count": 1, "transformers_version": "4.45.2"}},
    "report": REPORT,
}  # fmt: skip
SYS = {"system_name": "Eos_n8", "number_of_nodes": "8", "host_processor_model_name": "Intel(R) Xeon(R) 8480C",
       "accelerators_per_node": "8", "accelerator_model_name": "NVIDIA H100-SXM5-80GB", "framework": "PyTorch 24.04",
       "accelerator_memory_capacity": "81559 MiB"}  # fmt: skip


def _ev(t: int, key: str, value: object, **meta: object) -> str:
    doc = {"namespace": "", "time_ms": t, "event_type": "POINT_IN_TIME", "key": key, "value": value, "metadata": meta}
    return ":::MLLOG " + json.dumps(doc) + "\n"


MLLOG = (
    ":::SYSJSON " + json.dumps(SYS) + "\n" + "some launcher line, not an event\n"
    + _ev(0, "submission_benchmark", "ssd") + _ev(1, "global_batch_size", 256) + _ev(60_000, "run_start", None)
    + _ev(150_000, "tracked_stats", {"throughput": 211.7}, step=1) + _ev(160_000, "eval_accuracy", 0.20, epoch_num=1)
    + _ev(250_000, "tracked_stats", {"throughput": 212.1}, step=2) + _ev(260_000, "eval_accuracy", 0.34, epoch_num=2)
    + _ev(261_000, "run_stop", None, status="success")
)  # fmt: skip
ALGO = (
    "accumulated_eval_time,accumulated_submission_time,global_step,preemption_count,score,test/accuracy,"
    "test/num_examples,total_duration,validation/accuracy,validation/loss,validation/num_examples\n"
    "37.3,55.7,1,0,55.7,0.0013,10000,93.1,0.0007,6.9,50000\n"
    "55.2,565.8,1500,0,565.8,0.048,10000,621.1,0.069,5.4,50000\n"
)
META = {"workload.eval_batch_size": 1024, "gpu.count": 8, "os_platform": "Linux-4.19.0-26-cloud-amd64-x86_64",
        "python_version": "3.8.10", "cpu_model_name": "Intel(R) Xeon(R) CPU @ 2.00GHz", "cpu_count": 64,
        "gpu_model_name": "Tesla V100-SXM2-16GB", "gpu_count": 8}  # fmt: skip


def test_a_cpu_run_on_a_gpu_host_is_the_cpu_and_loading_is_not_a_forward_latency():
    raw = read_raw(json.dumps(BENCH).encode(), "benchmark.json")
    rows, _ = apply_import(raw.frame, raw.guess, "benchmark.json")
    stats = rows[rows["step"].isna()]
    assert set(stats["run_id"].str.rsplit(":", n=1).str[0]) == {"benchmark.json:1"}  # one run
    assert set(rows["device_label"]) == {"Xeon Platinum 8259CL"}  # the CPU (its brand string read), not the T4
    assert "ran on the CPU" in raw.how and "Tesla T4" in raw.how  # the contradiction is said where it is read
    series = rows.dropna(subset=["step"])  # issue 31 item 6: each measured iteration, a series
    assert series["step"].tolist() == [1, 2, 3] and series["Latency (s)"].tolist() == LAT["values"]
    one = rows.max(numeric_only=True)
    assert one["Latency median (s)"] == pytest.approx(1.1) and one["Load latency (s)"] == pytest.approx(15.6)
    assert one["examples_per_sec"] == 5.6 and history.metric_columns(rows)[0] == "examples_per_sec"


def test_a_bare_report_asks_for_the_device_instead_of_refusing_on_an_empty_cell():
    raw = read_raw(json.dumps(REPORT).encode(), "benchmark_report.json")
    assert "device" not in raw.guess.roles.values() and "system" not in raw.guess.roles.values()
    with pytest.raises(CsvError, match="type the device for every row"):
        apply_import(raw.frame, raw.guess, "benchmark_report.json")
    raw.guess.constants["system"] = "Tesla T4"  # what the page's "Device for every row" box sets
    rows, _ = apply_import(raw.frame, raw.guess, "benchmark_report.json")
    assert set(rows["device_label"]) == {"T4"}


def test_an_mlperf_result_log_is_eval_accuracy_over_minutes_on_its_sysjson_system():
    raw = read_raw(MLLOG.encode(), "result_0.txt")
    g = raw.guess
    assert g.fmt.startswith("MLPerf Training log") and g.shape == "timeseries" and g.time_unit == "min"
    assert g.roles["accelerators_per_node"] == "count" and g.roles["number_of_nodes"] == "nodes"
    rows, _ = apply_import(raw.frame, g, "result_0.txt")
    assert set(rows["model"]) == {"ssd"} and set(rows["device_count"]) == {64} and set(rows["hardware_key"]) == {"h100"}
    assert sorted(rows["elapsed_s"].dropna().unique()) == pytest.approx([100.0, 200.0])  # minutes after run_start
    assert rows["examples_per_sec"].max() == 212.1 and set(rows["global_batch_size"]) == {256}
    with pytest.raises(CsvError, match="no eval_accuracy"):
        read_raw(MLLOG.split("+")[0].split(":::MLLOG")[0] + _ev(0, "run_start", None), "result_1.txt")


def test_an_mlperf_system_description_is_settings_and_its_memory_is_not_a_measurement():
    data = json.dumps(SYS).encode()
    assert is_sidecar(data, "eos_n8_ngc24.04_pytorch.json")  # the page says it holds no results
    raw = read_raw(data, "eos_n8_ngc24.04_pytorch.json")
    assert raw.guess.roles["accelerator_memory_capacity"] == "label" and not raw.guess.columns("value")


def test_algoperf_meta_data_gives_the_gpu_not_the_cpu_or_the_os_and_split_sizes_are_not_metrics():
    roles = sidecar_roles(read_sidecar(json.dumps(META).encode(), "meta_data_0.json"))
    assert roles["system"] == "Tesla V100-SXM2-16GB" and roles["count"] == "8"
    assert "model" not in roles and "framework" not in roles and "batch" not in roles
    raw = read_raw(ALGO.encode(), "eval_measurements.csv")
    assert raw.guess.fmt == "AlgoPerf eval measurements"
    assert {raw.guess.roles[c] for c in ("score", "test/num_examples", "validation/num_examples")} == {"label"}
    rows, _ = apply_import(raw.frame, raw.guess, "eval_measurements.csv", read_sidecar(json.dumps(META).encode()))
    assert set(rows["hardware_key"]) == {"v100"} and set(rows["device_count"]) == {8}
    assert not [c for c in history.metric_columns(rows) if "num_examples" in c or c == "score"]


def test_an_mlperf_throughput_logged_per_gpu_becomes_the_systems_rate_by_the_logs_own_epoch_timing():
    # NVIDIA's real SSD log (64 H100, global batch 256): tracked_stats 211.6 while an epoch of 4,572 iterations ×
    # 256 images takes 86.4 s — 13,545 images/s for the system, so 211.6 is per GPU.
    timed = MLLOG.replace(
        _ev(60_000, "run_start", None),
        _ev(60_000, "run_start", None) + _ev(60_001, "train_samples", 4572)
        + _ev(60_000, "epoch_start", 0) + _ev(146_400, "epoch_stop", 0)
        + _ev(146_500, "epoch_start", 1) + _ev(232_900, "epoch_stop", 1),
    )  # fmt: skip
    raw = read_raw(timed.encode(), "result_0.txt")
    rows, _ = apply_import(raw.frame, raw.guess, "result_0.txt")
    assert rows["examples_per_sec"].max() == pytest.approx(212.1 * 64)
    per_gpu = dv.add_views(history_files.combine([rows]))
    assert per_gpu[dv.per_device_name("examples_per_sec")].max() == pytest.approx(212.1)
    # without epoch timing to tell, the figure is taken as logged
    assert read_raw(MLLOG.encode(), "result_0.txt").frame["throughput (samples/s)"].iloc[-1] == "212.1"


def test_a_system_description_alone_names_its_system_and_where_its_results_are():
    said = system_description({k: str(v) for k, v in SYS.items()}, "eos_n8_ngc24.04_pytorch")
    assert said and "64 × NVIDIA H100-SXM5-80GB" in said and "results/eos_n8_ngc24.04_pytorch/" in said
    assert system_description({"workload.eval_batch_size": "1024"}) is None  # any other sidecar: as before


def test_a_training_logs_bar_is_the_best_accuracy_reached_not_a_median_over_its_epochs():
    raw = read_raw(ALGO.encode(), "eval_measurements.csv")
    rows, _ = apply_import(raw.frame, raw.guess, "eval_measurements.csv", read_sidecar(json.dumps(META).encode()))
    df = dv.add_views(history_files.combine([rows]))
    assert dv.default_how(df, "Test accuracy (%)") == "max" and dv.default_how(df, "Loss") == "median"


def test_a_gpu_run_whose_environment_lists_no_gpu_is_flagged_and_never_named_after_the_hosts_cpu():
    env = {k: v for k, v in BENCH["config"]["environment"].items() if k not in ("gpu", "gpu_count")}
    bench = {**BENCH, "config": {**BENCH["config"], "backend": {**BENCH["config"]["backend"], "device": "cuda"},
                                 "environment": env}}  # fmt: skip
    raw = read_raw(json.dumps(bench).encode(), "benchmark.json")
    assert "ran on cuda" in raw.how and "lists no GPU" in raw.how
    with pytest.raises(CsvError, match="type the device for every row"):  # the page's Device box asks
        apply_import(raw.frame, raw.guess, "benchmark.json")
