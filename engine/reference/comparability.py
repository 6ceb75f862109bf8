"""Which settings that change speed differ between rows, and which references a local run can be
compared with (ranked by how comparable they are, each with its speedup and caveats).

Rows can be reference rows, rows from `normalize.local_result_rows`, or raw local result rows
(design §3 columns: kind, model, precision, xla, device, global_batch_size, ...).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from engine.reference.normalize import (
    describe_count,
    global_batch,
    is_missing,
    is_present,
    local_result_rows,
    reference_throughput,
)
from engine.reference.units import HARDWARE, METRICS, THROUGHPUT_METRICS, family_of, speedup, units_between


@dataclass(frozen=True)
class Setting:
    """One speed-relevant setting.

    Attributes:
      name: short name used in warnings.
      get: the row's value, or None when unknown.
      why: why a difference matters for speed.
      penalty: how much a difference lowers a match score (0-100 scale).
    """

    name: str
    get: Callable[[Mapping[str, Any]], Any]
    why: str
    penalty: float


def _v(row: Mapping[str, Any], key: str) -> Any:
    v = row.get(key)
    return None if is_missing(v) or v == "unknown" else v


def _count(row: Mapping[str, Any]) -> str | None:
    """The device count in a unit that compares across ways of counting: a v2-8 board and a run on
    8 TPU replicas are both '8 TPU cores'; one CPU host, a Colab K80 die and a P100 are all
    '1 device' (which device it is, is what is being compared, not a caveat)."""
    key, n, unit = str(row.get("hardware_key", "")), row.get("hardware_count"), row.get("count_unit")
    if is_missing(unit):
        return None
    if is_present(n) and float(n) == 1 and unit in ("host", "die", "gpu", "chip") and key != "tpu_v1":
        return "1 device"
    fam = HARDWARE.get(key)
    if fam and is_present(n):
        for base, word in (("core", "TPU core"), ("die", "GPU")):
            per = units_between(key, str(unit), base) if fam.device_type in ("tpu", "gpu") else None
            if per is not None:
                total = float(n) * per
                return "1 device" if total == 1 else f"{total:g} {word}s"
    return describe_count(key, n, str(unit))


def _shape_tokens(shape: str) -> list[str]:
    return [t for t in re.split(r"[x*@() ]+", shape) if t]


def shapes_compatible(a: str, b: str) -> bool:
    """True when two microbenchmark shapes agree, '?' (not stated) matching any size."""
    ta, tb = _shape_tokens(a), _shape_tokens(b)
    return len(ta) == len(tb) and all(x == y or "?" in (x, y) for x, y in zip(ta, tb, strict=True))


def _batch(row: Mapping[str, Any]) -> Any:
    """The global batch; a number whose scope is not stated stays visible so 32 vs 128 still differ."""
    b = global_batch(row)
    if b is not None:
        return b
    raw = row.get("batch_size")
    return f"{int(raw)} (global or per replica not stated)" if is_present(raw) else None


def _framework(row: Mapping[str, Any]) -> str | None:
    fw = _v(row, "framework")
    return None if fw is None else str(fw)


def _version(row: Mapping[str, Any]) -> str | None:
    fw, ver = _v(row, "framework"), _v(row, "framework_version")
    if fw is None or ver is None:
        return None
    m = re.match(r"(\d+\.\d+)", str(ver))  # compare major.minor; NGC tags and -rc suffixes are noise
    return f"{fw} {m.group(1) if m else ver}"


SETTINGS: tuple[Setting, ...] = (
    Setting("model", lambda r: _v(r, "model"), "different models do different work per example", 40),
    Setting("task", lambda r: _v(r, "task"), "inference and training figures are not comparable", 40),
    Setting("dataset", lambda r: _v(r, "dataset"), "image size and class count change the work per example", 15),
    Setting(
        "data (synthetic vs real)",
        lambda r: _v(r, "data_kind"),
        "synthetic data skips reading and decoding, so it usually runs faster",
        10,
    ),
    Setting("global batch", _batch, "larger batches keep accelerators busier and raise throughput", 10),
    Setting(
        "precision",
        lambda r: _v(r, "precision"),
        "reduced precision uses tensor cores/MXUs and can be several times faster",
        15,
    ),
    Setting(
        "XLA",
        lambda r: None if is_missing(r.get("xla")) else bool(r.get("xla")),
        "XLA fuses ops and can change speed",
        5,
    ),
    Setting("device count", _count, "more chips/cores/GPUs do more work per second; normalise per device", 15),
    Setting("framework", _framework, "frameworks differ in kernels and input pipelines", 10),
    Setting("framework version", _version, "kernels and defaults change between versions", 3),
    Setting(
        "quality target", lambda r: _v(r, "target") or None, "time-to-accuracy depends on the target and the recipe", 20
    ),
    Setting("epochs", lambda r: _v(r, "epochs"), "total time scales with the number of epochs", 5),
    Setting("steps per epoch", lambda r: _v(r, "steps_per_epoch"), "epoch time scales with the steps in it", 5),
    Setting("shape", lambda r: _v(r, "shape") or None, "a microbenchmark's time scales with its tensor sizes", 20),
)
_BY_NAME = {s.name: s for s in SETTINGS}


def _as_rows(rows: pd.DataFrame | Iterable[Mapping[str, Any]] | Mapping[str, Any]) -> list[dict[str, Any]]:
    """Reference-like dicts; a raw local result row becomes its reference-schema settings."""
    if isinstance(rows, pd.DataFrame):
        items = rows.to_dict("records")
    elif isinstance(rows, (Mapping, pd.Series)):
        items = [dict(rows)]
    else:
        items = [dict(r) for r in rows]
    out = []
    for r in items:
        if "metric" not in r and ("kind" in r or "run_id" in r):
            local = local_result_rows(r)
            r = local.iloc[0].to_dict() if len(local) else r
        out.append(r)
    return out


def _label(row: Mapping[str, Any]) -> str:
    return str(row.get("_label") or row.get("hardware") or row.get("ref_id") or row.get("run_id") or "?")


def _labelled(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with a `_label` for messages: the hardware name, plus the ref_id where names repeat."""
    names = [str(r.get("hardware") or r.get("ref_id") or "?") for r in items]
    return [
        r | {"_label": f"{n} [{r.get('ref_id')}]" if names.count(n) > 1 else n}
        for r, n in zip(items, names, strict=True)
    ]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Difference:
    """A setting on which rows disagree.

    Attributes:
      setting: the setting's name.
      values: each distinct known value with the row labels that have it.
      unknown: labels of rows where the setting is not stated.
      message: one human-readable warning.
    """

    setting: str
    values: dict[str, list[str]] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    message: str = ""


