"""The import mapping: how another tool's results file is read — one role per column, and for each value
column what it measures, in which unit, about which model, and which way is better. Small, JSON-saved,
reusable (the History page's download/upload and `python -m engine results import FILE --mapping MAP`).

Pure Python; no pandas, no streamlit.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.results.directions import HIGHER_MARK, LOWER_MARK, unit_direction
from engine.results.errors import CsvError

MAPPING_VERSION = 1
# Per-column roles, in the order the page lists them.
ROLES: dict[str, str] = {
    "value": "a measured number (one metric; wide tables have several)",
    "system": "a system name carrying count × device model, variant (parsed by the system rules)",
    "device": "the device model (normalised by the hardware table)",
    "count": "how many devices (per node when a column has the role nodes)",
    "nodes": "how many nodes (hosts): the device count is count × nodes",
    "model": "the model or benchmark",
    "metric": "names what the row's value measures (long tables)",
    "unit": "the unit of the row's value (long tables)",
    "time": "elapsed time of a time series (unit: the mapping's time unit)",
    "step": "step or epoch of a time series",
    "batch": "batch size",
    "precision": "fp32, fp16, bf16 …",
    "framework": "framework or software version",
    "date": "when it ran",
    "price": "price per hour (USD/h)",
    "power": "power draw (W)",
    "cost": "purchase price of the system (USD), for throughput per dollar",
    "setting": "a setting of the run (sequence length, image size, layout …): part of its configuration, never pooled",
    "label": "kept as text, not charted",
    "ignore": "dropped",
}
SHAPES = {
    "long": "long table (one value column per row)",
    "wide": "wide table (one column per model or metric)",
    "json": "JSON records",
    "timeseries": "time series (time or step vs accuracy/loss)",
    "telemetry": "telemetry log (no header, units in cells)",
}
TIME_UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0, "ms": 1e-3}
DIRECTIONS = ("", "higher", "lower")

# Throughput units that land on AccelBench's own axis (examples_per_sec), as the older mapping did: one image,
# sample or sequence (BERT's unit of work) is one example, so these reach Compare next to local runs.
OWN_THROUGHPUT_UNITS = {
    "images/s", "img/s", "examples/s", "samples/s", "images/sec", "examples/sec", "samples/sec", "sequences/s",
    "sequences/sec", "seq/s",
}  # fmt: skip


@dataclass
class ValueSpec:
    """One value column. `metric` "" = named by the metric column; `unit` "" = the unit column or the cells';
    `model` "" = the model column's; `direction` "" = from the unit ("higher" / "lower" to say it); `settings`
    what its key says it was set to (each a `setting.<name>` of its rows)."""

    metric: str = ""
    unit: str = ""
    model: str = ""
    direction: str = ""
    settings: dict[str, str] = field(default_factory=dict)  # what the column's key sets (`m4096` → m: 4096)


@dataclass
class ImportMapping:
    """How one file is read. `roles` maps every kept column to a role (ROLES); `values` holds a ValueSpec per
    value column; `constants` give a role a value for every row (from a sidecar or typed by the user);
    `system_rules` are the user's own regular expressions for system names and `system_fixes` their
    corrections of parsed names (engine.imports.identity.systems)."""

    shape: str = "long"
    fmt: str = ""
    roles: dict[str, str] = field(default_factory=dict)
    values: dict[str, ValueSpec] = field(default_factory=dict)
    system_rules: list[str] = field(default_factory=list)  # the user's own regexes, tried before the parser
    system_fixes: dict[str, dict[str, str]] = field(default_factory=dict)  # name → part → the user's correction
    time_unit: str = "s"
    accuracy: str = "auto"  # "fraction", "percent" or "auto" (≤ 1 everywhere = fraction)
    constants: dict[str, str] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)  # what the guess read from the data or the names, and where

    def columns(self, role: str) -> list[str]:
        return [c for c, r in self.roles.items() if r == role]

    def column(self, role: str) -> str:
        """The one column with `role`, or ""."""
        cols = self.columns(role)
        return cols[0] if cols else ""

    def to_json(self) -> str:
        doc = {"accelbench_mapping": MAPPING_VERSION, **asdict(self)}
        return json.dumps(doc, indent=1, ensure_ascii=False)

    def key(self) -> str:
        """A stable text form, for caching per mapping."""
        return json.dumps(asdict(self), sort_keys=True)


def _check(doc: Any) -> dict[str, Any]:
    if not isinstance(doc, dict) or "roles" not in doc:
        raise CsvError("mapping file: not an AccelBench mapping (no 'roles')")
    if doc.get("accelbench_mapping", MAPPING_VERSION) > MAPPING_VERSION:
        raise CsvError("mapping file: made by a newer AccelBench; upgrade first")
    bad_role = next(((c, r) for c, r in doc["roles"].items() if r not in ROLES), None)
    if bad_role:
        raise CsvError(f"mapping file: column {bad_role[0]!r} has unknown role {bad_role[1]!r}", 0, bad_role[0])
    if doc.get("shape", "long") not in SHAPES:
        raise CsvError(f"mapping file: unknown shape {doc.get('shape')!r} (one of {', '.join(SHAPES)})")
    if doc.get("time_unit", "s") not in TIME_UNITS:
        raise CsvError(f"mapping file: time_unit must be one of {', '.join(TIME_UNITS)}")
    for c, v in (doc.get("values") or {}).items():
        if not isinstance(v, dict) or v.get("direction", "") not in DIRECTIONS:
            raise CsvError(f"mapping file: values for {c!r} need metric/unit/model/direction", 0, c)
    return doc


def mapping_from_json(text: str | bytes) -> ImportMapping:
    """A saved mapping; CsvError saying what is wrong with it."""
    try:
        doc = _check(json.loads(text))
    except json.JSONDecodeError as exc:
        raise CsvError(f"mapping file: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    rules = doc.get("system_rules")
    return ImportMapping(
        shape=doc.get("shape", "long"),
        fmt=doc.get("fmt", ""),
        roles=dict(doc["roles"]),
        values={c: ValueSpec(**{k: str(v.get(k, "")) for k in ("metric", "unit", "model", "direction")},
                             settings={str(k): str(x) for k, x in (v.get("settings") or {}).items()})
                for c, v in (doc.get("values") or {}).items()},
        system_rules=own_rules(rules or []),
        system_fixes={str(n): {str(k): str(v) for k, v in (f or {}).items()}
                      for n, f in (doc.get("system_fixes") or {}).items()},
        time_unit=doc.get("time_unit", "s"),
        accuracy=doc.get("accuracy", "auto"),
        constants={str(k): str(v) for k, v in (doc.get("constants") or {}).items()},
    )  # fmt: skip


def own_axis(metric: str, unit: str) -> bool:
    """A throughput the file calls by the generic name (`Throughput`, or nothing but its unit) in an images/s-style
    unit: it lands on AccelBench's examples/s column. A rate the file names itself ('train samples per second')
    keeps that name as its column (which of several rates it is) and joins the examples/s family on Compare."""
    generic = metric.strip().lower() in ("throughput", "value", "") or "/" in metric
    return unit.strip().lower() in OWN_THROUGHPUT_UNITS and generic and "per device" not in metric


def metric_column(metric: str, unit: str, direction: str = "") -> str:
    """The History column a value lands in: 'examples_per_sec' for images/s-style throughput (AccelBench's
    own axis), otherwise 'Metric (unit)', marked when the user's direction overrides the unit's."""
    unit, metric = unit.strip(), metric.strip() or "value"
    if own_axis(metric, unit) and direction in ("", "higher"):
        return "examples_per_sec"  # "higher" only restates what a rate's unit says: no edit needed for Compare
    name = f"{metric} ({unit})" if unit and f"({unit})" not in metric else metric
    default = unit_direction(unit)
    if direction and (default is None or default != (direction == "higher")):
        name += HIGHER_MARK if direction == "higher" else LOWER_MARK
    return name


def one_value_per_metric(m: ImportMapping) -> list[str]:
    """A long table's metric column names what its value column measures (`metric_name`, `metric_value`): the
    table's other numbers (a CUDA version, a test's details) are not that metric's values — kept as labels."""
    values = m.columns("value")
    if not m.column("metric") or len(values) < 2:
        return []
    keep = next((c for c in values if c.split(".")[-1].lower().endswith(("value", "result", "score"))), "")
    if not keep:
        return []
    for c in values:
        if c != keep:
            m.roles[c] = "label"
            m.values.pop(c, None)
    return [f"{keep}: the value the metric column {m.column('metric')} names; the other numbers are kept as labels"]


