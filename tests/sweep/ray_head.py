"""A real Ray head for the sweep tests: `ray start --head --block` on this machine (2 CPUs, no dashboard, loopback
client port), in its own process group, so a test stops exactly this head — never `ray stop`, which would stop
every Ray on the machine. Imported by the tests of this folder (pytest puts it on sys.path)."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

RAY = Path(sys.executable).parent / "ray"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Head:
    """A started head: its client address (`ray://127.0.0.1:PORT`), temp dir, and `ray start` process."""

    address: str
    temp_dir: str
    proc: subprocess.Popen
    gcs: str = ""  # HOST:PORT that another node's `ray start --address` joins
    nodes: list[subprocess.Popen] = field(default_factory=list)  # nodes added by add_node

    def stop(self, sig: int = signal.SIGKILL) -> None:
        """Signal every process of this head (GCS, raylet, client server, agents, Ray workers): they are all in
        the head's process group. SIGTERM is what `ray stop` sends; SIGKILL ends them at once."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)

    def close(self) -> None:
        for node in self.nodes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(node.pid, signal.SIGKILL)
            node.wait(30)
        self.stop(signal.SIGKILL)
        self.proc.wait(30)
        shutil.rmtree(self.temp_dir, ignore_errors=True)


def start_head(log: Path, timeout_s: float = 90, num_cpus: int = 2, env: dict | None = None) -> Head:
    """Start a head and wait for its Ray Client port; RuntimeError (with the log's tail) when it does not come up.
    `env`: added to the head's environment (its Ray workers inherit it)."""
    client_port, gcs_port = free_port(), free_port()
    temp_dir = f"/tmp/ray-ab-{secrets.token_hex(3)}"  # short: Ray's socket paths must fit 107 characters
    args = [str(RAY), "start", "--head", "--block", f"--port={gcs_port}", f"--ray-client-server-port={client_port}",
            f"--num-cpus={num_cpus}", "--include-dashboard=false", "--disable-usage-stats",
            "--object-store-memory=80000000", f"--temp-dir={temp_dir}"]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(
            args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **(env or {})}
        )
    deadline = time.monotonic() + timeout_s
    while not listening(client_port) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    head = Head(f"ray://127.0.0.1:{client_port}", temp_dir, proc, gcs=f"127.0.0.1:{gcs_port}")
    if not listening(client_port):
        head.close()
        raise RuntimeError(f"ray start --head did not come up: {log.read_text()[-2000:]}")
    return head


def client_server_logs(temp_dir: str) -> str:
    """The tail of the head's Ray Client server logs: why a client was refused, if it was."""
    logs = sorted(Path(temp_dir).glob("session_*/logs/ray_client_server*"))
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-1500:]}" for p in logs)


def add_node(head: Head, log: Path, num_cpus: int = 1, env: dict | None = None, timeout_s: float = 90) -> None:
    """A second Ray node on this machine (its own raylet, its own CPUs) joined to `head`: what a two-host cluster
    is to the scheduler (placement groups spread over node ids). Waits until the cluster counts it."""
    token = {"RAY_AUTH_MODE": "token"} if (Path.home() / ".ray" / "auth_token").exists() else {}
    args = [str(RAY), "start", "--block", f"--address={head.gcs}", f"--num-cpus={num_cpus}", "--disable-usage-stats",
            "--object-store-memory=80000000"]  # fmt: skip
    with log.open("wb") as out:
        head.nodes.append(
            subprocess.Popen(
                args,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, **token, **(env or {})},
            )  # fmt: skip
        )
    status = [str(RAY), "status", f"--address={head.gcs}"]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        out = subprocess.run(status, capture_output=True, text=True, env={**os.environ, **token}).stdout
        if out.count(" node_") >= 1 + len(head.nodes):
            return
        time.sleep(1)
    raise RuntimeError(f"the added Ray node did not join: {log.read_text()[-2000:]}")