def differences(
    rows: pd.DataFrame | Iterable[Mapping[str, Any]], settings: Iterable[str] | None = None
) -> list[Difference]:
    """The speed-relevant settings on which `rows` disagree, or that some of them do not state."""
    items = _labelled(_as_rows(rows))
    if len(items) < 2:
        return []
    chosen = [_BY_NAME[n] for n in settings] if settings else list(SETTINGS)
    out: list[Difference] = []
    for s in chosen:
        if s.name == "framework version" and any(d.setting == "framework" and len(d.values) > 1 for d in out):
            continue  # versions of different frameworks say nothing more
        values: dict[str, list[str]] = {}
        unknown: list[str] = []
        for r in items:
            v = s.get(r)
            if v is not None and s.name == "shape":  # '?' dimensions match any size
                v = next((k for k in values if shapes_compatible(k, str(v))), v)
            (values.setdefault(str(v), []) if v is not None else unknown).append(_label(r))
        if len(values) > 1:
            shown = " vs ".join(f"{v} ({', '.join(dict.fromkeys(labels))})" for v, labels in values.items())
            msg = f"{_cap(s.name)} differs: {shown} — {s.why}."
        elif values and unknown and s.name not in ("quality target", "shape", "epochs", "steps per epoch"):
            known = ", ".join(dict.fromkeys(next(iter(values.values()))))
            msg = f"{_cap(s.name)} not stated for {', '.join(dict.fromkeys(unknown))} ({known}: {next(iter(values))})."
        else:
            continue
        out.append(Difference(s.name, values, unknown, msg))
    return out


def comparability_warnings(rows: pd.DataFrame | Iterable[Mapping[str, Any]]) -> list[str]:
    """Human-readable warnings for a set of rows: differing settings, unstated settings, doubtful rows,
    bounds/approximate values, and time-to-accuracy mixed with fixed-length runs."""
    items = _labelled(_as_rows(rows))
    warnings = [d.message for d in differences(items)]
    doubtful = [f"{_label(r)}: {r.get('doubt_reason')}" for r in items if bool(r.get("doubtful"))]
    if doubtful:
        warnings.append("Doubtful figures: " + "; ".join(doubtful) + ".")
    bounds = [
        f"{_label(r)} ({r['value_kind'].replace('_', ' ')})"
        for r in items
        if r.get("value_kind") in ("lower_bound", "upper_bound", "approx")
    ]
    if bounds:
        warnings.append("Not exact values: " + ", ".join(bounds) + " — a ratio with them is a bound or an estimate.")
    return warnings


# --- a local run against the references ---


@dataclass(frozen=True)
class ReferenceMatch:
    """One reference row a local run can be compared with.

    Attributes:
      ref_id, hardware, source_id, year: which reference.
      metric: what is compared (after conversion, e.g. "examples_per_s (whole run)").
      local_value, ref_value, unit: the two numbers, in the same unit.
      speedup: how many times better the local run is (>1 = local faster).
      score: 0-100, how comparable the two are (100 = same settings).
      caveats: what differs, in words.
      doubtful: the reference is flagged doubtful.
    """

    ref_id: str
    hardware: str
    source_id: str
    year: Any
    metric: str
    local_value: float
    ref_value: float
    unit: str
    speedup: float
    score: float
    caveats: tuple[str, ...]
    doubtful: bool


