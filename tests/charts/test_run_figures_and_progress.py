"""Run-page logic without a browser: progress folding, shape parsing, the reference chart, presets, plain errors."""

from __future__ import annotations

import shlex

import pytest

from engine.catalog import specs as spec
from engine.catalog.micro_presets import (
    MICRO_PRESETS,
    REFERENCE_SHAPES,
    SHAPE_FIELDS,
    matching_preset,
    op_flops,
    preset_fields,
    same_shape_as_reference,
)
from engine.charts import run as charts_run
from engine.charts.base import DEVICE_COLOURS, count_axis
from engine.reference.data import load_reference
from engine.runs import jobs


def micro_events(done: int, total: int, time_ms: float = 10.0) -> list[dict]:
    events = [
        {"t": 100.0, "event": "phase", "name": "preparing"},
        {"t": 100.5, "event": "phase", "name": "warmup", "repeats": 2},
        {"t": 101.0, "event": "phase", "name": "timing", "repeats": total},
    ]
    events += [
        {"t": 101.0 + i, "event": "repeat", "repeat": i, "total": total, "time_ms": time_ms, "gflops": 50.0 + i}
        for i in range(1, done + 1)
    ]
    return events


def test_progress_of_a_microbenchmark_mid_run():
    view = charts_run.summarize_progress(micro_events(done=4, total=10, time_ms=200.0))
    assert view.phase == "Timing"
    assert (view.done, view.total) == (4, 10)
    assert view.fraction == pytest.approx(0.4)
    assert view.rate_unit == "GFLOP/s"
    assert view.rate == pytest.approx(52.5)  # median of 51..54
    assert view.eta_s == pytest.approx(6 * 0.2)  # 6 repeats left at 200 ms
    assert view.elapsed_s == pytest.approx(5.0)
    assert view.x == [1, 2, 3, 4] and view.x_title == "Repeat"


def test_progress_during_warmup_knows_nothing_timed_yet():
    view = charts_run.summarize_progress(micro_events(done=0, total=10)[:2])
    assert view.phase.startswith("Warm-up")
    assert view.fraction == 0 and view.rate is None and view.eta_s is None


def test_progress_of_training_uses_global_steps_and_examples_per_second():
    events = [{"t": 1.0, "event": "phase", "name": "training", "epochs": 4, "steps_per_epoch": 3}]
    assert charts_run.summarize_progress(events).total == 12  # known before the first step
    for g in range(1, 7):
        events.append(
            {"t": 1.0 + g, "event": "step", "epoch": 1 + (g - 1) // 3, "step": (g - 1) % 3 + 1, "global_step": g,
             "total_steps": 12, "step_time_ms": 100.0 if g > 1 else 2000.0, "examples_per_sec": 2560.0}
        )  # fmt: skip
    events.append({"t": 5.0, "event": "epoch", "epoch": 1, "epoch_s": 2.2, "loss": 0.7, "accuracy": 0.8})
    view = charts_run.summarize_progress(events)
    assert (view.done, view.total) == (6, 12)
    assert view.rate_unit == "examples/s" and view.rate == 2560.0
    assert view.eta_s == pytest.approx(6 * 0.1)  # the recent median ignores the compile-heavy first step
    assert view.epoch["loss"] == 0.7
    assert view.x_title == "Step"


def window_events(windows: list[tuple[int, float]], total: int) -> list[dict]:
    """Step events as the JAX/PyTorch window clock writes them: one per device sync."""
    events, g = [{"t": 0.0, "event": "phase", "name": "training", "epochs": 1, "steps_per_epoch": total}], 0
    for n, ms in windows:
        g += n
        events.append({"t": float(g), "event": "step", "epoch": 1, "step": g, "global_step": g, "total_steps": total,
                       "step_time_ms": ms, "window_steps": n, "examples_per_sec": 64_000.0 / ms})  # fmt: skip
    return events


def test_progress_of_an_asynchronous_backend_counts_synced_steps_and_paces_the_eta_by_synced_windows():
    # step 1 carries compiling; then windows of 2 and 4 steps at 100 and 130 ms per step
    view = charts_run.summarize_progress(window_events([(1, 3000.0), (2, 100.0), (4, 130.0)], total=20))
    assert view.synced_windows and (view.done, view.total) == (7, 20)
    pace_ms = (2 * 100.0 + 4 * 130.0) / 6  # weighted by steps; the compile-heavy first window left out
    assert view.eta_s == pytest.approx(13 * pace_ms / 1000)
    assert view.rate == pytest.approx(64_000.0 / 130.0)  # the median of the windows' rates
    assert charts_run.step_chart_titles(True)[0] == "Global step (at a device sync)"
    assert "Synced step time" in charts_run.step_chart_titles(True)[1]
    assert not charts_run.summarize_progress(micro_events(4, 10)).synced_windows
    # only the first window so far: it is the only pace there is
    assert charts_run.summarize_progress(window_events([(1, 3000.0)], total=4)).eta_s == pytest.approx(9.0)


