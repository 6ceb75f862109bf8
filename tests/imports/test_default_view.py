"""Issue 31 items 1 and 2 on Lambda's real v2 table (data/reference/lambda_v2, 93 systems): the default view is the
rate per GPU for each configuration (device, count, memory, form factor) and workload — never a pool of 1/2/4/8-GPU
systems — its multi-GPU medians match the file, instance-size names (`LambdaOD_8x_Texas_1xH100`) read as one GPU and
are listed with the reading chosen, and a bar that still joins configurations says what differs."""

from __future__ import annotations

import pandas as pd
from conftest import ROOT

from engine.imports.identity.systems import ambiguous
from engine.imports.importer import apply_import, read_raw
from engine.imports.view import default_view as dv
from engine.results import history, history_files

LAMBDA = ROOT / "data" / "reference" / "lambda_v2" / "pytorch-train-throughput-v2-fp16.csv"


def _lambda() -> pd.DataFrame:
    raw = read_raw(LAMBDA.read_bytes(), LAMBDA.name)
    rows, _ = apply_import(raw.frame, raw.guess, LAMBDA.name)
    return dv.add_views(history_files.combine([rows]))


def test_lambda_v2_default_is_the_rate_per_gpu_per_configuration_and_matches_the_file():
    df = _lambda()
    metric = dv.default_metric(df, history.metric_columns(df))
    by = dv.default_group(df, [dv.CONFIGURATION, *history.GROUPABLE])
    assert metric.startswith("Throughput per device (") and by == [dv.CONFIGURATION, "workload"]
    agg = history.aggregate(df, by, metric).set_index("group")[metric]
    assert agg["1× B200 · 192GB · resnet50"] == 3076  # one B200, not the 9,178 of a pool of 1/2/4/8
    file = pd.read_csv(LAMBDA, index_col=0)
    for count in (2, 4, 8):  # the file's own median of every NxH100 SXM5 system, per GPU
        systems = file[file.index.str.contains(f"_{count}xH100_80GB_SXM5")]
        assert agg[f"{count}× H100 · 80GB · SXM5 · resnet50"] == systems["resnet50"].median() / count
    one = df[df["system"].str.startswith("LambdaOD_8x_Texas_1xH100")]
    assert set(one["device_count"]) == {1}  # an 8-GPU instance running on one GPU


def test_ambiguous_names_are_listed_with_the_reading_chosen_and_pooled_bars_say_what_differs():
    names = pd.read_csv(LAMBDA, index_col=0).index.to_series()
    found = dict(ambiguous(names))
    assert "LambdaOD_8x_Texas_1xH100_80GB_SXM5_192-222-52-149_v2" in found
    assert "read as 1 × H100" in found["LambdaOD_8x_Texas_1xH100_80GB_SXM5_192-222-52-149_v2"]
    assert "LambdaOD_Texas_8xH100_80GB_SXM5_192-222-52-102_v2" not in found  # one count: one reading
    assert "LambdaOD_1x_1xGH200_80GB_192-222-58-35_v2" not in found  # two counts that agree
    df = _lambda()
    metric = dv.default_metric(df, history.metric_columns(df))
    pools = dv.pooled(df, [dv.CONFIGURATION, "workload"], metric).set_index("group")["differs"]
    assert "HTOff v2" in pools["8× H200 · 140GB · SXM · resnet50"]
    everything = dv.pooled(df, ["device_label"], metric).set_index("group")["differs"]
    assert "device count: 1, 2, 4, 8" in everything["H100"] and "workload:" in everything["H100"]
    assert dv.pooled(df, ["system", "workload"], metric).empty  # one system, one workload: one configuration
