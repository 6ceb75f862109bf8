"""AccelBench's own GPU measurements as reference rows: a results CSV of the reference pack → curated rows.

    python data/reference/accelbench_pack.py data/reference/measured/h100_gpu_check_2026-11-23.csv

prints the rows it would add. `build_reference.py` calls `rows_from_results` for every CSV in
`data/reference/measured/` and appends the rows after the published ones, so one builder makes the one
reference file.

A pack CSV is what `python -m engine results export` writes after `bench/gpu_check.sh` (one row per run,
design §3 columns). Each `ok` run becomes one row: a training run's steady-state examples/s, a
microbenchmark's median repetition time. Provenance: source kind `accelbench` (shown as "measured by
AccelBench"), origin `accelbench_pack`, a source id per device and date (`ACCELBENCH-H100-2026-11-23`),
and in the notes the run id, the timing spread, the driver, framework and Keras versions and the command
(from `<stem>.command`, one line, next to the CSV). The settings (hardware key, model, dataset, batch,
precision, backend) come from `engine.reference.normalize.local_settings`, the same mapping a local run
gets on Compare, so a pack row and the user's own run describe a workload the same way.
"""

from __future__ import annotations

import csv
import statistics
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

from curation_rules import display_name  # (needs HERE on sys.path first)

from engine.reference.data import COLUMN_NAMES
from engine.reference.normalize import local_settings
from engine.reference.units import HARDWARE, METRICS

MEASURED_DIR = HERE / "measured"
SOURCE_KIND = "accelbench"
ORIGIN = "accelbench_pack"
DEFAULT_COMMAND = "bench/gpu_check.sh OUT"


def _num(row: dict[str, str], key: str) -> float | None:
    try:
        v = float(row.get(key) or "")
    except ValueError:
        return None
    return v if v > 0 else None


def _fmt(v: float | None, spec: str = ".4g") -> str:
    return "-" if v is None else format(v, spec)


def source_id(results: list[dict[str, str]]) -> str:
    """`ACCELBENCH-<DEVICE>-<date of the first run>`: one source per device and pack day."""
    first = results[0]
    key = local_settings(first)["hardware_key"]
    return f"ACCELBENCH-{key.upper()}-{str(first.get('created_at') or '')[:10]}"


def _notes(r: dict[str, str], command: str) -> str:
    spread = (
        f"median step {_fmt(_num(r, 'step_time_ms_median'))} ms "
        f"(p10 {_fmt(_num(r, 'step_time_ms_p10'))}, p90 {_fmt(_num(r, 'step_time_ms_p90'))})"
    )
    if r.get("kind") == "train":
        work = f"{r.get('epochs')} epochs × {r.get('steps_per_epoch')} steps, first epoch (compile) excluded"
    else:
        work = "median of the timed repetitions after warm-up"
    versions = "; ".join(
        x
        for x in (
            f"framework {r['framework_version']}" if r.get("framework_version") else "",
            f"Keras {r['keras_version']}" if r.get("keras_version") else "",
            f"driver {r['driver_version']}" if r.get("driver_version") else "",
            f"Python {r['python_version']}" if r.get("python_version") else "",
        )
        if x
    )
    own = f" Engine notes: {r['notes']}" if r.get("notes") else ""
    return f"AccelBench run {r['run_id']}: {spread}; {work}; {versions}; command: {command}.{own}"


def _mode(r: dict[str, str]) -> str:
    """How the engine ran what the settings columns cannot say: native PyTorch compiled or eager; a micro op
    timed per call or in windows of back-to-back calls (the engine's method changed on 2026-11-25)."""
    notes = str(r.get("notes") or "")
    if "eager (--no-compile)" in notes:
        return ", eager: no torch.compile"
    if "torch.compile (" in notes:
        return ", torch.compile"
    if r.get("kind") in ("matmul", "conv2d") and "calls back to back" not in notes:
        return ", synced after every call"
    return ""


def _row(r: dict[str, str], sid: str, seq: int, title: str, command: str) -> dict[str, str]:
    base: dict[str, Any] = local_settings(r)
    if base["task"] == "micro":
        ms = _num(r, "step_time_ms_median")
        metric, value = "op_time_s", (ms / 1000 if ms else None)
    else:
        metric, value = "examples_per_s", _num(r, "examples_per_sec")
    if value is None:
        raise ValueError(f"run {r.get('run_id')}: no {metric} to publish although its status is ok")
    base |= {
        "ref_id": f"{sid}-{seq:02d}",
        "source_id": sid,
        "source_title": title,
        "source_url": "",
        "source_kind": SOURCE_KIND,
        "year": str(r.get("created_at") or "")[:4],
        "origin": ORIGIN,
        "hardware": "",
        "framework_label": f"{base['framework']} ({r.get('framework_version') or 'version not stated'}{_mode(r)})",
        "batch_label": str(base.get("batch_size") or ""),
        "precision_label": str(base["precision"]),
        "metric": metric,
        "value": repr(float(value)),
        "unit": METRICS[metric].unit,
        "higher_is_better": str(METRICS[metric].higher_is_better),
        "doubtful": "False",
        "notes": _notes(r, command),
    }
    base["hardware"] = display_name({k: str(v) for k, v in base.items()})
    out = {name: "" if base.get(name) is None else str(base.get(name)) for name in COLUMN_NAMES}
    out["xla"] = "True" if str(r.get("xla")).lower() == "true" else "False"  # a CSV cell, not a bool
    return out


