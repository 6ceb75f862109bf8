"""A real Python runtime that lacks some frameworks, without pip or a download: a fresh venv (`--without-pip`,
about a second) whose site-packages links every entry of this venv's except the named packages and their
dist-info. Its interpreter starts the engine's workers too (sys.executable), so a run in it imports, finds and
lacks exactly what a runtime with those packages uninstalled would (importlib's PathFinder sees the same disk)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

from conftest import ROOT


def runtime_without(tmp: Path, *packages: str) -> Path:
    """The python of a venv under `tmp` holding this venv's packages except `packages` (top-level names)."""
    env_dir = tmp / f"without-{'-'.join(packages)}"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    ours = Path(sysconfig.get_paths()["purelib"])
    (theirs,) = env_dir.glob("lib/python*/site-packages")
    left_out = re.compile(rf"^({'|'.join(re.escape(p) for p in packages)})([-_.].*)?$", re.IGNORECASE)
    for entry in ours.iterdir():
        if not left_out.match(entry.name) and not (theirs / entry.name).exists():
            (theirs / entry.name).symlink_to(entry)
    return env_dir / "bin" / "python"


def run_engine(python: Path, *args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m engine ARGS` from the repo root under `python` (the current environment + env)."""
    return subprocess.run(
        [str(python), "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})},
    )
