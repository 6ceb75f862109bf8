"""Issue 43, class A of the foreign corpus: the default chart's metric keeps the file's own name and unit. A rate the
file names itself (Hugging Face Trainer's `train_samples_per_second`, LoadGen's `Samples per second`, vLLM's
`output_throughput`) is titled in its words, not renamed to a generic `Throughput (examples/s)` that hides which of
several rates it is; its family (examples/s) still reaches Compare. Small files in each tool's documented shape."""

from __future__ import annotations

import json

from engine.imports.default_view import add_views, default_metric
from engine.imports.imported_rates import rates_of_rows
from engine.imports.importer import apply_import, read_raw
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