def test_empty_progress():
    view = charts_run.summarize_progress([])
    assert view.fraction == 0 and view.total is None and "Waiting" in view.phase


def test_micro_shape_text_round_trips_through_the_parser():
    from engine.compare.facts.likeforlike import parse_shape

    for name in MICRO_PRESETS:
        micro = spec.validate_micro(preset_fields(name))
        expected = {f: getattr(micro, f) for f in SHAPE_FIELDS[micro.bench]}
        assert parse_shape(micro.bench, jobs.micro_shape(micro)) == expected, name


def _rates(op: str, shape: str, gflops: float):
    from engine.compare.answer import auto_references
    from engine.compare.facts.likeforlike import rate_of_run

    run = rate_of_run({"run_id": "r1", "status": "ok", "kind": op, "model": op, "shape": shape, "dtype": "float32",
                       "device": "cpu", "gflops": gflops, "step_time_ms_median": 1.0})  # fmt: skip
    return run, auto_references(run, load_reference())


def test_the_tpu_runtime_that_ran_on_the_cpu_is_charted_as_a_cpu():
    run, refs = _rates("conv2d", "128x256x256x3 * 5x5x3x256", 5.0)  # article 000's shape: the same workload
    assert len([r for r in refs if r.basis == "published"]) == 3
    assert len([r for r in refs if r.basis == "measured"]) == 4  # the H100 pack: JAX and torch, fp32 and bf16
    fig = charts_run.rate_figure(run, refs, "This run (CPU, float32)")
    groups = {trace.name: list(trace.y) for trace in fig.data}
    assert len(groups["GPU (measured by AccelBench)"]) == 4
    assert "TPU (published)" not in groups
    assert "Colab 'TPU' runtime (host CPU) (published, fp32)" in groups["CPU (published)"]
    assert groups["GPU (published)"] == ["K80 (1 die) (published, fp32)"]
    cpu = next(t for t in fig.data if t.name == "CPU (published)")
    assert cpu.marker.color == DEVICE_COLOURS["cpu"]
    # a rate of work on a linear axis (bars compare lengths), higher is better, the unit in the title
    assert fig.layout.xaxis.type == "linear"
    assert fig.layout.xaxis.title.text == "Rate of work (GFLOP/s) — higher is better"
    # this run is drawn on top (plotly lists horizontal categories bottom-up)
    assert list(fig.layout.yaxis.categoryarray)[-1] == "This run (CPU, float32)"


def test_reference_chart_compares_gflops_of_the_same_shape_marks_bounds_and_derived_rates():
    assert _rates("matmul", "(512x512)@(512x512)", 25.0)[1] == []  # another shape: no bar beside it
    run, refs = _rates("matmul", "(10000x100)@(100x100000)", 25.0)
    fig = charts_run.rate_figure(run, refs, "This run")
    texts = [t for trace in fig.data for t in (trace.text or ())]
    assert "25.0" in texts  # this run, measured
    assert "≥200.0" in texts and "≈33.3" in texts  # the articles' times as rates: ≤1 s → ≥200, ≈6 s → ≈33.3
    published = [t for t in fig.data if t.name.endswith("(published)")]
    assert all(set(t.marker.pattern.shape) == {"/"} for t in published)  # derived from a time: hatched
    assert any(t.name == "hatched = estimate, derived or doubtful" for t in fig.data)
    hover = " ".join(str(h) for t in published for row in t.customdata for h in row)
    assert "id: SEED-TF-GPU-SETTINGS-02" in hover  # internal ids in the hover, human labels on the axis
    assert not any("SEED" in label for label in fig.layout.yaxis.categoryarray)


def test_time_axis_and_count_ticks():
    fig = charts_run.time_series_figure([1, 2, 3, 4], [1500.0, 1600.0, 1550.0, 1580.0], "Step", "t")
    assert fig.layout.yaxis.title.text == "Time (s)"  # seconds once the typical time reaches a second
    assert fig.layout.xaxis.dtick == 1 and fig.layout.xaxis.tickformat == ",d"  # whole steps only
    assert charts_run.time_series_figure([1, 2], [3.0, 4.0], "Repeat", "t").layout.yaxis.title.text == "Time (ms)"
    assert count_axis(range(1, 401))["dtick"] == 50


