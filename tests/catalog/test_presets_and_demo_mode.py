"""Home presets, demo mode's one-run-at-a-time rule, plain-word errors, and the TensorFlow probe."""

from __future__ import annotations

import os

import psutil
import pytest

from engine.catalog import demo, presets
from engine.catalog.specs import SpecError
from engine.runs import jobs
from engine.runs.store import Store
from engine.runs.tfprobe import probe_tensorflow


def test_every_preset_is_a_valid_request_outside_demo_mode(db):
    for p in presets.PRESETS:
        spec = jobs.prepare(presets.request_for(p.key), demo=False)
        assert spec.kind == p.request["kind"]


def test_seed_presets_are_the_articles_experiments():
    conv = presets.request_for("article000_conv")
    assert (conv["batch_size"], conv["height"], conv["width"], conv["channels"], conv["filters"], conv["kernel_size"]) == (
        128, 256, 256, 3, 256, 5,
    )  # fmt: skip
    mm = presets.request_for("article002_matmul")
    assert (mm["m"], mm["k"], mm["n"]) == (10000, 100, 100000)
    fashion = presets.request_for("article000_fashion")
    assert (fashion["model"], fashion["batch_size"], fashion["epochs"], fashion["steps_per_epoch"]) == (
        "fashion_cnn",
        1024,
        5,
        100,
    )
    reuters = presets.request_for("article002_reuters")
    assert (reuters["model"], reuters["logical_devices"], reuters["batch_size"], reuters["device"]) == (
        "reuters_conv1d",
        2,
        32,
        "cpu",
    )
    assert presets.request_for("article003_resnet50", device="gpu")["batch_size"] == 128


def test_demo_mode_refuses_oversized_presets_in_plain_words(db):
    with pytest.raises(SpecError) as exc:
        jobs.prepare(presets.request_for("article002_matmul", demo=True), demo=True)
    assert presets.explain(exc.value) == "Matrix size — demo mode allows sizes up to 2048, got 100000."
    jobs.prepare(presets.request_for("quick_matmul", demo=True), demo=True)  # the quick check fits


def test_demo_mode_runs_one_benchmark_at_a_time(db):
    store = Store()
    me = psutil.Process(os.getpid())
    store.insert_run({"run_id": "busy-run", "status": "running", "kind": "matmul", "model": "matmul"})
    # a live process as its job handle, so the reconciler sees a running run (not a dead one)
    store.set_job("busy-run", me.pid, me.create_time(), 1e12, str(db.parent), {"timeout_s": 60})
    with pytest.raises(SpecError) as exc:
        jobs.prepare(presets.request_for("quick_matmul", demo=True), demo=True)
    assert exc.value.field == "run" and "busy-run" in str(exc.value) and "one benchmark at a time" in str(exc.value)
    jobs.prepare(presets.request_for("quick_matmul"), demo=False)  # outside the demo, runs may overlap
    store.update_run("busy-run", {"status": "ok"})
    jobs.prepare(presets.request_for("quick_matmul", demo=True), demo=True)


def test_demo_upload_cap_is_small():
    assert 1 <= demo.DEMO_MAX_UPLOAD_MB <= 50


def test_probe_asks_tensorflow_in_a_child_process():
    result = probe_tensorflow()
    assert result["ok"], result["error"]
    assert any("CPU" in d for d in result["devices"]) and result["version"].startswith("2.")


def test_probe_times_out_in_plain_words():
    result = probe_tensorflow(timeout_s=0.01)
    assert not result["ok"] and "did not answer within" in result["error"]
