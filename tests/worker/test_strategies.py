"""Strategy selection: every error path in-process, real MirroredStrategy / MultiWorkerMirroredStrategy runs
in fresh worker processes (logical devices and collectives can only be set up before TF initialises)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf
from conftest import ROOT, last_json, run_cli

from engine.catalog.replicas import UNKNOWN_GPU_COUNT, planned_replicas, resolve_strategy
from engine.catalog.specs import SpecError, TrainSpec, spec_from_dict
from engine.runs.store import Store
from engine.worker.strategies import (
    ResolvedStrategy,
    StrategyError,
    _check_batch,
    make_strategy,
    parse_tf_config,
    tpu_address,
)

TWO_WORKERS = {"cluster": {"worker": ["localhost:1", "localhost:2"]}, "task": {"type": "worker", "index": 1}}


@pytest.mark.parametrize(
    "text,message",
    [
        (None, "needs the TF_CONFIG environment variable"),
        ("  ", "needs the TF_CONFIG environment variable"),
        ("{not json", "not valid JSON"),
        (json.dumps({"cluster": {"ps": ["a:1"]}, "task": {"type": "worker", "index": 0}}), "cluster.worker"),
        (json.dumps({"cluster": {"worker": ["no-port"]}, "task": {"type": "worker", "index": 0}}), "host:port"),
        (json.dumps({"cluster": {"worker": ["a:1"]}, "task": {"type": "ps", "index": 0}}), "task.type"),
        (json.dumps({**TWO_WORKERS, "task": {"type": "worker", "index": 2}}), r"task.index must be 0..1"),
        (json.dumps({**TWO_WORKERS, "task": {"type": "worker", "index": True}}), "task.index"),
    ],
)
def test_bad_tf_config_is_refused_with_a_reason(text, message):
    with pytest.raises(StrategyError, match=message) as info:
        parse_tf_config(text)
    assert isinstance(info.value, ValueError) and isinstance(info.value, SpecError)
    assert info.value.field == "--strategy" and "\n" not in str(info.value)


def test_good_tf_config_parses():
    assert parse_tf_config(json.dumps(TWO_WORKERS))["task"]["index"] == 1


def test_tpu_address_precedence():
    spec = TrainSpec(device="tpu", strategy="tpu")
    assert tpu_address(TrainSpec(device="tpu", tpu="my-tpu"), {"TPU_NAME": "other"}) == "my-tpu"
    assert tpu_address(spec, {"TPU_NAME": "named", "COLAB_TPU_ADDR": "10.0.0.2:8470"}) == "named"
    assert tpu_address(spec, {"COLAB_TPU_ADDR": "10.0.0.2:8470"}) == "grpc://10.0.0.2:8470"
    assert tpu_address(spec, {"TPU_ACCELERATOR_TYPE": "v4-8"}) == "local"


def test_no_tpu_is_a_clear_error(monkeypatch):
    for var in ("TPU_NAME", "COLAB_TPU_ADDR", "TPU_ACCELERATOR_TYPE"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(StrategyError, match="no TPU found.*TPU_NAME or COLAB_TPU_ADDR"):
        make_strategy(TrainSpec(device="tpu", strategy="auto"))
    with pytest.raises(StrategyError, match="tpu needs --device tpu"):
        make_strategy(TrainSpec(device="cpu", strategy="tpu"))


def test_multi_worker_without_tf_config_fails_before_touching_devices(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    with pytest.raises(StrategyError, match="TF_CONFIG"):
        make_strategy(TrainSpec(strategy="multi_worker"))
    monkeypatch.setenv("TF_CONFIG", '{"cluster": ')
    with pytest.raises(StrategyError, match="not valid JSON"):
        make_strategy(TrainSpec(strategy="multi_worker"))


def test_default_and_one_device_on_the_cpu():
    default = make_strategy(TrainSpec(strategy="auto"))
    assert (default.name, default.replicas) == ("default", 1) and default.strategy is tf.distribute.get_strategy()
    one = make_strategy(TrainSpec(strategy="one_device"))
    assert (one.name, one.replicas) == ("one_device", 1) and one.devices[0].endswith("CPU:0")
    assert isinstance(one.strategy, tf.distribute.OneDeviceStrategy)


def test_splitting_an_initialised_runtime_is_refused():
    tf.constant(1.0)  # TF is initialised in this process: logical devices can no longer be made
    with pytest.raises(StrategyError, match="fresh process"):
        make_strategy(TrainSpec(strategy="mirrored", logical_devices=2, batch_size=64))


def test_the_real_replica_count_must_divide_the_global_batch():
    eight = ResolvedStrategy(tf.distribute.get_strategy(), "tpu", 8, ("TPU:0",))  # as a v2-8 would report
    with pytest.raises(StrategyError, match="global batch 100 does not divide across the 8 replicas of tpu") as info:
        _check_batch(TrainSpec(batch_size=100), eight)
    assert info.value.field == "--batch-size" and "96" in str(info.value)
    assert _check_batch(TrainSpec(batch_size=128), eight) is eight


def test_mirrored_over_two_logical_cpus_has_two_replicas_and_the_same_loss_trend(db):
    args = ["run", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "64", "--epochs", "3"]
    args += ["--steps-per-epoch", "4", "--json"]
    one = run_cli(*args)
    two = run_cli(*args, "--logical-devices", "2", "--strategy", "mirrored")
    assert one.returncode == 0 and two.returncode == 0, one.stderr[-2000:] + two.stderr[-2000:]
    r1, r2 = last_json(one.stdout), last_json(two.stdout)
    assert (r1["replicas"], r1["strategy"]) == (1, "default")
    assert (r2["replicas"], r2["strategy"], r2["per_replica_batch_size"]) == (2, "mirrored", 32)
    assert r2["devices_used"].split(",") == [f"/job:localhost/replica:0/task:0/device:CPU:{i}" for i in (0, 1)]
    store = Store(db)
    loss1 = [e["loss"] for e in store.get_series(r1["run_id"], "epoch")]
    loss2 = [e["loss"] for e in store.get_series(r2["run_id"], "epoch")]
    assert len(loss1) == len(loss2) == 3
    assert loss1[-1] < loss1[0] and loss2[-1] < loss2[0]
    # same seed, same data, gradients averaged over the same global batch: the same training, up to
    # the order of floating-point sums in the all-reduce
    assert loss2 == pytest.approx(loss1, rel=1e-3)


def _free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


@pytest.mark.slow
def test_multi_worker_runs_across_two_worker_processes(tmp_path):
    ports = _free_ports(2)
    cluster = {"worker": [f"localhost:{p}" for p in ports]}
    procs = []
    for index in (0, 1):
        env = {
            **os.environ,
            "TF_CPP_MIN_LOG_LEVEL": "3",
            "ACCELBENCH_DB": str(tmp_path / f"w{index}" / "results.db"),
            "TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}}),
        }
        cmd = [sys.executable, "-m", "engine", "run", "--model", "tiny_cnn", "--dataset", "synthetic"]
        cmd += ["--batch-size", "32", "--epochs", "2", "--steps-per-epoch", "3", "--strategy", "multi_worker", "--json"]
        procs.append(
            subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        )
    outs = [p.communicate(timeout=240) for p in procs]
    rows = [last_json(out) for out, _ in outs]
    for row, (_, err) in zip(rows, outs, strict=True):
        assert row["status"] == "ok", (row["error"], err[-2000:])
        assert (row["strategy"], row["replicas"], row["per_replica_batch_size"]) == ("multi_worker", 2, 16)
    assert {r["devices_used"] for r in rows} == {f"/job:worker/replica:0/task:{i}/device:CPU:0" for i in (0, 1)}
    assert rows[0]["final_loss"] == pytest.approx(rows[1]["final_loss"])  # one synchronous training, two workers


def test_replica_counts_known_before_the_run_are_checked_and_unknown_ones_are_left_to_the_strategy():
    gpu = {"model": "fashion_cnn", "device": "gpu", "batch_size": 6}
    with pytest.raises(SpecError, match="does not divide across 4 replicas"):
        spec_from_dict({**gpu, "strategy": "mirrored"}, gpu_count=4)
    # --visible-devices narrows what the strategy will mirror over
    spec = spec_from_dict({**gpu, "visible_devices": "0,1"}, gpu_count=4)
    assert planned_replicas(spec, 4) == 2 and resolve_strategy(spec, 4) == "mirrored"
    # the worker re-validates without device counts: it must not refuse against a made-up count
    spec = spec_from_dict({**gpu, "strategy": "mirrored"}, gpu_count=UNKNOWN_GPU_COUNT)
    assert planned_replicas(spec, UNKNOWN_GPU_COUNT) is None
