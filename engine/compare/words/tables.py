"""The Compare page's data: local/imported runs and reference rows in one long table (the
reference schema, one row per measured metric), and the tables behind each chart — speedups,
throughput vs batch, scaling with replicas, step-time samples, epoch curves and cost.

Reference loading and the analytics (normalise, speedup rule, cost, comparability) come from
engine.reference.data / normalize / cost / comparability; this module only arranges them. No streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard, TypeVar

import numpy as np
import pandas as pd

from engine.catalog import backends
from engine.compare.facts.workload import not_comparable
from engine.reference.normalize import local_result_rows
from engine.reference.speedup import metric_family
from engine.reference.units import METRICS, speedup, to_canonical

# Metric families in the order a person looks for them; "throughput" = images/s and examples/s.
FAMILY_ORDER = ("throughput", "op_time_s", "step_time_ms", "train_time_s", "epoch_time_s", "first_epoch_s")
FAMILY_LABELS = {
    "rate": "Rate of work, like for like (examples/s or GFLOP/s)",
    "throughput": "Throughput (examples/s)",
    "op_time_s": "Operation time (s)",
    "step_time_ms": "Step time (ms)",
    "train_time_s": "Training time (s)",
    "epoch_time_s": "Time per epoch (s)",
    "first_epoch_s": "First epoch incl. compile (s)",
}
ORIGINS = ("this machine", "imported", "reference")


def run_label(run: Mapping[str, Any]) -> str:
    """'fashion_cnn · CPU · TF · bs 1024 · run 3f9a2c' — short, unique per run, and naming the backend."""
    kind = run.get("kind") or ""
    what = run.get("model") if kind == "train" else (f"{kind} {run.get('shape') or ''}".strip())
    parts = [str(what or kind), str(run.get("device") or "?").upper(), backends.short_label(run.get("backend"))]
    if run.get("global_batch_size") and kind == "train":
        parts.append(f"bs {int(run['global_batch_size'])}")
    if (run.get("replicas") or 1) > 1:
        parts.append(f"×{int(run['replicas'])}")
    parts.append(f"run {str(run.get('run_id', ''))[-6:]}")
    return " · ".join(parts)


def reference_label(row: Mapping[str, Any]) -> str:
    """'V100 · resnet50 · bs 128 · TF-BENCH-2017' for a reference row."""
    parts = [str(row.get("hardware") or row.get("hardware_key"))]
    model = row.get("model") or row.get("model_label")
    if model:
        parts.append(str(model))
    if _present(row.get("batch_size")):
        parts.append(f"bs {int(row['batch_size'])}")
    if row.get("precision") not in (None, "", "float32", "unknown") and not _missing(row.get("precision")):
        parts.append(str(row["precision"]))
    parts.append(str(row.get("source_id") or row.get("ref_id")))
    return " · ".join(parts)


_T = TypeVar("_T")


def _missing(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def _present(v: _T | None) -> TypeGuard[_T]:
    return not _missing(v) and v != ""


def long_rows(runs: Sequence[Mapping[str, Any]], ref: pd.DataFrame | None) -> pd.DataFrame:
    """Runs and reference rows as one reference-schema table with `label`, `origin`, `run_id`,
    `replicas`, `value_canonical` (the metric's canonical unit) and `family` added."""
    frames = []
    for run in runs:
        rows = local_result_rows(dict(run))
        if rows.empty:
            continue
        source = str(run.get("source") or "local")
        rows["label"] = run_label(run)
        rows["origin"] = "imported" if source.startswith("import") else "this machine"
        rows["run_id"] = run.get("run_id")
        rows["replicas"] = int(run.get("replicas") or 1)
        rows["device_name"] = run.get("device_name")
        frames.append(rows)
    if ref is not None and len(ref):
        r = ref.copy()
        r["label"] = [reference_label(x) for x in r.to_dict("records")]
        r["origin"] = "reference"
        r["run_id"] = None
        counted = r["count_unit"].isin(["gpu", "die", "chip", "core"])
        r["replicas"] = pd.to_numeric(r["hardware_count"], errors="coerce").where(counted)
        frames.append(r)
    if not frames:
        return pd.DataFrame(columns=["label", "origin", "metric", "value", "unit", "family", "value_canonical"])
    out = pd.concat(frames, ignore_index=True, sort=False)
    out = out[out["metric"].isin(list(METRICS))].copy()
    out["family"] = [metric_family(m) for m in out["metric"]]
    out["workload_key"] = workload_key(out)
    out["value_canonical"] = [
        to_canonical(m, float(v), u) if u in (METRICS[m].unit, *METRICS[m].alt_units) else float(v)
        for m, v, u in zip(out["metric"], out["value"], out["unit"], strict=True)
    ]
    return out.reset_index(drop=True)


def workload_key(rows: pd.DataFrame) -> pd.Series:
    """What a raw time measured: model or op, shape, global batch, epochs, steps ('' where not stated)."""
    cols = [c for c in ("model", "shape", "batch_size", "epochs", "steps_per_epoch") if c in rows.columns]
    return rows[cols].astype("string").fillna("").agg("|".join, axis=1)


def families(rows: pd.DataFrame) -> list[str]:
    """Metric families present, in FAMILY_ORDER (others after, alphabetically)."""
    present = list(dict.fromkeys(rows["family"])) if len(rows) else []
    return [f for f in FAMILY_ORDER if f in present] + sorted(f for f in present if f not in FAMILY_ORDER)


def family_label(family: str) -> str:
    if family in FAMILY_LABELS:
        return FAMILY_LABELS[family]
    info = METRICS.get(family)
    return f"{info.label} ({info.unit})" if info else family


def family_higher_is_better(family: str) -> bool:
    return True if family in ("throughput", "rate") else METRICS[family].higher_is_better


def for_family(rows: pd.DataFrame, family: str) -> pd.DataFrame:
    """One metric family's rows; a label that appears twice (a run and its import) keeps its first row."""
    out = rows[rows["family"] == family]
    return out.drop_duplicates("label").reset_index(drop=True)


def speedups(rows: pd.DataFrame, baseline_label: str) -> pd.DataFrame:
    """`label`, `value_canonical`, `speedup` (×, >1 = faster than the baseline) and `basis` for one family.

    A throughput is a rate, so any two compare. A time (or step time) is divided only by a time of the
    identical workload (same model/op, shape, batch, epochs and steps); other rows are left out — their
    like-for-like ratio is the "Rate of work" metric.
    """
    cols = ["label", "origin", "value_canonical", "speedup", "basis"]
    if rows.empty or baseline_label not in set(rows["label"]):
        return pd.DataFrame(columns=cols)
    family = str(rows["family"].iloc[0])
    higher = family_higher_is_better(family)
    base_row = rows.loc[rows["label"] == baseline_label].iloc[0]
    base = float(base_row["value_canonical"])
    if family in ("throughput", "rate"):
        # the one rule: a rate is divided only by a rate of the same workload (model and input shape)
        mine = base_row.to_dict()
        same = [family == "rate" or not_comparable(mine, r) is None for r in rows.to_dict("records")]
        out, basis = rows.loc[same, ["label", "origin", "value_canonical"]].copy(), "rate, same workload"
    else:
        same = rows["workload_key"] == base_row["workload_key"] if "workload_key" in rows.columns else rows.index < 0
        out, basis = rows.loc[same, ["label", "origin", "value_canonical"]].copy(), "time, identical workload"
    out["speedup"] = [speedup(v, base, higher) if v > 0 and base > 0 else np.nan for v in out["value_canonical"]]
    out["basis"] = basis
    return out.dropna(subset=["speedup"]).sort_values("speedup", ascending=False, ignore_index=True)


def series_group(rows: pd.DataFrame) -> pd.Series:
    """What stays fixed along a sweep: the model, the hardware and the precision ('resnet50 · V100 · float32')."""
    hw = rows["device_name"].where(rows["origin"] != "reference") if "device_name" in rows.columns else None
    hardware = (
        rows["hardware"]
        if hw is None
        else hw.fillna(rows["hardware_label"]).where(rows["origin"] != "reference", rows["hardware_key"])
    )
    hardware = hardware.fillna(rows["hardware_key"]).astype(str)
    return rows["model"].astype(str) + " · " + hardware + " · " + rows["precision"].fillna("?").astype(str)


def batch_sweep(rows: pd.DataFrame) -> pd.DataFrame:
    """Throughput rows with a known batch size: `group`, `batch_size`, `value_canonical`, `label`, `origin`."""
    if rows.empty or "batch_size" not in rows.columns:
        return pd.DataFrame(columns=["group", "batch_size", "value_canonical", "label", "origin"])
    data = rows[(rows["family"] == "throughput") & rows["batch_size"].notna()].copy()
    if data.empty:
        return pd.DataFrame(columns=["group", "batch_size", "value_canonical", "label", "origin"])
    # a 2-replica run is another series: its batch is split, so it must not join the 1-replica line
    reps = data["replicas"].fillna(1).astype(float)
    data["group"] = series_group(data) + reps.map(lambda r: f" · {r:g} replica{'s' if r != 1 else ''}")
    data["batch_size"] = data["batch_size"].astype(float)
    cols = ["group", "batch_size", "value_canonical", "label", "origin"]
    return data[cols].sort_values(["group", "batch_size"], ignore_index=True)


def scaling(rows: pd.DataFrame) -> pd.DataFrame:
    """Throughput vs replicas per group, with the ideal (linear from the smallest count) and the
    scaling efficiency in % (measured / ideal). Only groups measured at two or more counts are kept."""
    cols = ["group", "replicas", "value_canonical", "ideal", "efficiency_pct", "label", "origin"]
    if rows.empty or "replicas" not in rows.columns:
        return pd.DataFrame(columns=cols)
    data = rows[(rows["family"] == "throughput") & rows["replicas"].notna()].copy()
    if data.empty:
        return pd.DataFrame(columns=cols)
    # Scaling compares like with like: the same batch, read as the source states it — a local run's global
    # batch (strong scaling: the batch is split) or a reference's per-device batch (weak scaling).
    scope = data["batch_scope"].fillna("global").map(lambda s: "per device" if s == "per_replica" else "global")
    batch = data["batch_size"].map(lambda b: "" if pd.isna(b) else f" · bs {int(b)}")
    data["group"] = (
        series_group(data)
        + batch
        + data["batch_size"].notna().map({True: " ", False: ""})
        + scope.where(data["batch_size"].notna(), "")
    )
    data["replicas"] = data["replicas"].astype(float)
    data = data.sort_values(["group", "replicas", "value_canonical"], ascending=[True, True, False])
    data = data.drop_duplicates(["group", "replicas"])
    data = data[data.groupby("group")["replicas"].transform("nunique") > 1]  # one point says nothing about scaling
    if data.empty:
        return pd.DataFrame(columns=cols)
    first = data.groupby("group")[["replicas", "value_canonical"]].transform("first")
    data["ideal"] = first["value_canonical"] / first["replicas"] * data["replicas"]
    data["efficiency_pct"] = data["value_canonical"] / data["ideal"] * 100.0
    return data[cols].reset_index(drop=True)


def step_samples(series_by_label: Mapping[str, tuple[str, list[dict[str, Any]]]]) -> pd.DataFrame:
    """Per-step (training) or per-repeat (microbenchmark) times as `label`, `step_time_ms`, `kind`.

    Training steps of the first epoch are dropped when there are later epochs (tracing and compile
    land there; the engine's steady figures exclude them the same way), else just the first step.
    """
    frames = []
    for label, (kind, records) in series_by_label.items():
        if not records:
            continue
        df = pd.DataFrame(records)
        col = "step_time_ms" if "step_time_ms" in df.columns else "time_ms" if "time_ms" in df.columns else None
        if col is None:
            continue
        if kind == "step" and "epoch" in df.columns:
            df = df[df["epoch"] > 1] if df["epoch"].max() > 1 else df.iloc[1:]
        frames.append(pd.DataFrame({"label": label, "step_time_ms": df[col].astype(float), "kind": kind}))
    if not frames:
        return pd.DataFrame(columns=["label", "step_time_ms", "kind"])
    return pd.concat(frames, ignore_index=True).dropna(subset=["step_time_ms"])


def epoch_frame(series_by_label: Mapping[str, list[dict[str, Any]]]) -> pd.DataFrame:
    """Epoch records as `label`, `epoch` and whatever was logged (loss, accuracy, val_loss, val_accuracy …)."""
    frames = [pd.DataFrame(recs).assign(label=label) for label, recs in series_by_label.items() if recs]
    if not frames:
        return pd.DataFrame(columns=["label", "epoch"])
    return pd.concat(frames, ignore_index=True, sort=False)


def default_prices(
    rows: pd.DataFrame, runs: Iterable[Mapping[str, Any]], ref: pd.DataFrame | None = None
) -> dict[str, float]:
    """A starting price per hour for each label: a run's own price, else the price table's default per device ×
    the row's devices (engine.compare.rank.cost.starting_prices, the Efficiency tab's rule). `ref` is not read."""
    from engine.compare.rank.cost import starting_prices

    own = {run_label(r): r.get("price_per_hour_usd") for r in runs}
    return {label: round(p.usd_per_hour, 4) for label, p in starting_prices(rows, own).items()}


def cost_rows(rows: pd.DataFrame, prices: Mapping[str, float]) -> pd.DataFrame:
    """Cost per run (time rows) and per million examples (throughput rows), for labels with a price."""
    from engine.compare.rank.cost import cost_table

    wanted = rows[rows["family"].isin(["throughput", "train_time_s", "op_time_s"])]
    if wanted.empty:
        return pd.DataFrame(columns=["label", "metric", "price_per_hour_usd"])
    return cost_table(wanted, {k: float(v) for k, v in prices.items() if v and v > 0}, label_col="label")


def headline(run: Mapping[str, Any]) -> tuple[str, float | None, str]:
    """The one number that says how a run went: throughput for training, GFLOP/s for a microbenchmark."""
    if run.get("kind") == "train":
        return "Throughput", run.get("examples_per_sec"), "examples/s"
    if _present(run.get("gflops")):
        return "Achieved", run.get("gflops"), "GFLOP/s"
    return "Median time", run.get("step_time_ms_median"), "ms"
