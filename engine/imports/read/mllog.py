"""MLPerf Training result logs (`results/<system>/<benchmark>/result_N.txt`): `:::MLLOG {json}` events, often
after the submitter's `:::SYSJSON {json}` system description, read as one time series — one row per
`eval_accuracy` event, minutes since `run_start`, with the epoch, the last `tracked_stats` throughput and the
run's benchmark, batch size, system and status on every row.

Pure Python + pandas; no streamlit.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pandas as pd

from engine.imports.facts.mlperf_systems import device_of, no_accelerator
from engine.imports.facts.system_names import names_device, parse_system
from engine.results.errors import CsvError

_IMPLEMENTATION = re.compile(r"(?:^|/)implementations/([^/]+)/")
_LINE = re.compile(r"^.*?:::(MLLOG|SYSJSON)\s+(\{.*\})\s*$")
# SYSJSON keys kept on every row (the rest of the system description is not about this run's speed).
_SYSTEM = ("system_name", "accelerator_model_name", "accelerators_per_node", "number_of_nodes", "framework")


def is_mllog(text: str) -> bool:
    """A text whose first non-blank lines carry `:::MLLOG` or `:::SYSJSON` records."""
    head = [line for line in text[:20000].splitlines() if line.strip()][:50]
    return any(":::MLLOG " in line for line in head)


def _events(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    system: dict[str, Any] = {}
    events = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        try:
            doc = json.loads(m.group(2))
        except json.JSONDecodeError:
            continue  # a truncated line (a log cut by the job's end) is skipped, not fatal
        if m.group(1) == "SYSJSON":
            system = system or doc
        elif isinstance(doc, dict) and "key" in doc:
            events.append(doc)
    return system, events


def _first(events: list[dict[str, Any]], key: str) -> dict[str, Any]:
    return next((e for e in events if e.get("key") == key), {})


def _num(value: Any) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if out > 0 and np.isfinite(out) else None


def _devices(system: dict[str, Any], events: list[dict[str, Any]]) -> float | None:
    per_node, nodes = _num(system.get("accelerators_per_node")), _num(system.get("number_of_nodes"))
    if per_node and nodes:
        return per_node * nodes
    glob, local = (
        _num(_first(events, "global_batch_size").get("value")),
        _num(_first(events, "local_batch_size").get("value")),
    )
    return glob / local if glob and local else None


def per_device_scale(system: dict[str, Any], events: list[dict[str, Any]], logged: float | None) -> float:
    """How many devices a logged `tracked_stats` throughput must be multiplied by to be the system's rate: the
    device count when the log's own epoch timing says the figure is per device (NVIDIA's SSD logs 211.6 on 64
    H100 where an epoch of 4,572 × 256 images takes 86.4 s: 13,545 images/s), else 1 (taken as logged)."""
    n = _devices(system, events)
    starts = [e["time_ms"] for e in events if e.get("key") == "epoch_start" and e.get("time_ms") is not None]
    stops = [e["time_ms"] for e in events if e.get("key") == "epoch_stop" and e.get("time_ms") is not None]
    spans = [b - a for a, b in zip(starts, stops, strict=False) if b > a]
    per_epoch = _num(_first(events, "train_samples").get("value"))
    if not (n and n > 1 and logged and spans and per_epoch):
        return 1.0
    seconds = float(np.median(spans)) / 1000.0
    batch = _num(_first(events, "global_batch_size").get("value")) or 1.0
    rates = [per_epoch / seconds, per_epoch * batch / seconds]  # train_samples counts samples or iterations
    near = lambda a, b: abs(a - b) <= 0.1 * b  # noqa: E731
    if any(near(logged * n, r) for r in rates) and not any(near(logged, r) for r in rates):
        return n
    return 1.0


def read_mllog(text: str) -> pd.DataFrame:
    """The log's evaluations as text cells plus `_row` (the line order). Raises CsvError when it has none."""
    system, events = _events(text)
    system = _with_events(system, events)
    start = _first(events, "run_start").get("time_ms") or (events[0].get("time_ms") if events else None)
    evals = [e for e in events if e.get("key") == "eval_accuracy" and e.get("time_ms") is not None]
    stop = _first(events, "run_stop")
    common = {
        "benchmark": _first(events, "submission_benchmark").get("value"),
        "global_batch_size": _first(events, "global_batch_size").get("value"),
        **{k: system.get(k) for k in _SYSTEM},
        "status": (stop.get("metadata") or {}).get("status") or "",
    }
    if start is None or not evals:
        return _as_cells(pd.DataFrame([{**common, **_results(events, start, stop)}]))
    stats = [e for e in events if e.get("key") == "tracked_stats" and isinstance(e.get("value"), dict)]
    scale = per_device_scale(system, events, _num(stats[0]["value"].get("throughput")) if stats else None)
    rows = []
    for e in evals:
        meta = e.get("metadata") or {}
        before = [s for s in stats if (s.get("time_ms") or 0) <= e["time_ms"]]
        thr = before[-1]["value"].get("throughput") if before else None
        if (logged := _num(thr)) is not None:
            thr = logged * scale  # the system's rate (a per-device figure × the count)
        rows.append({
            **common,
            "epoch": meta.get("epoch_num", meta.get("epoch_count", meta.get("samples_count"))),
            "minutes": (float(e["time_ms"]) - float(start)) / 60000.0,
            "eval_accuracy": e.get("value"),
            "throughput (samples/s)": thr,
        })  # fmt: skip
    return _as_cells(pd.DataFrame(rows))


