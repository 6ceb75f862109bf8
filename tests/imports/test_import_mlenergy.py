"""Issue 37: ML.ENERGY's leaderboard JSON (github.com/ml-energy/leaderboard, public/data/models/*.json) — a document
whose `configurations[]` are GPU × count × batch runs and whose top level names the model, task and precision.
Top-level facts reach every row, histogram arrays are never rows or names, a measured average batch (7.998) is a
measurement (not the batch role, which must be whole), and each GPU × batch is its own row with its tokens/s —
headless (`results import --auto`) and through the path the History page takes (read_raw → apply_import →
add_views, per device). The file is written by the test, in the real file's shape (values invented)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from engine.cli import main
from engine.imports.importer import apply_import, read_raw
from engine.imports.view.default_view import add_views, per_device_name

NAME = "Qwen__Qwen3-8B__gpqa.json"
_BINS = [2.0 + 81.88 * i for i in range(51)]


def _config(gpu: str, gpus: int, seqs: int, avg_batch: float, tokens_per_s: float) -> dict:
    return {"avg_batch_size": avg_batch, "avg_output_len": 400.1, "avg_power_watts": 600.5,
            "energy_per_request_joules": 30.1, "energy_per_token_joules": 0.08, "gpu_model": gpu,
            "max_num_batched_tokens": None, "max_num_seqs": seqs, "median_itl_ms": 16.4, "num_gpus": gpus,
            "output_length_distribution": {"bins": _BINS, "counts": list(range(50))},
            "output_throughput_tokens_per_sec": tokens_per_s, "p90_itl_ms": 20.0, "p95_itl_ms": 24.7,
            "p99_itl_ms": 46.4, "parallelization": {"data_parallel": 1, "expert_parallel": 1, "notes": "",
                                                    "tensor_parallel": gpus}}  # fmt: skip


CONFIGS = [("H100", 1, 8, 7.998, 1000.5), ("H100", 1, 16, 15.95, 1953.6), ("B200", 1, 8, 7.99, 1500.0),
           ("B200", 1, 16, 15.9, 2900.0), ("H100", 2, 16, 15.9, 3000.0)]  # fmt: skip
DOC = {"activated_params_billions": 8.0, "architecture": "Dense Transformer",
       "configurations": [_config(*c) for c in CONFIGS], "model_id": "Qwen/Qwen3-8B",
       "output_length_distribution": {"bins": _BINS, "counts": list(range(50))}, "task": "gpqa",
       "total_params_billions": 8.0, "weight_precision": "bfloat16"}  # fmt: skip
TOKENS = "Throughput (tokens/s)"
WORKLOAD = "Qwen/Qwen3-8B · gpqa"


def _expected() -> dict[tuple[str, int, int], float]:
    return {(gpu, n, seqs): tps for gpu, n, seqs, _, tps in CONFIGS}


def test_auto_maps_each_gpu_and_batch_to_its_own_row_with_its_tokens_per_second(tmp_path, db, capsys):
    (tmp_path / NAME).write_text(json.dumps(DOC, indent=2), encoding="utf-8")
    out = tmp_path / "mapped.csv"
    assert main(["results", "import", str(tmp_path / NAME), "--auto", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "recognised: ML.ENERGY leaderboard" in err and "batch: max_num_seqs" in err
    assert "histograms, not rows or names" in err and "output_length_distribution.bins" in err
    long = pd.read_csv(out)
    assert set(long["model"]) == {WORKLOAD} and set(long["precision"]) == {"bfloat16"}
    assert not long["device_label"].astype(str).str.contains(r"\[").any()  # no histogram became a name
    tokens = long[long["metric"] == TOKENS]
    assert set(tokens["unit"]) == {"tokens/s"}
    got = {(r.device_label, r.device_count, r.global_batch_size): r.value for r in tokens.itertuples()}
    assert got == pytest.approx(_expected())
    measured = long[long["metric"] == "Average batch size (measured)"]
    assert sorted(measured["value"]) == pytest.approx(sorted(c[3] for c in CONFIGS))  # 7.998 kept as measured


def test_the_page_path_gives_per_gpu_rates_per_configuration_and_batch():
    raw = read_raw(json.dumps(DOC).encode(), NAME)
    assert raw.guess.fmt == "ML.ENERGY leaderboard" and raw.guess.column("batch") == "max_num_seqs"
    assert not any("output_length_distribution" in c for c in raw.frame.columns)
    frame, _ = apply_import(raw.frame, raw.guess, NAME, None)
    rows = add_views(frame)
    per_gpu = per_device_name(TOKENS)
    rated = rows[rows[TOKENS].notna()]
    assert len(rated) == len(CONFIGS)  # five configurations, never pooled
    two = rated[rated["device_count"] == 2]
    assert two[per_gpu].tolist() == pytest.approx([1500.0])  # 3000 tokens/s over 2 H100 = 1500 per GPU
    assert set(rated["configuration"]) == {"1× H100 · batch 8", "1× H100 · batch 16", "1× B200 · batch 8",
                                           "1× B200 · batch 16", "2× H100 · batch 16"}  # fmt: skip


def test_a_record_keeps_its_own_value_over_the_documents_fact():
    doc = {"model_id": "top", "task": "t", "configurations": [{"model_id": "own", "gpu_model": "H100", "num_gpus": 1,
                                                                "output_throughput_tokens_per_sec": 5.0}]}  # fmt: skip
    raw = read_raw(json.dumps(doc).encode(), "x.json")
    assert raw.frame["model_id"].tolist() == ["own"] and raw.frame["task"].tolist() == ["t"]


def test_history_and_compare_default_to_tokens_per_second_not_the_inter_token_latency():
    from engine.imports.view.default_view import default_metric
    from engine.imports.view.imported_rates import headline
    from engine.results.history import metric_columns

    raw = read_raw(json.dumps(DOC).encode(), NAME)
    rows = add_views(apply_import(raw.frame, raw.guess, NAME, None)[0])
    metrics = metric_columns(rows)
    assert metrics[0] == TOKENS  # the rate of work before the times (the inter-token latency)
    assert default_metric(rows, metrics) == per_device_name(TOKENS)
    assert all(i.split(":")[2] == TOKENS for i in headline(rows, NAME))


def test_two_parallel_layouts_of_one_gpu_count_and_batch_are_never_one_bar_without_a_warning():
    from engine.imports.view.default_view import default_group, pooled

    image = {"avg_power_watts": 1500.0, "batch_latency_s": 5.1, "batch_size": 1, "energy_per_image_joules": 8000.0,
             "gpu_model": "B200", "image_height": 1024, "inference_steps": 50, "num_gpus": 2,
             "throughput_images_per_sec": 0.19}  # fmt: skip
    doc = {"model_id": "black-forest-labs/FLUX.1-dev", "task": "text-to-image", "weight_precision": "bfloat16",
           "configurations": [{**image, "parallelization": {"ring_degree": 2, "ulysses_degree": 1}},
                              {**image, "throughput_images_per_sec": 0.18,
                               "parallelization": {"ring_degree": 1, "ulysses_degree": 2}}]}  # fmt: skip
    name = "black-forest-labs__FLUX.1-dev__text-to-image.json"
    raw = read_raw(json.dumps(doc).encode(), name)
    assert raw.guess.column("batch") == "batch_size" and raw.guess.column("system") == "system"
    rows = add_views(apply_import(raw.frame, raw.guess, name, None)[0])
    assert sorted(rows["variant"].dropna().unique()) == ["ring2", "ulysses2"] and set(rows["device_label"]) == {"B200"}
    metric = per_device_name("examples_per_sec")  # images/s: AccelBench's examples/s axis, per GPU
    assert rows[metric].dropna().tolist() == pytest.approx([0.095, 0.09])
    pools = pooled(rows, default_group(rows, ["configuration", "workload"]), metric)
    assert len(pools) == 1 and "variant: ring2, ulysses2" in pools["differs"].iat[0]
