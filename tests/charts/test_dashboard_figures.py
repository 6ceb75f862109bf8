"""engine.charts.base and engine.compare.words.tables: every figure has axis titles with units, speedups sit on a log axis
with a 1× line, History charts are built from aggregates (one trace per colour group, never per row),
and the Compare tables (speedup, batch sweep, scaling efficiency, step samples, cost) are right."""

from __future__ import annotations

import functools

import pandas as pd
import plotly.graph_objects as go
import pytest
from conftest import run_row

from engine.charts import base as charts
from engine.charts import compare as ccharts
from engine.charts import history as hcharts
from engine.compare.words import tables as cmp
from engine.results import history, history_files
from engine.results.csvio import rows_to_csv


def train_run(i: int, batch: int, replicas: int = 1, eps: float = 1000.0, **extra) -> dict:
    return run_row(
        i,
        kind="train",
        model="tiny_cnn",
        dataset="synthetic",
        shape=None,
        strategy="mirrored" if replicas > 1 else "default",
        replicas=replicas,
        global_batch_size=batch,
        per_replica_batch_size=batch // replicas,
        epochs=2,
        steps_per_epoch=10,
        examples_per_sec=eps,
        total_s=2.0,
        first_epoch_s=1.5,
        gflops=None,
        **extra,
    )


def titles(fig: go.Figure) -> tuple[str, str]:
    return fig.layout.xaxis.title.text or "", fig.layout.yaxis.title.text or ""


def test_long_rows_put_runs_and_references_in_one_table(ref):
    runs = [run_row(1, step_time_ms_median=4524.7, shape="(10000x100)@(100x100000)")]
    refs = ref[ref["source_id"] == "SEED-TF-GPU-SETTINGS"]
    long = cmp.long_rows(runs, refs)
    assert set(long["origin"]) == {"this machine", "reference"}
    assert cmp.families(long)[0] == "op_time_s"
    rows = cmp.for_family(long, "op_time_s")
    mine = rows.loc[rows["origin"] == "this machine", "value_canonical"].iloc[0]
    assert mine == pytest.approx(4.5247)  # median repeat in seconds, from the run's ms
    table = cmp.speedups(rows, rows.loc[rows["origin"] == "reference", "label"].iloc[0])
    assert (table["speedup"] > 0).all() and table["speedup"].max() > 1


def test_imported_runs_are_labelled_as_imported():
    long = cmp.long_rows([run_row(1, source="import:colab.csv")], None)
    assert set(long["origin"]) == {"imported"}


def test_batch_sweep_and_scaling_efficiency():
    runs = [
        train_run(1, 32, eps=1000),
        train_run(2, 64, eps=1800),
        train_run(3, 128, eps=3000),
        train_run(4, 128, replicas=2, eps=4500),
    ]
    long = cmp.long_rows(runs, None)
    sweep = cmp.batch_sweep(long)
    one = sweep[sweep["group"].str.endswith("1 replica")]
    assert one["batch_size"].tolist() == [32, 64, 128]  # the 2-replica run is its own series
    scale = cmp.scaling(long)
    assert scale["replicas"].tolist() == [1, 2]
    assert scale["ideal"].tolist() == [3000, 6000]
    assert scale["efficiency_pct"].round(1).tolist() == [100.0, 75.0]
    fig = ccharts.scaling_chart(scale)
    assert any(t.line.dash == "dash" for t in fig.data)  # the ideal line
    assert "75%" in fig.data[0].text


def test_step_samples_drop_the_compile_epoch():
    steps = [{"epoch": e, "step": s, "step_time_ms": 500.0 if e == 1 else 10.0 + s} for e in (1, 2) for s in range(5)]
    repeats = [{"repeat": i, "time_ms": 2.0 + i} for i in range(4)]
    samples = cmp.step_samples({"train": ("step", steps), "mm": ("repeat", repeats)})
    assert samples.loc[samples["label"] == "train", "step_time_ms"].max() == 14.0
    assert len(samples[samples["label"] == "mm"]) == 4
    fig = ccharts.step_box(samples)
    assert len(fig.data) == 2 and titles(fig)[0] == "Step time (ms)"


def test_cost_rows_per_run_and_per_million(ref):
    runs = [train_run(1, 128, eps=2000, price_per_hour_usd=0.5)]
    long = cmp.long_rows(runs, None)
    prices = cmp.default_prices(long, runs, ref)
    assert prices == {cmp.run_label(runs[0]): 0.5}
    costs = cmp.cost_rows(long, prices)
    per_million = costs["usd_per_million_examples"].dropna().iloc[0]
    assert per_million == pytest.approx(0.5 / 3600 * 1e6 / 2000)
    assert costs["usd_per_run"].dropna().iloc[0] == pytest.approx(2.0 / 3600 * 0.5)


def test_reference_rows_get_a_default_price_for_their_device_count(ref):
    rows = ref[(ref["hardware_key"] == "tpu_v2_8") & (ref["metric"] == "images_per_s")].head(1)
    long = cmp.long_rows([], rows)
    prices = cmp.default_prices(long, [], ref)
    assert list(prices.values()) and list(prices.values())[0] > 0