def test_time_series_goes_log_when_the_first_step_dwarfs_the_rest():
    fig = charts_run.time_series_figure([1, 2, 3], [5000.0, 10.0, 11.0], "Step", "t")
    assert fig.layout.yaxis.type == "log"
    assert charts_run.time_series_figure([1, 2], [10.0, 11.0], "Repeat", "t").layout.yaxis.type == "linear"


def test_epoch_figure_has_train_and_validation_curves():
    fig = charts_run.epoch_figure(
        [{"epoch": 1, "loss": 1.0, "accuracy": 0.5, "val_loss": 1.1, "val_accuracy": 0.4},
         {"epoch": 2, "loss": 0.5, "accuracy": 0.8, "val_loss": 0.6, "val_accuracy": 0.7}]
    )  # fmt: skip
    assert {t.name for t in fig.data} == {
        "training loss",
        "validation loss",
        "training accuracy",
        "validation accuracy",
    }


def test_a_cpu_share_of_peak_is_never_shown_above_100_percent_without_saying_the_peak_is_a_floor():
    from engine.results.backend_text import backend_lines, peak_text

    pct, note = peak_text(181.7, 166.2, "cpu", floor=True)
    assert pct == "≤ 109% of peak" and "a floor" in note and "turbo" in note
    # another machine's run whose clock basis is unknown: over 100 % can only come from a floor
    assert peak_text(181.7, 166.2, "cpu", floor=None)[0] == "≤ 109% of peak"
    assert peak_text(81.7, 166.2, "cpu", floor=False) == (
        "49% of peak",
        "theoretical peak 166.2 GFLOP/s = cores × clock × FLOPs/cycle, at the highest clock the cores report",
    )
    assert peak_text(None, 166.2, "cpu", floor=True) == ("—", "")
    row = {"device": "cpu", "gflops": 90.0, "peak_gflops": 80.0, "mfu_pct": 112.5}
    assert "device peak 80.0 (a floor) (MFU ≤ 112.5 %)" in backend_lines(row)[1]


def test_presets_are_valid_requests_and_match_the_articles():
    for name in MICRO_PRESETS:
        spec.validate_micro(preset_fields(name))
        assert matching_preset(preset_fields(name)) == name
    conv = REFERENCE_SHAPES["conv2d"]
    assert (conv["batch_size"], conv["height"], conv["width"], conv["filters"], conv["kernel_size"]) == (
        128,
        256,
        256,
        256,
        5,
    )
    assert REFERENCE_SHAPES["matmul"] == {"m": 10000, "k": 100, "n": 100000}
    assert same_shape_as_reference("matmul", {"m": 10000, "n": 100000, "k": 100})
    assert not same_shape_as_reference("matmul", {"m": 512, "n": 512, "k": 512})


def test_op_flops_counts_like_the_worker():
    assert op_flops("matmul", m=2, n=3, k=4) == 48
    # conv: 2 × B × H × W × k² × C × F (SAME padding, stride 1), as engine.worker.micro.flops
    assert op_flops(
        "conv2d", batch_size=128, height=256, width=256, channels=3, filters=256, kernel_size=5
    ) == pytest.approx(2 * 128 * 256 * 256 * 25 * 3 * 256)


def test_plain_error_speaks_the_forms_language():
    from ui.run_form import plain_error

    with pytest.raises(spec.SpecError) as err:
        spec.validate_train({"strategy": "mirrored"})
    assert plain_error(err.value) == (
        "**Strategy** — mirrored on the CPU needs “Logical devices” = 2 or more (one CPU is one device)"
    )


def test_cli_command_is_what_the_cli_accepts():
    from engine.cli import build_parser
    from engine.cli.run import spec_request
    from ui.run_form import cli_command

    raw = {"kind": "matmul", "bench": "matmul", "m": 64, "k": 32, "n": 16, "dtype": "float32", "repeats": 3, "warmup": 0,
           "xla": True, "device": "cpu", "price_per_hour_usd": 0.5, "timeout_s": 60.0}  # fmt: skip
    line = cli_command(raw)
    assert line.startswith("python -m engine run --bench matmul")
    args = build_parser().parse_args(shlex.split(line)[3:])
    parsed = spec.spec_from_dict(spec_request(args))
    assert parsed == spec.spec_from_dict(raw)