def _backend_as_named_now(row: dict[str, str]) -> dict[str, str]:
    """Before schema_version 2, "torch" meant Keras on torch (engine.results.csvio reads exports the same way)."""
    if row.get("backend") == "torch" and int(float(row.get("schema_version") or 1)) < 2:
        return {**row, "backend": "keras-torch"}
    return row


def rows_from_results(path: Path, first_seq: int = 1) -> list[dict[str, str]]:
    """The reference rows one pack CSV gives (its `ok` runs, in the file's order), numbered from `first_seq`."""
    with path.open(newline="", encoding="utf-8") as f:
        results = [_backend_as_named_now(r) for r in csv.DictReader(f) if r.get("status") == "ok"]
    if not results:
        return []
    unknown = sorted({local_settings(r)["hardware_key"] for r in results} - set(HARDWARE) - {""})
    if unknown:
        raise ValueError(f"{path.name}: no hardware table entry for {unknown}")
    command_file = path.with_suffix(".command")
    command = command_file.read_text(encoding="utf-8").strip() if command_file.exists() else DEFAULT_COMMAND
    sid = source_id(results)
    first = results[0]
    title = (
        f"AccelBench reference pack: {first.get('device_name') or first.get('device')}, "
        f"{str(first.get('created_at') or '')[:10]} (driver {first.get('driver_version') or 'not stated'})"
    )
    return [_row(r, sid, i, title, command) for i, r in enumerate(results, start=first_seq)]


def pack_rows(folder: Path = MEASURED_DIR) -> list[dict[str, str]]:
    """Rows from every pack CSV in `folder`, files in name order, repeats of one configuration pooled."""
    rows: list[dict[str, str]] = []
    for path in sorted(folder.glob("*.csv")):
        # a pack split over several calls (`--part K/N`) is one source: its numbering carries on
        seq = 1 + sum(1 for r in rows if r["ref_id"].startswith(_source_of_file(path) + "-"))
        rows += rows_from_results(path, seq)
    return pool_repeats(rows)


# What makes two pack rows repeats of one configuration (the device, the workload and how it ran).
REPEAT_KEY = (
    "hardware_key", "framework", "framework_version", "framework_label", "task", "model", "dataset",
    "batch_size", "shape", "precision", "xla", "metric",
)  # fmt: skip


def pool_repeats(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """One row per configuration: the run with the median value (the lower of the middle two), its notes led by
    the spread of all repeats. A short steady state (8 windowed steps of a big model) moves ±7 % between
    calls, so one device's answer should not hang on whichever call ran best; published repeats across hosts
    are pooled the same way (modern_refs.py)."""
    groups: dict[tuple[str, ...], list[dict[str, str]]] = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in REPEAT_KEY), []).append(r)
    out: list[dict[str, str]] = []
    for r in rows:
        group = groups[tuple(r[k] for k in REPEAT_KEY)]
        if len(group) == 1:
            out.append(r)
            continue
        values = sorted(float(g["value"]) for g in group)
        middle = statistics.median_low(values)
        if float(r["value"]) != middle or any(o in group for o in out):
            continue
        runs = ", ".join(f"{_run_of(g)} {_figure(float(g['value']))}" for g in group)
        spread = f"{_figure(values[0])}–{_figure(values[-1])}"
        lead = f"Median of {len(group)} runs of this configuration ({spread} {r['unit']}: {runs}). "
        out.append({**r, "notes": lead + r["notes"]})
    return out


def _figure(v: float) -> str:
    return f"{v:,.0f}" if v >= 100 else f"{v:.4g}"


def _run_of(row: dict[str, str]) -> str:
    return row["notes"].split(":", 1)[0].removeprefix("AccelBench run ")


def _source_of_file(path: Path) -> str:
    with path.open(newline="", encoding="utf-8") as f:
        ok = [r for r in csv.DictReader(f) if r.get("status") == "ok"]
    return source_id(ok) if ok else ""


def _print(rows: Iterable[dict[str, str]]) -> None:
    for r in rows:
        print(
            f"{r['ref_id']}\t{r['hardware']}\t{r['framework']}\t{r['model']}\t{r['precision']}\t{r['metric']}={r['value']}"
        )


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or sorted(MEASURED_DIR.glob("*.csv"))
    for p in paths:
        _print(rows_from_results(p))
