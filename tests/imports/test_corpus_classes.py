"""Issue 43, classes of the foreign corpus that were wrong at first sight, on small files the tests write in each
tool's documented shape: Unix times (LLMPerf's `timestamp`) read as dates, a column that names no accelerator (an
engine, a weight file, a SUT's name) never taken for the device — History asks instead — and a printed summary framed
by ruling lines (MLPerf LoadGen's `mlperf_log_summary.txt`) read as `key : value` records."""

from __future__ import annotations

import json

import pytest

from engine.imports.importer import apply_import, read_raw
from engine.imports.view.default_view import add_views, default_metric
from engine.imports.view.imported import to_long
from engine.results.errors import CsvError
from engine.results.history import metric_columns, metric_title


def _import(text: str, name: str, device: str = ""):
    raw = read_raw(text.encode(), name)
    if device:
        raw.guess.constants["device"] = device
    return apply_import(raw.frame, raw.guess, name, None)[0]


def test_unix_seconds_are_dates_not_a_refusal():
    rows = [{"name": "run", "timestamp": 1703136129, "results_mean_output_throughput_token_per_s": 21.5}]
    frame = _import(json.dumps(rows), "summary.json", device="H100")
    assert str(frame["date"].dt.year.iloc[0]) == "2023"


@pytest.mark.parametrize("engine", ["openai", "transformers+device_map_auto", "FLUX.1-dev-int8.safetensors"])
def test_a_column_naming_no_accelerator_is_not_the_device(engine):
    rows = [{"backend": engine, "tokens_per_s": 40.0}, {"backend": engine, "tokens_per_s": 41.0}]
    with pytest.raises(CsvError, match="system or device"):
        _import(json.dumps(rows), "bench.json")  # asks for the device rather than charting `openai` as one
    assert set(_import(json.dumps(rows), "bench.json", device="L40S")["device_label"]) == {"L40S"}


def test_a_column_that_names_accelerators_still_is_the_device():
    rows = [{"backend": "NVIDIA RTX 4090", "tokens_per_s": 40.0}, {"backend": "8xH100", "tokens_per_s": 41.0}]
    assert {"RTX 4090", "H100"} <= set(_import(json.dumps(rows), "bench.json")["device_label"])


SUMMARY = """================================================
MLPerf Results Summary
================================================
SUT name : PySUT
Scenario : Offline
Samples per second: 17.8765
Result is : VALID

================================================
Additional Stats
================================================
Min latency (ns)                : 6803086083
50.00 percentile latency (ns)   : 16012287917
99.90 percentile latency (ns)   : 27969741000

================================================
Test Parameters Used
================================================
print_timestamps : 0
No warnings encountered during test.
"""


def test_a_summary_framed_by_ruling_lines_is_read_as_key_value_records():
    frame = _import(SUMMARY, "mlperf_log_summary.txt", device="RTX 4090")
    values = set(to_long(frame)["value"].round(4))
    assert 17.8765 in values and 27969741000.0 in values  # a digit-led key (`99.90 percentile …`) is read too
    assert set(frame["device_label"]) == {"RTX 4090"}  # `SUT name : PySUT` is not taken for the device
    with pytest.raises(CsvError, match="system or device"):
        _import(SUMMARY, "mlperf_log_summary.txt")


LONG = """metric,value,unit
device,NVIDIA GeForce RTX 4090,
model,openai/gpt-oss-20b,
num_prompts,100,
request_throughput,3.12,req/s
output_token_throughput,912.4,tok/s
peak_output_throughput,1450.0,tok/s
total_token_throughput,3100.7,tok/s
mean_ttft_ms,81.5,ms
"""


def test_a_metric_value_unit_table_is_one_record_with_its_headline_rate():
    frame = _import(LONG, "bench.csv")
    assert set(frame["device_label"]) == {"RTX 4090"} and set(frame["device_count"]) == {1}  # a device's own name
    view = add_views(frame)
    metric = default_metric(view, metric_columns(view))
    assert metric_title(metric) == "output token throughput (tokens/s)"  # not the request rate, not the peak
    assert set(view[metric].dropna()) == {912.4}  # never pooled with the other tokens/s rates


def test_statistics_of_one_measure_share_its_metric():
    rows = [{"gpu": "L40S", "mean_tok_s": 40.0, "median_tok_s": 41.0}]
    frame = _import(json.dumps(rows), "bench.json")
    assert [metric_title(m) for m in metric_columns(frame)] == ["Throughput (tokens/s)"]


def _mllog(*events: dict) -> str:
    return "".join(f":::MLLOG {json.dumps({'namespace': '', 'event_type': 'POINT_IN_TIME', **e})}\n" for e in events)


HPC = _mllog(
    {"key": "submission_platform", "value": "8xA100", "time_ms": 0},
    {"key": "number_of_nodes", "value": 16, "time_ms": 0},
    {"key": "accelerators_per_node", "value": 8, "time_ms": 0},
    {"key": "run_start", "value": None, "time_ms": 1000},
    {"key": "eval_error", "value": 0.04, "time_ms": 60000, "metadata": {"epoch_num": 1}},
    {"key": "run_stop", "value": None, "time_ms": 1000 + 90 * 60000, "metadata": {"status": "success"}},
)


