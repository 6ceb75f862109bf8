"""`engine sweep --on ray://127.0.0.1:PORT` against a real Ray head started with `ray start --head` on this
machine (tests/sweep/ray_head.py): the 2×2 matrix of issue 21's "done when" lands as 4 ok runs with one
sweep id, and with --skip-invalid the cells `engine run` refuses for memory are listed with the estimate, never
sent; `--on ray://` without a host is refused at once, and Ctrl-C while connecting cancels cleanly (issue 30
item 5)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import ROOT, last_json, run_cli
from ray_head import client_server_logs, free_port, start_head

from engine.results.status import RunStatus
from engine.runs.store import Store

pytest.importorskip("ray", reason="Ray is installed by scripts/test.sh (requirements-test.txt)")
# a head with token authentication (Ray 2.60's default where ~/.ray/auth_token exists) asks clients for it
TOKEN = {"RAY_AUTH_MODE": "token"} if (Path.home() / ".ray" / "auth_token").exists() else {}


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory):
    head = start_head(tmp_path_factory.mktemp("ray") / "head.log")
    yield head.address, head.temp_dir
    head.close()


def test_sweep_on_a_ray_head_by_address_stores_4_ok_runs_and_skips_a_cell_too_big_for_memory(db, ray_address):
    address, temp_dir = ray_address
    proc = run_cli(
        "sweep", "--models", "tiny_cnn,fashion_cnn", "--batch-sizes", "16,32,1000000", "--backends", "jax",
        "--epochs", "1", "--steps-per-epoch", "2", "--on", address, "--skip-invalid", "--json", env=TOKEN,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:] + client_server_logs(temp_dir)
    out = last_json(proc.stdout)
    assert [r["status"] for r in out["runs"]] == [RunStatus.OK] * 4
    rows = Store(db).list_runs()
    assert len(rows) == 4 and {r["sweep_id"] for r in rows} == {out["sweep_id"]} and all(r["node"] for r in rows)
    # the two b1000000 cells: skipped with `engine run`'s own memory estimate, never sent to Ray
    assert len(out["skipped"]) == 2 and all(" b1000000 " in s["cell"] for s in out["skipped"]), out["skipped"]
    assert all("needs about" in s["reason"] and "Ray node " in s["reason"] for s in out["skipped"])
    assert proc.stderr.count("skipped cell") == 2 and "b1000000" in proc.stderr


@pytest.mark.parametrize("on", ["ray://", "ray://:10001", "ray://127.0.0.1:99999"])
def test_ray_without_a_host_is_refused_at_once(db, on):
    proc = run_cli("sweep", "--models", "tiny_cnn", "--on", on, timeout=300)  # a hang guard
    assert proc.returncode == 2 and "names no Ray head" in proc.stderr and "Traceback" not in proc.stderr
    assert not db.exists() or Store(db).count_runs() == 0


def test_ctrl_c_while_connecting_cancels_cleanly_without_a_traceback(db):
    # nothing listens on this loopback port: Ray Client would try for 30 s; Ctrl-C comes once it is trying
    args = [sys.executable, "-m", "engine", "sweep", "--models", "tiny_cnn", "--backends", "jax",
            "--on", f"ray://127.0.0.1:{free_port()}"]  # fmt: skip
    # a suite started in the background (`cmd &`) inherits SIGINT ignored, and the sweep would then wait out Ray's
    # 30 s and fail to connect: give it the terminal's default, as a user's shell does (as test_sweep_local)
    sweep = subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    guard = threading.Timer(400, sweep.kill)
    guard.start()
    seen = ""
    while "ray.init" not in seen and sweep.poll() is None:  # Ray's "Passing the following kwargs to ray.init()"
        seen += sweep.stderr.readline() if sweep.stderr else ""
    sweep.send_signal(signal.SIGINT)
    out, err = sweep.communicate(timeout=400)  # a hang guard: the message below says Ctrl-C, not a timeout, ended it
    guard.cancel()
    assert sweep.returncode == 1, seen + err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "cancelled (Ctrl-C)" in err, err
    assert not db.exists() or Store(db).count_runs() == 0
