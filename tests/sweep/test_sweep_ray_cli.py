"""`engine sweep --on ray://127.0.0.1:PORT` against a real Ray head started with `ray start --head` on this
machine (2 CPUs, no dashboard): the 2×2 matrix of issue 21's "done when" lands as 4 ok runs with one
sweep id. The head is `ray start --block` in its own process group, stopped by killing that group
(never `ray stop`, which would stop every Ray on the machine)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import last_json, run_cli

from engine.results.status import RunStatus
from engine.runs.store import Store

pytest.importorskip("ray", reason="Ray is installed by scripts/test.sh (requirements-test.txt)")
RAY = Path(sys.executable).parent / "ray"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory):
    client_port = _free_port()
    log = tmp_path_factory.mktemp("ray") / "head.log"
    temp_dir = f"/tmp/ray-ab-{secrets.token_hex(3)}"  # short: Ray's socket paths must fit 107 characters
    args = [str(RAY), "start", "--head", "--block", f"--port={_free_port()}", f"--ray-client-server-port={client_port}",
            "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats", "--object-store-memory=80000000",
            f"--temp-dir={temp_dir}"]  # fmt: skip
    with log.open("wb") as out:
        head = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 90
    while not _listening(client_port) and head.poll() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    if not _listening(client_port):
        head.kill()
        pytest.fail(f"ray start --head did not come up: {log.read_text()[-2000:]}")
    yield f"ray://127.0.0.1:{client_port}", temp_dir
    # Every process of this head (GCS, raylet, agents, Ray workers) is in the head's process group: killing the
    # group ends them at once (its own SIGTERM shutdown takes ~30 s here) and touches no other Ray.
    os.killpg(head.pid, signal.SIGKILL)
    head.wait(30)
    shutil.rmtree(temp_dir, ignore_errors=True)


def _client_server_logs(temp_dir: str) -> str:
    """The tail of the head's Ray Client server logs: why a client was refused, if it was."""
    logs = sorted(Path(temp_dir).glob("session_*/logs/ray_client_server*"))
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-1500:]}" for p in logs)


def test_sweep_on_a_ray_head_by_address_stores_4_ok_runs_with_one_sweep_id(db, ray_address):
    address, temp_dir = ray_address
    proc = run_cli(
        "sweep", "--models", "tiny_cnn,fashion_cnn", "--batch-sizes", "16,32", "--backends", "jax", "--epochs", "1",
        "--steps-per-epoch", "2", "--on", address, "--json",
        env={"RAY_AUTH_MODE": "token"},  # Ray 2.60's head asks clients for its token (~/.ray/auth_token)
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:] + _client_server_logs(temp_dir)
    out = last_json(proc.stdout)
    assert [r["status"] for r in out["runs"]] == [RunStatus.OK] * 4
    rows = Store(db).list_runs()
    assert len(rows) == 4 and {r["sweep_id"] for r in rows} == {out["sweep_id"]} and all(r["node"] for r in rows)
