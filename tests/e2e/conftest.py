"""Real-browser fixtures: `streamlit run app.py` on a free port, driven by Playwright in Debian's chromium.

Playwright's own browser download is not used (no CDN here); `executable_path` points at the
system chromium. Each server gets its own temporary results database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppServer:
    """A running `streamlit run app.py`; `url` is its address."""

    def __init__(self, tmp: Path, extra_env: dict[str, str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = tmp / "e2e.db"
        env = {**os.environ, "ACCELBENCH_DB": str(self.db), **(extra_env or {})}
        self.log = (tmp / f"streamlit-{self.port}.log").open("wb")  # noqa: SIM115 (open for the server's life; stop() closes it)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(ROOT / "app.py"),
                "--server.headless",
                "true",
                "--server.port",
                str(self.port),
                "--server.address",
                "127.0.0.1",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_healthy()

    def _wait_healthy(self, timeout_s: float = 60) -> None:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with {self.proc.returncode}; see {self.log.name}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok":
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("streamlit did not become healthy in time")

    def stop(self) -> None:
        import signal

        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()


@pytest.fixture(scope="session")
def _playwright():
    exe = chromium_path()
    if not exe:
        pytest.fail("no system chromium: run `apt-get install -y chromium` (the README's test command does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(_playwright):
    b = _playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
    yield b
    b.close()


@contextlib.contextmanager
def serving(tmp: Path, extra_env: dict[str, str] | None = None):
    """A server for the span of a `with` block (fixtures of any scope build on this)."""
    server = AppServer(tmp, extra_env)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def app_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("app")) as server:
        yield server


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("demo"), {"ACCELBENCH_DEMO": "1"}) as server:
        yield server


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    context.close()


def wait_for_app(page, timeout_ms: int = 60_000) -> None:
    """Streamlit's own readiness checks: connected, script not running, no skeletons."""
    from playwright.sync_api import expect

    page.wait_for_selector("[data-testid='stAppViewContainer']", state="attached", timeout=timeout_ms)
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", state="attached", timeout=timeout_ms
    )
    page.wait_for_timeout(300)
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-script-state='notRunning']", state="attached", timeout=timeout_ms
    )
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=timeout_ms)


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
