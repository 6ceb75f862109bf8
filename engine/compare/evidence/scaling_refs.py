"""Published multi-device scaling of one model, from the curated reference: for each source, device, precision
and software stack that published the model at one device and at N, the rate at N, the ideal (N × the rate at 1)
and efficiency = rate at N ÷ (N × rate at 1), with its spread. A ratio is taken only inside one series — one
source, one device (hardware key), one precision, one stack, one per-device batch, one input shape — so nothing
else changes along it but the device count. engine.compare.words.scaling_text says it in a sentence.

Spread: a source's rows at one count (host variants, e.g. Lambda's HTOff and plain H200) and, where a row's
notes state it, the spread over its hosts ("spread 2683–2800, n 39"): low = lowest at N ÷ (N × highest at 1),
high = highest at N ÷ (N × lowest at 1). Pure Python + pandas; rows are reference-schema mappings.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import pandas as pd

from engine.compare.facts.likeforlike import FRAMEWORK_TEXT, precision_text
from engine.compare.facts.workload import device_count, device_unit, input_shape, shaped_model
from engine.reference.normalize import is_missing
from engine.reference.units import HARDWARE, THROUGHPUT_METRICS

PUBLISHERS = {"LAMBDA": "Lambda", "NV-DLE": "NVIDIA", "MLPERF": "MLPerf", "TF-BENCH": "tf_cnn_benchmarks"}
ABOVE_IDEAL = 1.05  # a published efficiency above this is not scaling alone: the rows differ in something else
_HOSTS = re.compile(r"spread (\d+(?:\.\d+)?)[–-](\d+(?:\.\d+)?), n (\d+)")
_COUNT = re.compile(r"^\s*\d+\s*[×x]\s*")


class Key(NamedTuple):
    """What stays fixed along one published curve."""

    source: str  # source_id
    device: str  # hardware key
    precision: str
    stack: str  # framework label as the source states it
    batch_per_device: int | None  # None: the source did not state its batch
    shape: str  # the input shape, as text ("224×224×3", "384"; "" when not stated)


@dataclass(frozen=True)
class Point:
    """One device count of a series: examples/s of the whole system (median over the source's rows at that
    count), ideal = count × the rate at 1 (median of the 1-device rows of the same system), efficiency = rate ÷
    ideal, and its spread (lowest, highest) over every pair of rows and their stated host spreads."""

    devices: float
    examples_per_sec: float
    ideal: float
    efficiency: float
    low: float
    high: float
    rows: int
    ref_ids: tuple[str, ...]


@dataclass(frozen=True)
class Series:
    key: Key
    model: str
    unit: str  # one device: "gpu", "die", "chip", "board"
    publisher: str
    year: int | None
    points: tuple[Point, ...]  # the 1-device point first

    @property
    def device_name(self) -> str:
        return HARDWARE[self.key.device].short if self.key.device in HARDWARE else self.key.device

    @property
    def stack_short(self) -> str:
        fw = self.key.stack.split(" (")[0]
        return FRAMEWORK_TEXT.get(fw.lower(), fw)

    @property
    def who(self) -> str:
        """'Lambda PyTorch 2025', 'NVIDIA TensorFlow 1.x 2020': the publisher, its stack and the source's year."""
        return " ".join(x for x in (self.publisher, self.stack_short, str(self.year or "")) if x)

    @property
    def label(self) -> str:
        """'H100 · Lambda PyTorch 2025 · mixed fp16 · 1,280 per GPU'."""
        batch = f"{self.key.batch_per_device:,} per {self.unit.upper()}" if self.key.batch_per_device else "batch n/a"
        return f"{self.device_name} · {self.who} · {precision_text(self.key.precision)} · {batch}"


def publisher(source_id: str) -> str:
    return next((name for prefix, name in PUBLISHERS.items() if source_id.startswith(prefix)), source_id)


