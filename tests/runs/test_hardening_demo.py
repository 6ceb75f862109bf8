"""Demo mode refuses everything that reaches outside the box, on the server (issue 15, class 1)."""

from __future__ import annotations

import os
import threading

import pytest

from engine.catalog.specs import SpecError
from engine.runs import hardware, jobs
from engine.runs.store import Store


def _refused(raw: dict, field: str) -> str:
    with pytest.raises(SpecError) as info:
        jobs.prepare(raw, demo=True)
    assert info.value.field == field, info.value
    return info.value.message


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"kind": "train", "model": "fashion_cnn", "device": "tpu", "tpu": "grpc://10.0.0.1:8470"}, "--device"),
        ({"kind": "train", "model": "fashion_cnn", "device": "tpu", "tpu": "my-cloud-tpu"}, "--device"),
        ({"kind": "train", "model": "fashion_cnn", "tpu": "grpc://evil.example:1"}, "--tpu"),
        ({"kind": "matmul", "device": "tpu"}, "--device"),
        ({"kind": "train", "model": "fashion_cnn", "data_dir": "gs://bucket/flowers"}, "--data-dir"),
        ({"kind": "train", "model": "fashion_cnn", "data_dir": "/etc"}, "--data-dir"),
        ({"kind": "matmul", "m": 512, "n": 512, "k": 512, "warmup": 10_000}, "--warmup"),
        ({"kind": "train", "model": "fashion_cnn", "validation_steps": 100_000}, "--validation-steps"),
        (
            {"kind": "train", "model": "fashion_cnn", "logical_devices": 64, "strategy": "mirrored", "batch_size": 64},
            "--logical-devices",
        ),
    ],
)
def test_demo_refuses_outside_the_box_and_uncapped_sizes(db, raw, field, monkeypatch):
    dialled = []
    monkeypatch.setattr(hardware, "device_problem", lambda *a, **k: dialled.append(a))
    _refused({**raw, "timeout_s": 60}, field)
    assert not dialled, "a demo request was checked against devices (a TPU address dialled) before its caps"


def test_demo_still_runs_a_small_request(db):
    spec = jobs.prepare({"kind": "matmul", "m": 256, "n": 256, "k": 256, "warmup": 2, "timeout_s": 60}, demo=True)
    assert spec.device == "cpu"


class _FakeProc:
    """Stands in for the worker process: alive (our own pid), never exits."""

    pid = os.getpid()

    def poll(self):
        return None


def test_three_launches_at_once_in_demo_mode_exactly_one_gets_through(db, monkeypatch):
    monkeypatch.setattr(jobs.subprocess, "Popen", lambda *a, **k: _FakeProc())
    store = Store(db)
    spec = jobs.prepare({"kind": "matmul", "m": 64, "n": 64, "k": 64, "timeout_s": 60}, demo=True)
    barrier = threading.Barrier(3)
    started, refused = [], []

    def go():
        barrier.wait()
        try:
            started.append(jobs.launch(spec, store, demo=True))
        except SpecError as exc:
            refused.append(exc)

    threads = [threading.Thread(target=go) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    jobs._children.clear()
    assert len(started) == 1 and len(refused) == 2, (started, refused)
    assert all("one benchmark at a time" in e.message for e in refused)
    assert [r["run_id"] for r in store.list_runs()] == started  # the refused ones left no row behind


def _ownership_script():
    import streamlit as st

    from ui.common import own_run, owns_run

    own_run("20260101-000000-aaaaaa")
    st.write(f"mine={owns_run('20260101-000000-aaaaaa')} other={owns_run('20260101-000000-bbbbbb')}")


@pytest.mark.parametrize("demo, other", [("1", False), ("", True)])
def test_a_visitor_may_cancel_or_read_the_log_only_of_runs_their_session_launched(db, monkeypatch, demo, other):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ACCELBENCH_DEMO", demo)
    at = AppTest.from_function(_ownership_script).run(timeout=30)
    assert not at.exception
    assert at.markdown[0].value == f"mine=True other={other}"
