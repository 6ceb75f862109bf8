"""TF_CONFIG, the cluster description MultiWorkerMirroredStrategy reads, checked as plain JSON.

Pure: no TensorFlow, so the launcher (engine.runs.jobs.prepare) refuses a multi-worker run without a
usable TF_CONFIG before anything starts, and the worker (engine.worker.strategies) checks it again
with the same words.
"""

from __future__ import annotations

import json

from engine.catalog.fields import SpecError

HINT = 'e.g. {"cluster": {"worker": ["host1:12345", "host2:12345"]}, "task": {"type": "worker", "index": 0}}'


def parse_tf_config(text: str | None, error: type[SpecError] = SpecError) -> dict:
    """Validate TF_CONFIG for MultiWorkerMirroredStrategy; returns the parsed dict.

    Raises `error` (a SpecError naming --strategy) with one line saying what is missing.
    """
    if not text or not text.strip():
        raise error("--strategy", f"multi_worker needs the TF_CONFIG environment variable on every machine ({HINT})")
    try:
        cfg = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error("--strategy", f"TF_CONFIG is not valid JSON ({exc.msg} at char {exc.pos}); {HINT}") from None
    cluster = cfg.get("cluster") if isinstance(cfg, dict) else None
    workers = cluster.get("worker") if isinstance(cluster, dict) else None
    if not isinstance(workers, list) or not workers or not all(isinstance(w, str) and ":" in w for w in workers):
        raise error("--strategy", f"TF_CONFIG needs cluster.worker as a list of host:port addresses; {HINT}")
    task = cfg.get("task")
    if not isinstance(task, dict) or task.get("type") not in ("worker", "chief"):
        raise error("--strategy", f"TF_CONFIG needs task.type 'worker' (or 'chief'); {HINT}")
    index = task.get("index")
    size = len(cfg["cluster"].get(task["type"], []))
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < size:
        raise error(
            "--strategy", f"TF_CONFIG task.index must be 0..{size - 1} for its {size} {task['type']}(s), got {index!r}"
        )
    return cfg