def _pairings(
    local: dict[str, dict[str, Any]], ref: Mapping[str, Any]
) -> tuple[str, float, float, str, bool, list[str]] | None:
    """(metric label, local value, ref value, unit, higher_is_better, extra caveats) or None."""
    m = ref["metric"]
    if m in THROUGHPUT_METRICS and "examples_per_s" in local:
        return m, local["examples_per_s"]["value"], float(ref["value"]), METRICS[m].unit, True, []
    if m == "train_time_s":
        if ref.get("target") or is_missing(ref.get("epochs")) or "train_time_s" not in local:
            return None  # time-to-accuracy, or a length we cannot match
        lt = local["train_time_s"]
        avg = reference_throughput(ref)
        if avg and not any(is_missing(lt.get(k)) for k in ("epochs", "steps_per_epoch", "batch_size")):
            mine = lt["epochs"] * lt["steps_per_epoch"] * lt["batch_size"] / lt["value"]
            return "examples_per_s (whole run, incl. compile)", mine, avg, "examples/s", True, []
        caveat = "compared per epoch (reference steps per epoch not stated)"
        if is_missing(lt.get("epochs")):
            return None
        return (
            "s per epoch (incl. first)",
            lt["value"] / lt["epochs"],
            float(ref["value"]) / float(ref["epochs"]),
            "s",
            False,
            [caveat],
        )
    if m in ("op_time_s", "epoch_time_s", "first_epoch_s") and m in local:
        return m, local[m]["value"], float(ref["value"]), METRICS[m].unit, False, []
    if m == "step_time_ms" and "step_time_ms" in local:
        extra = (
            ["reference is the first epoch's mean step (compile included)"]
            if "epoch 1" in str(ref.get("notes"))
            else []
        )
        return m, local[m]["value"], float(ref["value"]), "ms", False, extra
    return None


def match_references(result: Mapping[str, Any], ref: pd.DataFrame, limit: int | None = None) -> list[ReferenceMatch]:
    """Reference rows for the same model (training) or the same operation (matmul/conv2d), ranked by
    comparability, each with the local run's speedup over it and the caveats.

    Args:
      result: a local result row (design §3) — a dict or a pandas Series.
      ref: the curated reference frame (`engine.reference.data.load_reference()`).
      limit: keep the best `limit` matches.
    """
    local_rows = local_result_rows(dict(result))
    if local_rows.empty:
        return []
    local = {r["metric"]: r for r in local_rows.to_dict("records")}
    settings_row = local_rows.iloc[0].to_dict()
    op = settings_row["model"]
    cands = ref[(ref["model"] == op) & ref["task"].isin(["training", "micro"])]
    matches = []
    for r in cands.to_dict("records"):
        pair = _pairings(local, r)
        if pair is None:
            continue
        metric, mine, theirs, unit, higher, extra = pair
        if not (mine > 0 and theirs > 0):
            continue
        diffs = differences(
            [settings_row, r], [s.name for s in SETTINGS if s.name not in ("epochs", "steps per epoch")]
        )
        caveats = [d.message for d in diffs] + extra
        score = 100.0 - sum(_BY_NAME[d.setting].penalty * (1 if len(d.values) > 1 else 0.3) for d in diffs)
        score -= 5 * len(extra)
        if family_of(str(r["hardware_key"])) != family_of(str(settings_row["hardware_key"])):
            score -= 5  # same-hardware references rank first; different hardware is the point, not a caveat
        if "?" in str(r.get("shape") or ""):
            caveats.append("The reference does not state every dimension of its shape ('?').")
        if r["doubtful"]:
            caveats.append(f"Reference flagged doubtful: {r['doubt_reason']}.")
            score -= 20
        if r["value_kind"] in ("approx", "lower_bound", "upper_bound"):
            caveats.append(f"Reference value is {r['value_kind'].replace('_', ' ')}.")
            score -= 5
        matches.append(
            ReferenceMatch(
                ref_id=r["ref_id"],
                hardware=r["hardware"],
                source_id=r["source_id"],
                year=r["year"],
                metric=metric,
                local_value=float(mine),
                ref_value=float(theirs),
                unit=unit,
                speedup=speedup(float(mine), float(theirs), higher),
                score=max(0.0, round(score, 1)),
                caveats=tuple(caveats),
                doubtful=bool(r["doubtful"]),
            )
        )
    matches.sort(key=lambda m: (-m.score, abs(math.log(m.speedup))))
    return matches[:limit] if limit else matches


def matches_frame(matches: list[ReferenceMatch]) -> pd.DataFrame:
    """Matches as a table for st.dataframe (caveats joined into one text column)."""
    cols = [
        "score",
        "ref_id",
        "hardware",
        "source_id",
        "year",
        "metric",
        "local_value",
        "ref_value",
        "unit",
        "speedup",
        "doubtful",
        "caveats",
    ]
    rows = [{**m.__dict__, "caveats": " ".join(m.caveats)} for m in matches]
    return pd.DataFrame(rows).reindex(columns=cols)