# The regular expressions older saved mappings carry: read as "no rules of the user's own" (the parser does it).
_VENDOR = r"(?:(?:NVIDIA|Nvidia|Tesla|GeForce|Quadro|AMD|Radeon|Instinct|Google|Cloud|Intel)\s+)*"


_MODEL = (
    r"(?P<model>TPU\s*v\d+[a-z]*(?:-\d+)?|(?:RTX|GTX|Titan)\s*[A-Z]?\d{3,4}(?:\s?Ti)?"
    r"|[A-Z]{1,3}\d{1,4}[A-Za-z]{0,2}|MI\d{2,3}[A-Z]?|Gaudi\s?\d?)"
)


DEFAULT_RULES: tuple[str, ...] = (
    rf"^(?:(?P<count>\d+)\s*[x×*]\s*)?{_VENDOR}{_MODEL}(?:[\s-]+(?P<variant>[^()]*?))?\s*(?:\((?P<note>[^)]*)\))?$",
    rf"^(?P<note>.*?)\b(?P<count>\d+)\s*[x×]?\s*{_VENDOR}{_MODEL}\b(?P<variant>.*)$",
    rf"^(?P<note>[\w.-]+)\s+{_VENDOR}{_MODEL}(?:[\s-]+(?P<variant>[^()]*?))?\s*(?:\((?P<note2>[^)]*)\))?$",
)


def own_rules(rules: list[str] | tuple[str, ...]) -> list[str]:
    """The user's own rules: none when they are the legacy defaults an older saved mapping carries."""
    kept = [r for r in rules if r.strip()]
    return [] if tuple(kept) == DEFAULT_RULES else kept
