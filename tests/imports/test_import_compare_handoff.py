"""Issue 37: what "Use on Compare" sends. The headline workload is the model measured on the most devices (not the
alphabetically first); a training curve (DAWNBench, AlgoPerf) reaches Compare as the time it took to reach its
target (1 ÷ hours), never as a median accuracy with a CV; an AlgoPerf log defaults to validation accuracy, not test.
Small files the test writes in the tools' shapes (values invented)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from test_import_public_files2 import ALGO, META
from test_import_real_files import DAWN_JSON, DAWN_TSV

from engine.imports.importer import apply_import, read_raw
from engine.imports.read.foreign_json import read_sidecar
from engine.imports.view.default_view import add_views, default_metric
from engine.imports.view.imported import default_target
from engine.imports.view.imported_rates import headline, headline_model, rates_of_rows
from engine.results.history import metric_columns

# alexnet: three rows, all one H100; resnet50: three rows on three devices — same row count, more devices
TABLE = (
    "name_gpu,num_gpu,alexnet,resnet50\n"
    "H100 80GB SXM5 (host-1),1,900,700\n"
    "H100 80GB SXM5 (host-2),1,910,\n"
    "H100 80GB SXM5 (host-3),1,905,\n"
    "LambdaCloud A10,1,,350\n"
    "LambdaCloud 8xV100 16GB,8,,2800\n"
)


def _rows(text: str, name: str, sidecar: dict | None = None) -> pd.DataFrame:
    raw = read_raw(text.encode(), name)
    return add_views(apply_import(raw.frame, raw.guess, name, sidecar)[0])


def test_use_on_compare_opens_the_model_measured_on_the_most_devices():
    rows = _rows(TABLE, "pytorch-train-throughput-fp32.csv")
    assert headline_model(rows.dropna(subset=["examples_per_sec"])) == "resnet50"
    chosen = headline(rows, "t.csv")
    assert chosen and all(":resnet50" in i or "resnet50|" in i for i in chosen), chosen


def test_a_dawnbench_curve_reaches_compare_as_time_to_its_target():
    rows = _rows(DAWN_TSV, "entry.tsv", read_sidecar(json.dumps(DAWN_JSON), "entry.json"))
    top5 = next(m for m in metric_columns(rows) if "Top-5" in m)
    rates = [(r, b) for r, b in rates_of_rows(rows, "entry.tsv") if r.id.split(":")[2] == top5]
    assert len(rates) == 1
    rate, band = rates[0]
    assert "hours to 93" in rate.unit and "inverted" in rate.unit  # DAWNBench's published 93 % top-5
    assert rate.value == pytest.approx(1 / 0.75) and band.rows == 1 and band.cv_pct == 0.0  # 93.1 % at 0.75 h
    assert "median" not in rate.how and "0.75 h" in rate.how


def test_an_algoperf_log_defaults_to_validation_accuracy_and_sends_its_time_to_target():
    rows = _rows(ALGO, "eval_measurements.csv", read_sidecar(json.dumps(META), "meta_data_0.json"))
    metrics = metric_columns(rows)
    assert any("Test accuracy" in m for m in metrics)
    chosen = default_metric(rows, metrics)
    assert "Validation accuracy" in chosen
    ids = headline(rows, "eval_measurements.csv")
    assert ids and all(i.split(":")[2] == chosen for i in ids)
    rate = {r.id: r for r, _ in rates_of_rows(rows, "eval_measurements.csv")}[ids[0]]
    assert "hours to" in rate.unit


def test_an_algoperf_meta_files_own_target_is_the_target():
    meta = {**META, "workload.validation_target_value": 0.05, "workload.target_metric_name": "validation/accuracy"}
    rows = _rows(ALGO, "eval_measurements.csv", read_sidecar(json.dumps(meta), "meta_data_0.json"))
    metric = default_metric(rows, metric_columns(rows))
    target, why = default_target(rows, metric)
    assert target == pytest.approx(5.0) and "validation_target_value 0.05" in why  # a fraction, shown in %
    rate = next(r for r, _ in rates_of_rows(rows, "eval_measurements.csv") if r.id.split(":")[2] == metric)
    assert "hours to 5 " in rate.unit and rate.value == pytest.approx(3600 / 565.8)  # 6.9 % reached at 565.8 s
    other = {**meta, "workload.target_metric_name": "validation/loss"}
    rows = _rows(ALGO, "eval_measurements.csv", read_sidecar(json.dumps(other), "meta_data_0.json"))
    assert "own target" not in default_target(rows, metric)[1]  # a loss target is not an accuracy's


def test_a_tie_in_devices_and_rows_opens_resnet50_not_the_alphabetically_first_model():
    name = "pytorch-train-throughput-v2-fp16.csv"  # lambdal's v2 table, shipped: 4 models on the same 12 devices
    rows = _rows((Path(__file__).parents[2] / "data" / "reference" / "lambda_v2" / name).read_text(), name)
    assert headline_model(rows.dropna(subset=["examples_per_sec"])) == "resnet50"
    assert all("|resnet50|" in i for i in headline(rows, name))