def _as_cells(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.dropna(axis=1, how="all")
    frame = frame.map(lambda v: "" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v)).astype(object)
    frame["_row"] = np.arange(1, len(frame) + 1)
    return frame


def _with_events(system: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The system as SYSJSON describes it, else as the log's own events do: MLPerf HPC logs `number_of_nodes` and
    `accelerators_per_node`; every log names its `submission_platform` (the system's name in the results table)
    unless the submitter left the template's placeholder."""
    out = dict(system)
    for key in ("number_of_nodes", "accelerators_per_node"):
        if out.get(key) is None and _first(events, key).get("value") is not None:
            out[key] = _first(events, key)["value"]
    if no_accelerator(out):
        # A CPU-only system: the device is the host CPU, else (Fugaku's A64FX nodes) the system's name names it,
        # counted once per node as MLPerf HPC's results table counts such systems (512 nodes: 512 A64FX)
        name, out["accelerators_per_node"] = device_of(out)
        out.pop("accelerator_model_name", None)
        out.update({"accelerator_model_name": name} if name else {})
    platform = str(_first(events, "submission_platform").get("value") or "")
    if not out.get("system_name") and platform and "placeholder" not in platform.lower():
        out["system_name"] = _refined(platform, events)
    return out


def _refined(platform: str, events: list[dict[str, Any]]) -> str:
    """The platform, its device named more exactly where the implementation's folder does: MLPerf Training lays a
    submission out as `<submitter>/benchmarks/<benchmark>/implementations/<implementation>/`, and each event's
    `metadata.file` is the source that logged it. Habana names the platform by family and count (`gaudi-8`) and the
    implementation by system (`HLS-Gaudi2-PT`): 8 × Gaudi2. A device the hardware table knows is kept as named."""
    read = parse_system(platform)
    if read.hardware_key or not names_device(platform):
        return platform
    for event in events[:100]:
        found = _IMPLEMENTATION.search(str((event.get("metadata") or {}).get("file") or ""))
        exact = parse_system(found.group(1)).device_model if found and names_device(found.group(1)) else ""
        if exact.lower() != read.device_model.lower() and exact.lower().startswith(read.device_model.lower()):
            return f"{f'{read.device_count}x ' if read.device_count else ''}{exact} ({platform})"
    return platform


def _results(events: list[dict[str, Any]], start: Any, stop: dict[str, Any]) -> dict[str, Any]:
    """A log with no eval_accuracy: its `result_*` events (LoadGen's detail log: `result_samples_per_second`,
    `result_mean_latency_ns` → `mean_latency (ns)`) and, for a training run that succeeded (MLPerf HPC logs
    eval_error, not accuracy), its time to train: run_start to run_stop."""
    out: dict[str, Any] = {}
    for e in events:
        key, value = str(e.get("key", "")), e.get("value")
        if key.startswith("result_") and isinstance(value, int | float) and not isinstance(value, bool):
            name = key.removeprefix("result_")
            unit = re.search(r"_(ns|us|ms|s)$", name)
            out[f"{name[: unit.start()]} ({unit.group(1)})" if unit else name] = value
    meta = stop.get("metadata") or {}
    if start is not None and stop.get("time_ms") is not None and meta.get("status") == "success":
        out["time_to_train (min)"] = (float(stop["time_ms"]) - float(start)) / 60000.0
    if not out:
        raise CsvError(
            "an MLPerf log (:::MLLOG lines) with no eval_accuracy, result_* or run_stop event: nothing to chart"
        )
    return out


__all__ = ["is_mllog", "per_device_scale", "read_mllog"]