def system_name(label: str) -> str:
    """The system a row names, without its count: '8× K80 die (p2.8xlarge)' → 'K80 (p2.8xlarge)'."""
    text = _COUNT.sub("", str(label)).replace("(1 die)", "").replace(" die", "")
    return " ".join(text.split())


def _plain_system(label: str) -> str:
    return " ".join(re.sub(r"\([^)]*\)", "", system_name(label)).split())


def _batch_per_device(row: Mapping[str, Any], devices: float) -> int | None:
    got = row.get("batch_size")
    if got is None or is_missing(got):
        return None
    batch = float(got)
    scope = str(row.get("batch_scope") or "")
    if scope == "per_replica":
        return int(batch)
    if scope == "global" and devices:
        return int(round(batch / devices))
    return None


def _spread(row: Mapping[str, Any]) -> tuple[float, float, float]:
    """(value, lowest, highest): the row's published value and the spread over its hosts where its notes state one."""
    value = float(row["value"])
    m = _HOSTS.search(str(row.get("notes") or ""))
    if m is None:
        return value, value, value
    return value, min(value, float(m[1])), max(value, float(m[2]))


def _key(row: Mapping[str, Any], devices: float) -> Key:
    shape = input_shape(row)
    stack = "" if is_missing(row.get("framework_label")) else str(row.get("framework_label"))
    return Key(
        str(row["source_id"]),
        str(row["hardware_key"]),
        str(row.get("precision") or "unknown"),
        stack or str(row.get("framework") or ""),
        _batch_per_device(row, devices),
        "×".join(str(d) for d in shape) if shape else "",
    )


def usable_rows(ref: pd.DataFrame | None, model: str) -> list[tuple[Key, float, dict[str, Any]]]:
    """(series key, devices, row) for every training rate of `model` (shape-qualified, `bert_base@384`) whose
    source states its device count; doubtful rows and one-sided bounds stay out."""
    if ref is None or ref.empty:
        return []
    part = ref[(ref["task"] == "training") & ref["metric"].isin(THROUGHPUT_METRICS)]
    out = []
    for row in part.to_dict("records"):
        if shaped_model(row) != model or row.get("doubtful") is True:
            continue
        if str(row.get("value_kind")) in ("lower_bound", "upper_bound") or is_missing(row.get("value")):
            continue
        n = device_count(str(row["hardware_key"]), row.get("hardware_count"), row.get("count_unit"))
        if n is None or n <= 0 or float(row["value"]) <= 0:
            continue
        out.append((_key(row, n), n, row))
    return out


