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
from dataclasses import dataclass
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

    def stop(self, sig: int = signal.SIGKILL) -> None:
        """Signal every process of this head (GCS, raylet, client server, agents, Ray workers): they are all in
        the head's process group. SIGTERM is what `ray stop` sends; SIGKILL ends them at once."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)

    def close(self) -> None:
        self.stop(signal.SIGKILL)
        self.proc.wait(30)
        shutil.rmtree(self.temp_dir, ignore_errors=True)


def start_head(log: Path, timeout_s: float = 90) -> Head:
    """Start a head and wait for its Ray Client port; RuntimeError (with the log's tail) when it does not come up."""
    client_port = free_port()
    temp_dir = f"/tmp/ray-ab-{secrets.token_hex(3)}"  # short: Ray's socket paths must fit 107 characters
    args = [str(RAY), "start", "--head", "--block", f"--port={free_port()}", f"--ray-client-server-port={client_port}",
            "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats", "--object-store-memory=80000000",
            f"--temp-dir={temp_dir}"]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + timeout_s
    while not listening(client_port) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    head = Head(f"ray://127.0.0.1:{client_port}", temp_dir, proc)
    if not listening(client_port):
        head.close()
        raise RuntimeError(f"ray start --head did not come up: {log.read_text()[-2000:]}")
    return head


def client_server_logs(temp_dir: str) -> str:
    """The tail of the head's Ray Client server logs: why a client was refused, if it was."""
    logs = sorted(Path(temp_dir).glob("session_*/logs/ray_client_server*"))
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-1500:]}" for p in logs)
