"""Read a user's model before its run starts (issue 20), in a subprocess: the CLI and the Run page refuse a
model that cannot load (safe mode, a bad function, an unfed input) before any worker or stored row exists,
and show its parameter count and FLOPs; this process never imports a framework."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict
from typing import Any

from engine.catalog.specs import TrainSpec

READ_TIMEOUT_S = 180.0


class ModelCheckError(ValueError):
    """The model cannot run; the message is one line a person can act on."""


def read_model(spec: TrainSpec, timeout_s: float = READ_TIMEOUT_S) -> dict[str, Any]:
    """What the model is (name, params, FLOPs per example, inputs) or ModelCheckError saying why it cannot run."""
    raw = {k: v for k, v in asdict(spec).items() if k != "model"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "engine.worker.inspect_model", json.dumps(raw)],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            cwd=spec.model_path or None,
        )
    except subprocess.TimeoutExpired:
        raise ModelCheckError(f"reading the model took over {timeout_s:g} s; is its build function training?") from None
    lines = done.stdout.strip().splitlines()
    try:
        out = json.loads(lines[-1]) if lines else {}
    except json.JSONDecodeError:
        out = {}
    if not out:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ModelCheckError(f"reading the model failed: {tail}")
    if not out.get("ok"):
        raise ModelCheckError(str(out.get("error")))
    return out
