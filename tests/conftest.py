"""Shared fixtures: a temporary results database per test, and a CLI runner that uses it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    """ACCELBENCH_DB pointing at a fresh file for this test (the worker inherits it)."""
    path = tmp_path / "results.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(path))
    return path


def run_cli(*args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m engine ARGS` from the repo root with the current environment (+ env)."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})},
    )


@pytest.fixture
def cli(db):
    return run_cli
