"""Issue 43, class A of the foreign corpus: the default chart's metric keeps the file's own name and unit. A rate the
file names itself (Hugging Face Trainer's `train_samples_per_second`, LoadGen's `Samples per second`, vLLM's
`output_throughput`) is titled in its words, not renamed to a generic `Throughput (examples/s)` that hides which of
several rates it is; its family (examples/s) still reaches Compare. Small files in each tool's documented shape."""

from __future__ import annotations

import json

from engine.imports.importer import apply_import, read_raw
from engine.imports.view.default_view import add_views, default_metric
from engine.imports.view.imported_rates import rates_of_rows
from engine.results.history import metric_columns, metric_title


def _import(text: str, name: str, device: str = "H100"):
    raw = read_raw(text.encode(), name)
    raw.guess.constants["device"] = device
    return apply_import(raw.frame, raw.guess, name, None)[0]


def _default(frame) -> str:
    view = add_views(frame)
    return metric_title(default_metric(view, metric_columns(view)))


def test_a_rate_named_by_its_file_keeps_its_name_and_joins_the_examples_family_on_compare():
    rows = [{"batch_size": b, "train_samples_per_second": r, "train_loss": 0.3} for b, r in ((16, 142.9), (32, 150.1))]
    frame = _import(json.dumps(rows), "results.json")
    assert _default(frame) == "train samples per second (samples/s)"
    rates = [r for r, _ in rates_of_rows(frame, "results.json") if "samples per second" in r.id]
    assert rates and {r.unit for r in rates} == {"examples/s"}  # still AccelBench's examples/s family


def test_a_rate_given_only_by_its_unit_stays_the_generic_throughput():
    rows = [{"model": "resnet50", "images_per_sec": 1200.0}, {"model": "bert", "images_per_sec": 400.0}]
    assert _default(_import(json.dumps(rows), "bench.json")) == "Throughput (examples/s)"


def test_serving_rates_get_their_documented_units_and_the_output_rate_is_the_headline():
    doc = {"request_throughput": 3.99, "input_throughput": 506.6, "output_throughput": 510.6,
           "total_token_throughput": 1017.3, "max_output_tokens_per_s": 536.0, "mean_ttft_ms": 110.4}  # fmt: skip
    frame = _import(json.dumps(doc), "vllm.json")
    assert _default(frame) == "output throughput (tokens/s)"  # not the one-second peak, not the total
    assert frame["request throughput (requests/s)"].dropna().tolist() == [3.99]


def test_a_serving_summary_lists_its_rate_before_its_latencies():
    doc = {"results_end_to_end_latency_s_quantiles_p50": 2.26, "results_inter_token_latency_s_quantiles_p50": 0.015,
           "results_request_output_throughput_token_per_s_quantiles_p50": 25.8,
           "results_mean_output_throughput_token_per_s": 207.5}  # fmt: skip
    frame = _import(json.dumps(doc), "summary.json")
    p50 = [m for m in metric_columns(frame) if "p50" in m]
    assert "output throughput" in p50[0]  # the p50 of the rate the chart opens on, before the latencies' p50
    assert _default(frame) == "results mean output throughput token per s (tokens/s)"


def test_a_time_per_epoch_without_a_unit_is_read_as_seconds_and_said():
    text = "batch_size,avg_time_per_epoch\n16,816.16\n32,411.52\n64,210.21\n"
    raw = read_raw(text.encode(), "results.csv")
    assert any("avg_time_per_epoch: no unit given, read as seconds" in s for s in raw.guess.said)
    frame = _import(text, "results.csv")
    assert _default(frame) == "avg time per epoch (s)" and frame["avg time per epoch (s)"].max() == 816.16


def test_a_fine_tune_report_opens_on_its_training_not_its_inference_check():
    text = ("metric,value,unit\nmodel_name,google/gemma-3-270m-it,\nnum_epochs,3,\nbatch_size,8,\n"
            "total_train_time,81.59,seconds\ninference_total_time,14.75,seconds\n"
            "inference_samples_per_second,3.39,samples/s\ninference_tokens_per_second,106.15,tokens/s\n")  # fmt: skip
    frame = _import(text, "bench.csv")
    assert _default(frame) == "total train time (s)"  # one record: its train time is a result, not a time axis
    assert frame["total train time (s)"].dropna().tolist() == [81.59]


CHECKER_ROWS = [
    {"Model": "retinanet", "Scenario": "offline", "Result": 0.421941, "number_of_nodes": 1,
     "host_processor_model_name": "AMD EPYC 7763", "accelerator_model_name": "H100", "accelerators_per_node": 1,
     "errors": 0, "inferred": 1, "Units": "Samples/s"},
    {"Model": "stable-diffusion-xl", "Scenario": "offline", "Result": 0.342746, "number_of_nodes": 1,
     "host_processor_model_name": "AMD EPYC 9654", "accelerator_model_name": "H100", "accelerators_per_node": 2,
     "errors": 0, "inferred": 0, "Units": "Samples/s"},
]  # fmt: skip


def test_the_submission_checkers_table_takes_results_unit_from_its_units_column():
    text = ",".join(CHECKER_ROWS[0]) + "\n" + "".join(",".join(map(str, r.values())) + "\n" for r in CHECKER_ROWS)
    frame = _import(text, "summary.csv")
    assert metric_columns(frame) == ["Result (Samples/s)"]  # not minutes to train; errors, inferred are flags
    assert set(frame["unit"]) == {"Samples/s"}


def test_a_json_table_keyed_by_row_number_is_its_rows():
    doc = {str(i): r for i, r in enumerate(CHECKER_ROWS)}  # pandas' to_json(orient="index")
    frame = _import(json.dumps(doc), "summary.json")
    sdxl = frame[frame["model"] == "stable-diffusion-xl"]
    assert sdxl["Result (Samples/s)"].tolist() == [0.342746]


def test_a_report_of_tests_that_name_their_metric_opens_on_the_training_test():
    def test(name: str, metric: str, value: float, unit: str, **details: float) -> dict:
        return {"name": name, "status": "PASS", "metric_name": metric, "metric_value": value, "metric_unit": unit,
                "duration_seconds": 3.5, "details": details}  # fmt: skip

    doc = {"timestamp": "2025-12-16T03:43:21Z",
           "cluster_info": {"nodes": 1, "gpus_per_node": 8, "gpu_model": "NVIDIA H100 80GB HBM3", "cuda_version": "12.1"},
           "results": {"gpu_health": {"status": "PASS", "message": "All GPUs healthy"},
                       "matmul_benchmark": test("matmul_benchmark", "tflops", 74.32, "TFLOPS", size=16384),
                       "nccl_benchmark": test("nccl_benchmark", "all_reduce_bandwidth", 442.93, "GB/s", world_size=8),
                       "training_benchmark": test("training_benchmark", "tokens_per_second", 331772.1, "tokens/s",
                                                  tokens_per_gpu=41471.5, seq_length=512)}}  # fmt: skip
    frame = _import(json.dumps(doc), "benchmark_full.json", device="")
    assert sorted(metric_columns(frame)) == [
        "all_reduce_bandwidth (GB/s)", "tflops (TFLOPS)", "tokens_per_second (tokens/s)",
    ]  # one row per test; the CUDA version and the tests' details are not values of their metric  # fmt: skip
    assert "tokens_per_second" in _default(frame)  # the end-to-end training test, not the matmul micro-benchmark
    assert set(frame["device_count"]) == {8}
