"""Reference charts: bars by hardware with units, log axis when wide, doubtful rows marked."""

from __future__ import annotations

import pytest

from engine.charts.reference import bar_by_hardware, wants_log
from engine.reference.data import load_reference


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def test_log_rule():
    assert wants_log([1, 21]) and not wants_log([1, 20]) and not wants_log([])


def test_seed_conv_chart_keeps_the_tpu_runtime_out_of_the_tpu_series(ref):
    fig = bar_by_hardware(ref[ref["source_id"] == "SEED-COLAB-CONV"], "op_time_s", model="conv2d")
    names = {t.name: list(t.x) for t in fig.data}
    assert "TPU" not in names and "TPU — doubtful (hatched)" not in names
    doubtful = names["CPU — doubtful (hatched)"]
    assert doubtful == ["Colab 'TPU' runtime (host CPU)"]
    trace = next(t for t in fig.data if t.name == "CPU — doubtful (hatched)")
    assert trace.marker.pattern.shape == "/" and trace.marker.opacity < 1
    assert fig.layout.yaxis.title.text == "Op time (s)"
    assert fig.layout.yaxis.type == "linear"  # 2.47 / 0.28 < 20


def test_wide_range_turns_the_axis_logarithmic(ref):
    rows = ref[(ref["model"] == "resnet50") & (ref["metric"] == "train_time_s")]
    fig = bar_by_hardware(rows, "train_time_s", model="resnet50")
    assert fig.layout.yaxis.type == "log"
    assert bar_by_hardware(rows, "train_time_s", model="resnet50", log=False).layout.yaxis.type == "linear"
    labels = [x for t in fig.data for x in t.x]
    assert len(labels) == len(set(labels)) == len(rows)  # repeated hardware names are told apart


def test_throughput_families_share_a_chart_and_units_are_in_the_axis(ref):
    rows = ref[ref["model"] == "bilstm"]
    fig = bar_by_hardware(rows, "examples_per_s", model="bilstm")
    assert sorted(x for t in fig.data for x in t.x) == ["P100", "TPU v2-8", "V100"]
    assert fig.layout.yaxis.title.text == "Throughput (examples/s)"
    assert "higher is better" in fig.layout.title.text


def test_empty_selection_says_so(ref):
    fig = bar_by_hardware(ref, "op_time_s", model="vgg19")
    assert not fig.data and "No op time rows" in fig.layout.title.text