def test_an_mllog_without_eval_accuracy_gives_its_time_to_train_on_its_platform():
    frame = _import(HPC, "result_1.txt")  # MLPerf HPC logs eval_error, not accuracy: once refused
    long = to_long(frame)
    assert long.loc[long["unit"] == "min", "value"].round(6).tolist() == [90.0]
    assert set(frame["device_label"]) == {"A100"} and set(frame["device_count"]) == {128}  # 8 per node × 16 nodes


def test_an_mllog_of_loadgen_results_is_read_as_its_result_keys():
    detail = _mllog(
        {"key": "result_samples_per_second", "value": 17.5, "time_ms": 5},
        {"key": "result_mean_latency_ns", "value": 6803086083, "time_ms": 5},
        {"key": "result_validity", "value": "VALID", "time_ms": 5},
    )
    long = to_long(_import(detail, "mlperf_log_detail.txt", device="RTX 4090"))
    assert set(long["value"]) == {17.5, 6803086083.0} and "ns" in set(long["unit"])


REPORT = """# all-reduce on one node of 8x H100

Run with `all_reduce_bench.py`; sizes from 32KiB, each twice the last.

| payload |    busbw   |    algbw   |
| ------: | ---------: | ---------: |
|   32KiB |   1.44GBps |   0.82GBps |
|   64KiB |   2.93GBps |   1.67GBps |
|  128KiB |   5.73GBps |   3.27GBps |
|  256KiB |  39.93GBps |  22.82GBps |

- measured: 2026-08-04
"""


def test_a_markdown_table_in_prose_is_read_with_its_sizes_as_a_sweep():
    raw = read_raw(REPORT.encode(), "all-reduce-8xH100.md")  # the name says the device, as the real report's does
    assert raw.guess.roles["payload"] == "setting"  # 32KiB … 256KiB is what was swept, not a memory reading
    frame = apply_import(raw.frame, raw.guess, "all-reduce-8xH100.md", None)[0]
    long = to_long(frame)
    assert set(long["unit"]) == {"GB/s"} and 39.93 in set(long["value"])
    assert raw.frame["_row"].tolist()[0] == 7  # the file's own line, for any message naming a row
    view = add_views(frame)
    metric = default_metric(view, metric_columns(view))
    assert metric_title(metric) == "bus bandwidth (GB/s)"  # nccl-tests' figure to compare with the hardware's peak
    assert not any("per device" in metric_title(m) for m in metric_columns(view))  # a bandwidth is never summed


def test_a_statistic_after_the_unit_keeps_the_unit_and_the_headline_is_the_mean_output_rate():
    row = {
        "model": "llama-2-7b", "results_end_to_end_latency_s_min": 2.5, "results_end_to_end_latency_s_quantiles_p50": 3.1,
        "results_mean_output_throughput_token_per_s": 207.5,
        "results_request_output_throughput_token_per_s_stddev": 1.9,
        "results_request_output_throughput_token_per_s_quantiles_p50": 25.8,
    }  # fmt: skip
    view = add_views(_import(json.dumps([row]), "summary.json", device="A100"))
    titles = [metric_title(m) for m in metric_columns(view)]
    assert "Latency min (s)" in titles  # `_s_min`: seconds, the minimum — never minutes
    assert metric_title(default_metric(view, metric_columns(view))).startswith("results mean output throughput")


def test_a_failed_run_is_a_missing_value_not_a_refusal():
    table = "gpu,batch_size,samples_per_second\nV100,16,120.5\nV100,32,FAILED\nV100,64,Error\n"
    frame = _import(table, "results.csv")
    assert sorted(to_long(frame)["value"].tolist()) == [120.5]  # the failed runs are kept out, the file imported


def test_a_time_per_epoch_is_a_measurement_not_the_time_axis():
    table = "batch_size,avg_time_per_epoch\n32,670.9\n64,643.1\n128,646.9\n"
    raw = read_raw(table.encode(), "results.csv")
    assert raw.guess.roles["avg_time_per_epoch"] == "value"  # once taken for the axis: "nothing is a measurement"
    assert 670.9 in set(to_long(_import(table, "results.csv", device="TITAN RTX"))["value"])


def test_history_accepts_every_kind_of_file_the_corpus_holds():
    """The page's uploader refuses a suffix it does not list before the importer sees the file: a Markdown report
    (nccl-tests, a torch.distributed all-reduce report) was refused on the web though the importer reads it."""
    import json
    from pathlib import Path

    from engine.results.history_files import FILE_TYPES

    expected = json.loads((Path(__file__).parents[1] / "data" / "foreign" / "EXPECTED.json").read_text())
    suffixes = {Path(name).suffix.lower().lstrip(".") for name in expected["files"]}
    assert suffixes and suffixes <= set(FILE_TYPES), suffixes - set(FILE_TYPES)