def _matching_ones(row: Mapping[str, Any], ones: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The 1-device rows of the same system as `row` (its host variant too, where one exists), else all."""
    exact = [o for o in ones if system_name(o["hardware"]) == system_name(row["hardware"])]
    plain = [o for o in ones if _plain_system(o["hardware"]) == _plain_system(row["hardware"])]
    return exact or plain or ones


def _series(key: Key, model: str, rows: list[tuple[float, dict[str, Any]]]) -> Series | None:
    ones = [r for n, r in rows if n == 1]
    counts = sorted({n for n, _ in rows if n > 1})
    if not ones or not counts:
        return None
    points = []
    for n in [1.0, *counts]:
        at_n = [r for c, r in rows if c == n]
        pairs = [(_spread(r), _spread(o)) for r in at_n for o in (_matching_ones(r, ones) if n > 1 else at_n)]
        rate = statistics.median(float(r["value"]) for r in at_n)
        ideal = n * statistics.median(one[0] for _, one in pairs)  # N × the rate at 1 of the same system
        lows = [lo / (n * hi1) for (_, lo, _), (_, _, hi1) in pairs]
        highs = [hi / (n * lo1) for (_, _, hi), (_, lo1, _) in pairs]
        ids = tuple(str(r["ref_id"]) for r in at_n)
        points.append(Point(n, rate, ideal, rate / ideal, min(lows), max(highs), len(at_n), ids))
    years = [int(r["year"]) for _, r in rows if not is_missing(r.get("year"))]
    return Series(key, model, device_unit(key.device), publisher(key.source), max(years) if years else None,
                  tuple(points))  # fmt: skip


def published_scaling(ref: pd.DataFrame | None, model: str) -> dict[Key, Series]:
    """Every published curve of `model` that has a 1-device row and at least one N > 1 row, newest source first."""
    groups: dict[Key, list[tuple[float, dict[str, Any]]]] = {}
    for key, n, row in usable_rows(ref, model):
        groups.setdefault(key, []).append((n, row))
    found = [s for k, rows in groups.items() if (s := _series(k, model, rows)) is not None]
    found.sort(key=lambda s: (-(s.year or 0), s.key.source, s.key.device, s.key.precision))
    return {s.key: s for s in found}


def curves(series: Mapping[Key, Series]) -> dict[tuple[str, str, str], list[tuple[float, float, float]]]:
    """{(device, precision, source): [(devices, examples/s, efficiency)]} — the curves in their plainest form
    (a source with two stacks or batches for one device and precision keeps the first, newest-first order)."""
    out: dict[tuple[str, str, str], list[tuple[float, float, float]]] = {}
    for k, s in series.items():
        out.setdefault(
            (k.device, k.precision, k.source), [(p.devices, p.examples_per_sec, p.efficiency) for p in s.points]
        )
    return out


def frame(series: Mapping[Key, Series]) -> pd.DataFrame:
    """One line per series and device count, for the chart and the table."""
    records = [
        {
            "series": s.label,
            "device": s.device_name,
            "precision": precision_text(k.precision),
            "source": k.source,
            "stack": s.stack_short,
            "who": s.who,
            "batch_per_device": k.batch_per_device,
            "batch": f"{k.batch_per_device:,} per {s.unit.upper()}" if k.batch_per_device else "not stated",
            "devices": p.devices,
            "examples_per_sec": p.examples_per_sec,
            "ideal": p.ideal,
            "speedup": p.efficiency * p.devices,  # rate at N ÷ the rate at 1 of the same system
            "efficiency": p.efficiency,
            "low": p.low,
            "high": p.high,
            "rows": p.rows,
            "note": note(p),
            "unit": s.unit,
            "ref_ids": ", ".join(p.ref_ids),
        }  # fmt: skip
        for k, s in series.items()
        for p in s.points
    ]
    columns = ["series", "device", "precision", "source", "stack", "who", "batch_per_device", "batch", "devices",
               "examples_per_sec", "ideal", "speedup", "efficiency", "low", "high", "rows", "note", "unit",
               "ref_ids"]  # fmt: skip
    return pd.DataFrame(records, columns=columns)


def default_pick(series: Mapping[Key, Series], limit: int = 6) -> list[str]:
    """The series a page shows first: the newest source's (at most `limit`), mixed precision before float32."""
    if not series:
        return []
    newest = next(iter(series.values())).key.source
    mine = [s for s in series.values() if s.key.source == newest]
    mine.sort(key=lambda s: (not s.key.precision.startswith("mixed"), s.key.device))
    return [s.label for s in mine[:limit]]


def note(p: Point) -> str:
    """What a point's efficiency does not say by itself."""
    if p.efficiency > ABOVE_IDEAL:
        return "above ideal: the source's 1- and N-device runs differ in more than the count"
    return f"median of {p.rows} rows" if p.rows > 1 else ""


def other_shapes(ref: pd.DataFrame | None, model: str) -> list[str]:
    """Shape-qualified keys of the same model with published multi-device curves (another input shape: no ratio)."""
    if ref is None or ref.empty:
        return []
    base = model.split("@")[0]
    keys = {shaped_model(r) for r in ref[ref["model"] == base].to_dict("records")} - {model}
    return sorted(k for k in keys if published_scaling(ref, k))


def model_of(rows: Iterable[Mapping[str, Any]]) -> str | None:
    """The model (shape-qualified) of the first training row: Compare's rows list the runs first."""
    return next((shaped_model(r) for r in rows if r.get("task") == "training" and r.get("model")), None)
