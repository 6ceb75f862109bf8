"""Ask TensorFlow which devices it sees — in a child process, so the dashboard never imports TF.

`python -m engine devices --probe --json` starts TensorFlow, lists its physical devices and exits;
a hung driver cannot hang the page because the child has a timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

from engine import settings

PROBE_TIMEOUT_S = 120.0


def probe_tensorflow(timeout_s: float = PROBE_TIMEOUT_S) -> dict[str, Any]:
    """{"ok", "version", "devices", "seconds", "error"} from a fresh TensorFlow process."""
    t0 = time.perf_counter()
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    try:
        # communicate() drains stdout and stderr together, so a chatty TF start-up cannot fill a pipe and block
        proc = subprocess.run(
            [sys.executable, "-m", "engine", "devices", "--probe", "--json"],
            cwd=settings.ROOT,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return _fail(f"TensorFlow did not answer within {timeout_s:g} s (a stuck driver or a very slow start)", t0)
    except OSError as exc:
        return _fail(f"could not start Python: {exc}", t0)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return _fail(f"TensorFlow exited with code {proc.returncode}: {tail[0][:300]}", t0)
    try:
        info = json.loads(proc.stdout.strip().splitlines()[-1])
        tf = info["tensorflow"]
    except (ValueError, KeyError, IndexError):
        return _fail("TensorFlow's answer could not be read (no JSON on the last line)", t0)
    return {
        "ok": True,
        "version": tf.get("version", ""),
        "devices": list(tf.get("devices", [])),
        "seconds": time.perf_counter() - t0,
        "error": "",
    }


def _fail(message: str, t0: float) -> dict[str, Any]:
    return {"ok": False, "version": "", "devices": [], "seconds": time.perf_counter() - t0, "error": message}