@functools.cache
def _every_figure() -> dict[str, go.Figure]:
    runs = [train_run(1, 32), train_run(2, 64, eps=1500), train_run(3, 64, replicas=2, eps=2500)]
    long = cmp.long_rows(runs, None)
    rows = cmp.for_family(long, "throughput")
    df = history_files.load_export(rows_to_csv([run_row(i) for i in range(20)]).encode(), "x.csv")
    agg = history.aggregate(df, ["device_label", "workload"], "gflops")
    series, bucket = history.time_series(df, "gflops", "device_label")
    epochs = cmp.epoch_frame(
        {"a": [{"epoch": 1, "loss": 2.0, "accuracy": 0.3}, {"epoch": 2, "loss": 1.5, "accuracy": 0.5}]}
    )
    costs = cmp.cost_rows(long, {r: 1.0 for r in long["label"]})
    return {
        "bars": ccharts.compare_bars(rows, "Throughput (examples/s)", True),
        "speedup": ccharts.speedup_chart(cmp.speedups(rows, rows["label"].iloc[0]), rows["label"].iloc[0]),
        "batch": ccharts.batch_chart(cmp.batch_sweep(long)),
        "scaling": ccharts.scaling_chart(cmp.scaling(long)),
        "loss": ccharts.epoch_chart(epochs, "loss", "Training loss (cross-entropy)"),
        "cost": ccharts.cost_chart(costs, "usd_per_million_examples", "Cost per million examples (USD)"),
        "hist_bars": hcharts.history_bars(agg, "gflops", "device_label", "workload", "median"),
        "delta": hcharts.delta_chart(
            history.baseline_delta(agg, "gflops", agg["group"].iloc[0]), "gflops", agg["group"].iloc[0]
        ),
        "time": hcharts.history_time_chart(series, "gflops", "device_label", bucket, "median"),
        "pivot": hcharts.pivot_heatmap(
            history.pivot(df, "workload", "device_label", "gflops"), "gflops", "workload", "device_label", "median"
        ),
    }


@pytest.mark.parametrize("name", list(_every_figure()))
def test_every_chart_has_axis_titles_and_the_value_axis_names_its_unit(name):
    fig = _every_figure()[name]
    assert not charts.is_empty(fig), name
    x, y = titles(fig)
    assert x.strip() and y.strip(), (name, x, y)
    unit_text = (
        x + y + (fig.data[0].colorbar.title.text or "" if name == "pivot" else "")
    )  # heatmap: unit on its colour bar
    assert "(" in unit_text, f"{name}: no unit in '{x}' / '{y}'"
    assert fig.layout.title.text


def test_speedup_axis_is_log_with_a_parity_line_and_readable_ticks():
    table = pd.DataFrame(
        {
            "label": ["a", "b", "c"],
            "origin": ["reference"] * 3,
            "value_canonical": [1, 2, 300],
            "speedup": [1.0, 2.0, 300.0],
            "basis": "rate",
        }
    )
    fig = ccharts.speedup_chart(table, "a")
    assert fig.layout.xaxis.type == "log"
    assert any(s.x0 == 1 and s.x1 == 1 for s in fig.layout.shapes)
    assert "1×" in fig.layout.xaxis.ticktext and len(fig.layout.xaxis.ticktext) <= 8
    assert not any(fig.data[0].marker.pattern.shape) and len(fig.data) == 1  # nothing estimated: no hatching


def test_speedup_bars_of_estimates_are_hatched_with_a_legend_saying_so():
    table = pd.DataFrame(
        {"label": ["cpu", "V100 (published)", "H200 (estimate)"], "origin": ["this machine", "reference", "estimate"],
         "value_canonical": [1, 70, 900], "speedup": [1.0, 70.0, 900.0], "basis": "rate"}
    )  # fmt: skip
    fig = ccharts.speedup_chart(table, "cpu")
    shapes = dict(zip(fig.data[0].y, fig.data[0].marker.pattern.shape, strict=True))
    assert shapes == {"cpu": "", "V100 (published)": "", "H200 (estimate)": "/"}
    assert fig.data[1].name == "hatched = estimate, derived or doubtful"


def test_history_bars_draw_one_trace_per_colour_group_even_for_100k_rows():
    df = history_files.load_export(
        rows_to_csv([run_row(i, device_name=f"cpu{i % 3}") for i in range(100_000)]).encode(), "big.csv"
    )
    agg = history.aggregate(df, ["workload", "device_label"], "gflops")
    fig = hcharts.history_bars(agg, "gflops", "workload", "device_label", "median")
    assert len(fig.data) == 3 and sum(len(t.x) for t in fig.data) == 3
    series, _ = history.time_series(df, "gflops", "device_label")
    fig = hcharts.history_time_chart(series, "gflops", "device_label", "day", "median")
    assert all(isinstance(t, go.Scattergl) for t in fig.data) and sum(len(t.x) for t in fig.data) <= 3 * 28


def test_empty_inputs_give_a_sentence_not_a_blank_chart():
    fig = ccharts.batch_chart(cmp.batch_sweep(cmp.long_rows([], None)))
    assert "batch size" in charts.is_empty(fig)


def test_html_export_is_self_contained():
    html = charts.figure_html(_every_figure()["bars"]).decode()
    assert (
        html.lower().startswith("<!doctype html>") and "plotly" in html.lower() and len(html) > 1_000_000
    )  # plotly.js inlined


@pytest.mark.skipif(not charts.png_export_available(), reason="kaleido or chromium missing: the page offers HTML only")
def test_png_export_renders_with_the_system_chromium():
    png = charts.figure_png(_every_figure()["speedup"], width=600, height=300)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5_000
