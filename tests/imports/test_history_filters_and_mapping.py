"""engine.results.history and the one import path (engine.imports.importer with an ImportMapping): foreign tables
through a mapping (problems named by row and column), and filter / group / pivot / baseline / differing settings /
time buckets on the frame."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest
from conftest import run_row

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec
from engine.imports.importer import apply_import, load_foreign, read_raw
from engine.results import history, history_files
from engine.results.csvio import CsvError, rows_to_csv

FOREIGN = (
    "Platform,Model,GPUs,Batch size (per GPU),Images/sec,Date\n"
    "P100,ResNet-50,1,64,219.0,2017-06-01\n"
    "P100,ResNet-50,8,64,1734.0,2017-06-01\n"
    "K80,ResNet-50,1,64,OOM,2017-06-02\n"
    "K80,InceptionV3,1,64,30.5,2017-06-03\n"
)


def frame_from(rows) -> pd.DataFrame:
    return history_files.load_export(rows_to_csv(rows).encode(), "runs.csv")


def _mapping(**roles: str) -> ImportMapping:
    return ImportMapping(roles={"hw": "device", "net": "model", **roles}, values={"v": ValueSpec("t")})


def test_the_guess_picks_the_obvious_columns_and_our_throughput_axis():
    m = read_raw(FOREIGN, "tf.csv").guess
    assert m.fmt == "tf_cnn_benchmarks table"
    assert {c: m.roles[c] for c in ("Platform", "Model", "GPUs", "Batch size (per GPU)", "Images/sec", "Date")} == {
        "Platform": "system", "Model": "model", "GPUs": "count", "Batch size (per GPU)": "batch",
        "Images/sec": "value", "Date": "date",
    }  # fmt: skip
    assert m.values["Images/sec"].unit == "images/s"  # lands on the same axis as AccelBench runs


def test_the_mapping_builds_history_rows_and_skips_missing_values():
    rows, notes = load_foreign(FOREIGN, "tf.csv")
    assert len(rows) == 3 and "Images/sec (1)" in notes[0]
    assert set(history.DIMENSIONS) <= set(rows.columns)
    assert rows["examples_per_sec"].tolist() == [219.0, 1734.0, 30.5]
    assert rows["global_batch_size"].tolist() == [64, 512, 64]  # per GPU × GPUs: History holds the global batch
    assert rows["date"].dt.strftime("%Y-%m-%d").tolist() == ["2017-06-01", "2017-06-01", "2017-06-03"]
    assert rows["unit"].tolist() == ["images/s"] * 3


def test_a_metric_column_spreads_values_over_one_column_per_metric():
    m = ImportMapping(roles={"hw": "device", "net": "model", "what": "metric", "v": "value"},
                      values={"v": ValueSpec(unit="x")})  # fmt: skip
    rows, _ = load_foreign("hw,net,what,v\nV100,bert,latency (ms),12\nV100,bert,qps,800\n", "m.csv", m)
    assert rows["latency (ms) (x)"].tolist()[0] == 12 and pd.isna(rows["latency (ms) (x)"].iloc[1])
    assert rows["qps (x)"].iloc[1] == 800


@pytest.mark.parametrize(
    "text, roles, where",
    [
        ("hw,net,v\nA100,b,1\nA100,b,12 ms\n", {"v": "value"}, (3, "v")),
        ("hw,net,v,d\nA100,b,1,2020-01-01\nA100,b,2,someday\n", {"v": "value", "d": "date"}, (3, "d")),
        ("hw,net,v\nA100,b,1\n,b,2\n", {"v": "value"}, (3, "hw")),
        ("hw,net,v\nA100,b,1\n", {"nope": "value"}, (1, "nope")),
    ],
)
def test_mapping_problems_name_the_row_and_column(text, roles, where):
    raw = read_raw(text, "f.csv")
    with pytest.raises(CsvError) as exc:
        apply_import(raw.frame, _mapping(**roles), "f.csv")
    assert (exc.value.row, exc.value.column) == where
    assert f"row {where[0]}" in str(exc.value)


def test_export_rows_get_device_and_workload_labels():
    df = frame_from([run_row(0), run_row(1, kind="train", model="fashion_cnn", shape=None, global_batch_size=1024)])
    assert df["device_label"].tolist() == ["CPU · AMD EPYC", "CPU · AMD EPYC"]
    assert df["workload"].tolist() == ["matmul (512x512)@(512x512)", "fashion_cnn"]
    assert str(df["date"].dt.tz) == "UTC"


def test_filter_by_dates_and_values_keeps_undated_rows_on_request():
    own = frame_from([run_row(i) for i in range(10)])  # days 1..10 of January 2026
    m = ImportMapping(roles={"hw": "device", "net": "model", "v": "value"}, values={"v": ValueSpec("gflops")})
    foreign, _ = load_foreign("hw,net,v\nT4,bert,5\n", "f.csv", m)
    df = history_files.combine([own, foreign])
    week = history.filter_frame(df, date_range=(date(2026, 1, 2), date(2026, 1, 4)))
    assert len(week) == 3 + 1
    assert len(history.filter_frame(df, date_range=(date(2026, 1, 2), date(2026, 1, 4)), include_undated=False)) == 3
    assert history.filter_frame(df, {"device_label": ["T4"]})["model"].tolist() == ["bert"]
    assert len(history.filter_frame(df, {"device_label": [], "status": None})) == 11
    assert history.metric_columns(df)[:2] == ["gflops", "step_time_ms_median"]


def test_aggregate_pivot_and_baseline_delta():
    rows = [run_row(i, device_name=("EPYC" if i % 2 else "Xeon"), gflops=100.0 + i) for i in range(10)]
    df = frame_from(rows)
    agg = history.aggregate(df, ["device_label"], "gflops", "median")
    assert agg["group"].tolist() == ["CPU · EPYC", "CPU · Xeon"]
    assert agg["gflops"].tolist() == [105.0, 104.0] and agg["rows"].tolist() == [5, 5]
    delta = history.baseline_delta(agg, "gflops", "CPU · Xeon")
    assert delta["delta_pct"].round(3).tolist() == [round((105 / 104 - 1) * 100, 3), 0.0]
    assert delta["better"].tolist()[0] is True and pd.isna(delta["better"].iloc[1])
    slower = history.baseline_delta(
        history.aggregate(df, ["device_label"], "step_time_ms_median"), "step_time_ms_median", "CPU · Xeon"
    )
    assert slower["better"].iloc[0] == (slower["delta_pct"].iloc[0] < 0)  # time: lower is better
    table = history.pivot(df, "workload", "device_label", "gflops", "max")
    assert table.loc["matmul (512x512)@(512x512)", "CPU · EPYC"] == 109.0


def test_differing_settings_and_speed_warnings_show_only_what_differs():
    rows = frame_from([run_row(0), run_row(1, xla=True, global_batch_size=64), run_row(2, global_batch_size=128)])
    diff = history.differing_settings(rows)
    assert list(diff.columns) == ["run_id", "global_batch_size", "xla"]
    warnings = history.speed_warnings(rows)
    assert any(w.startswith("global batch size differs") for w in warnings)
    assert any(w.startswith("XLA differs") for w in warnings)
    assert history.speed_warnings(rows.iloc[[0, 0]]) == []


def test_time_series_picks_a_readable_bucket():
    df = frame_from([run_row(i) for i in range(28)])
    series, bucket = history.time_series(df, "gflops", "device_label")
    assert bucket == "day" and len(series) == 28 and series["rows"].sum() == 28
    seconds = df.assign(date=pd.Timestamp("2026-01-01T12:00Z") + pd.to_timedelta(range(28), unit="s"))
    assert history.time_series(seconds, "gflops", None)[1] == "second"  # a telemetry log of a few minutes
    minutes = df.assign(date=pd.Timestamp("2026-01-01T12:00Z") + pd.to_timedelta(range(28), unit="min"))
    assert history.time_series(minutes, "gflops", None)[1] == "minute"


def test_store_rows_and_metric_titles():
    df = history_files.store_rows([run_row(0)])
    assert df["file"].iloc[0] == history_files.THIS_MACHINE
    assert history.metric_title("examples_per_sec") == "Throughput (examples/s)"
    assert history.metric_title("images/sec") == "images/sec"
    assert history.higher_is_better("Images/sec") is True and history.higher_is_better("latency (ms)") is False


def test_the_shipped_sample_files_load():
    files = {p.name: p for p in history_files.folder_files()}
    own = history_files.load_export(files["sample_accelbench_export.csv"].read_bytes(), "sample")
    assert len(own) >= 10 and set(own["status"]) == {"ok"}
    rows, _ = load_foreign(files["sample_tf_benchmarks_2017.csv"].read_bytes(), "tf.csv")
    assert len(rows) == 19 and rows["examples_per_sec"].max() == 2744.0
