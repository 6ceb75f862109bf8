"""engine.charts.scaling (issue 30 item 4): a `--processes 1,2,4` sweep's throughput against ideal (N × the rate
at 1, dashed), each point labelled with its efficiency and spread; the published multi-GPU curves of the same
model as efficiency against device count with 100 % marked, the sweep's own efficiency beside them."""

from __future__ import annotations

import pytest

from engine.charts import base as charts
from engine.charts.scaling import published_efficiency_figure, sweep_scaling_figure
from engine.compare.evidence import scaling_refs as sr
from engine.results.status import RunStatus
from engine.sweep import summary


def _row(procs: int, eps: float, batch: int = 16, model: str = "resnet50") -> dict:
    return {
        "status": RunStatus.OK, "kind": "train", "model": model, "dataset": "synthetic", "precision": "float32",
        "backend": "torch", "device": "cpu", "global_batch_size": batch, "examples_per_sec": eps, "processes": procs,
    }  # fmt: skip


ROWS = [_row(1, 100.0), _row(2, 170.0), _row(2, 190.0), _row(4, 300.0), _row(1, 50.0, batch=32), _row(2, 60.0, 32)]


def test_the_sweep_curve_is_drawn_against_its_dashed_ideal_with_efficiency_and_spread_on_each_point():
    table = summary.scaling(ROWS)
    assert set(table["model"]) == {"resnet50"}
    fig = sweep_scaling_figure(table)
    measured = [t for t in fig.data if t.mode == "lines+markers+text"]
    ideal = [t for t in fig.data if t.line.dash == "dash"]
    assert len(measured) == len(ideal) == 2  # one per global batch
    b16 = next(t for t in measured if t.name.endswith("global batch 16"))
    assert list(b16.x) == [1, 2, 4] and list(b16.y) == [100.0, 180.0, 300.0]
    assert list(b16.text) == ["100 %", "90 % (85–95)", "75 %"]
    spread = (list(b16.error_y.arrayminus), list(b16.error_y.array))
    assert spread == (pytest.approx([0, 10, 0]), pytest.approx([0, 10, 0]))  # 170 and 190 around 180
    ideal16 = next(t for t in ideal if t.line.color == b16.line.color)
    assert list(ideal16.y) == [100.0, 200.0, 400.0]
    assert [t.showlegend for t in ideal] == [True, False]  # one legend entry explains every dashed line
    assert fig.layout.xaxis.title.text.startswith("Processes") and fig.layout.yaxis.title.text.endswith("(examples/s)")
    assert list(fig.layout.xaxis.tickvals) == [1, 2, 4]
    assert "No cell group" in charts.is_empty(sweep_scaling_figure(summary.scaling(ROWS[:1])))


def test_published_curves_are_efficiency_against_device_count_with_the_sweep_beside_them(ref):
    series = sr.published_scaling(ref, "resnet50")
    picked = {k: s for k, s in series.items() if s.label in sr.default_pick(series)}
    published = sr.frame(picked)
    measured = summary.scaling(ROWS[:4])
    fig = published_efficiency_figure(published, measured)
    names = [t.name for t in fig.data]
    assert len(names) == len(picked) + 2 and names[-2].startswith("this sweep: resnet50")
    h100 = next(t for t in fig.data if t.name.startswith("H100 · Lambda PyTorch 2025 · mixed fp16"))
    assert list(h100.x) == [1, 2, 4, 8] and h100.y[-1] == pytest.approx(22071 / (8 * 2790) * 100)
    assert h100.error_y.array[-1] > 0 and h100.error_y.arrayminus[-1] > 0  # the spread Lambda's notes state
    mine, ideal = fig.data[-2:]
    assert list(mine.y) == pytest.approx([100.0, 90.0, 75.0])
    assert mine.line.color == charts.ORIGIN_COLOURS["this machine"]
    assert fig.layout.xaxis.type == "log" and list(fig.layout.xaxis.tickvals) == [1, 2, 4, 8]
    assert (ideal.name, list(ideal.x), list(ideal.y), ideal.line.dash) == ("ideal: 100 %", [1, 8], [100, 100], "dash")
    assert fig.layout.xaxis.title.text == "Devices (GPUs; this sweep: processes), log scale"
    assert fig.layout.yaxis.title.text == "Scaling efficiency (% of ideal)"
    alone = published_efficiency_figure(published)
    assert alone.layout.xaxis.title.text == "Devices (GPUs), log scale" and len(alone.data) == len(picked) + 1
    empty = published_efficiency_figure(sr.frame({}))
    assert charts.is_empty(empty) == "No published multi-device figures for this model."
