"""The progress protocol: what the worker's Reporter writes, read_progress reads back in order,
skipping a half-written last line; step/epoch/repeat records are also kept for the store."""

from __future__ import annotations

import typing

from engine.runs.progress import Event, Reporter, read_progress


def test_events_written_by_the_reporter_read_back_in_order_with_their_fields(tmp_path):
    report = Reporter(tmp_path)
    report.phase("timing", repeats=2)
    report.record("repeat", repeat=1, total=2, time_ms=1.5, gflops=10.0)
    report.message("strategy none with 1 replica(s)")
    events = read_progress(tmp_path)
    assert [e["event"] for e in events] == ["phase", "repeat", "message"]
    assert events[0]["name"] == "timing" and events[1]["time_ms"] == 1.5
    assert all(isinstance(e["t"], float) for e in events)
    assert report.series == {"repeat": [{"repeat": 1, "total": 2, "time_ms": 1.5, "gflops": 10.0}]}


def test_a_half_written_last_line_is_skipped_and_a_missing_file_reads_as_no_events(tmp_path):
    assert read_progress(tmp_path) == []
    Reporter(tmp_path).phase("warmup")
    with (tmp_path / "progress.jsonl").open("a") as f:
        f.write('{"t": 1.0, "event": "rep')
    assert [e["event"] for e in read_progress(tmp_path)] == ["phase"]


def test_every_event_kind_has_a_typed_shape():
    kinds = {typing.get_args(typing.get_type_hints(cls)["event"])[0] for cls in typing.get_args(Event)}
    assert kinds == {"phase", "repeat", "step", "epoch", "message"}


def test_a_reporter_without_a_run_folder_writes_nothing_but_keeps_its_series():
    report = Reporter(None)
    report.record("step", global_step=1, step_time_ms=2.0)
    assert report.series["step"] == [{"global_step": 1, "step_time_ms": 2.0}]
