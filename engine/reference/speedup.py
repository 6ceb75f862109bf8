"""Speedups against a chosen baseline, the geometric mean over workloads, and the published ratios
checked against the absolute numbers they were computed from.

A speedup here is always "how many times better than the baseline" (>1 = better), whichever way the
metric points: for times it is baseline/value, for throughput value/baseline.
"""

from __future__ import annotations

import math

import pandas as pd

from engine.reference.units import METRICS, THROUGHPUT_METRICS, geometric_mean, speedup

RATIO_METRICS = ("speedup_vs", "perf_per_watt_ratio", "power_ratio")
DEFAULT_WORKLOAD = ("model", "dataset", "metric_family")


def metric_family(metric: str) -> str:
    """images/s and examples/s are one family (a local run reports examples/s); others are themselves."""
    return "throughput" if metric in THROUGHPUT_METRICS else metric


def _with_family(rows: pd.DataFrame) -> pd.DataFrame:
    out = rows.copy()
    out["metric_family"] = [metric_family(m) for m in out["metric"]]
    return out


def speedup_table(
    rows: pd.DataFrame,
    baseline: str,
    label_col: str = "hardware",
    workload_cols: tuple[str, ...] = DEFAULT_WORKLOAD,
) -> pd.DataFrame:
    """Each row's speedup over the baseline row of the same workload.

    Args:
      rows: reference-like rows (reference rows, local rows from `normalize.local_result_rows`, or both).
      baseline: a `ref_id` (one row: its workload is compared, e.g. "run:abc" or "SEED-VN-FLOWERS-03"),
        or a value of `label_col` (e.g. "K80 (1 die)" or, with label_col="hardware_key", "k80"): the
        baseline row is then looked up in every workload.
      label_col: the column that names what is being compared.
      workload_cols: rows that agree on these columns are one workload (same model, data and metric).

    Returns:
      One row per compared row: the workload columns, `label`, `value`, `unit`, `baseline_label`,
      `baseline_value`, `speedup`, `ref_id`, `baseline_ref_id`. Workloads without the baseline
      are left out. Ratio metrics (stated speedups) are never compared.
    """
    df = _with_family(rows[~rows["metric"].isin(RATIO_METRICS)])
    cols = list(workload_cols)
    by_id = df[df["ref_id"] == baseline]
    out = []
    for key, group in df.groupby(cols, dropna=False, sort=False):
        base = by_id if len(by_id) else group[group[label_col] == baseline]
        if len(by_id):
            same = all((pd.isna(a) and pd.isna(b)) or a == b for a, b in zip(base.iloc[0][cols], key, strict=True))
            if not same:
                continue
        if base.empty:
            continue
        b = base.iloc[0]
        for r in group.itertuples(index=False):
            info = METRICS[r.metric]
            try:
                s = speedup(float(r.value), float(b["value"]), info.higher_is_better)
            except ValueError:
                continue
            rec = dict(zip(cols, key if isinstance(key, tuple) else (key,), strict=True))
            rec |= {
                "label": getattr(r, label_col),
                "value": float(r.value),
                "unit": r.unit,
                "baseline_label": b[label_col],
                "baseline_value": float(b["value"]),
                "speedup": s,
                "ref_id": r.ref_id,
                "baseline_ref_id": b["ref_id"],
            }
            out.append(rec)
    columns = [
        *cols,
        "label",
        "value",
        "unit",
        "baseline_label",
        "baseline_value",
        "speedup",
        "ref_id",
        "baseline_ref_id",
    ]
    return pd.DataFrame(out, columns=columns)


def geomean_speedups(table: pd.DataFrame, label_col: str = "label") -> pd.DataFrame:
    """Geometric mean of each label's speedups over the workloads in `table` (from `speedup_table`).

    Returns columns `label`, `geomean_speedup`, `workloads` (how many speedups went in), best first.
    """
    rows = [
        {"label": label, "geomean_speedup": geometric_mean(g["speedup"].tolist()), "workloads": len(g)}
        for label, g in table.groupby(label_col, sort=False)
    ]
    out = pd.DataFrame(rows, columns=["label", "geomean_speedup", "workloads"])
    return out.sort_values("geomean_speedup", ascending=False, ignore_index=True)


def pair_speedup(rows: pd.DataFrame, subject: str, baseline: str, label_col: str = "hardware_key") -> pd.Series:
    """Per workload, how many times better `subject` is than `baseline` (both values of `label_col`).

    Workloads are models when the rows hold one metric, e.g. article 001's Table 1: TPU vs K80 per model.
    Rows with several values per (workload, label) are refused, so a ratio never mixes conditions.
    """
    df = _with_family(rows[~rows["metric"].isin(RATIO_METRICS)])
    out = {}
    for (model, fam), g in df.groupby(["model", "metric_family"], sort=False):
        a, b = g[g[label_col] == subject], g[g[label_col] == baseline]
        if a.empty or b.empty:
            continue
        if len(a) > 1 or len(b) > 1:
            raise ValueError(f"{model}/{fam}: several rows for {subject if len(a) > 1 else baseline}; filter first")
        info = METRICS[a.iloc[0]["metric"]]
        out[model] = speedup(float(a.iloc[0]["value"]), float(b.iloc[0]["value"]), info.higher_is_better)
    return pd.Series(out, name=f"{subject} vs {baseline}", dtype=float)


def stated_vs_computed(ref: pd.DataFrame) -> pd.DataFrame:
    """Every published ratio next to the ratio its source's own absolute numbers give, where they exist.

    Absolute rows are taken from the ratio's own source or from a seed source, for the same model and
    dataset, one row per hardware (ambiguous pairs are skipped). `agrees` is True when the stated
    ratio matches the computed one to the precision it was printed with (±0.05 plus rounding).
    """
    ratios = ref[(ref["metric"] == "speedup_vs") & (ref["baseline_key"] != "") & (ref["model"] != "")]
    absolute = _with_family(ref[~ref["metric"].isin(RATIO_METRICS) & ref["task"].isin(["training", "micro"])])
    out = []
    for r in ratios.itertuples(index=False):
        pool = absolute[
            (absolute["model"] == r.model)
            & (absolute["dataset"] == r.dataset)
            & ((absolute["source_id"] == r.source_id) | (absolute["source_kind"] == "seed"))
            & (absolute["target"] == "")
        ]
        computed, basis = math.nan, ""
        for fam, g in pool.groupby("metric_family"):
            a, b = g[g["hardware_key"] == r.hardware_key], g[g["hardware_key"] == r.baseline_key]
            if len(a) == 1 and len(b) == 1:
                info = METRICS[a.iloc[0]["metric"]]
                computed = speedup(float(a.iloc[0]["value"]), float(b.iloc[0]["value"]), info.higher_is_better)
                basis = f"{a.iloc[0]['ref_id']} / {b.iloc[0]['ref_id']} ({fam})"
                break
        decimals = len(str(r.value).split(".")[1]) if "." in str(r.value) and not str(r.value).endswith(".0") else 0
        tolerance = 0.5 * 10**-decimals + 1e-9
        agrees = None if math.isnan(computed) else abs(round(computed, decimals) - r.value) <= tolerance
        out.append(
            {
                "ref_id": r.ref_id,
                "hardware": r.hardware,
                "model": r.model,
                "stated": float(r.value),
                "computed": computed,
                "agrees": agrees,
                "basis": basis or "no absolute numbers published with this ratio",
                "doubtful": r.doubtful,
            }
        )
    return pd.DataFrame(
        out, columns=["ref_id", "hardware", "model", "stated", "computed", "agrees", "basis", "doubtful"]
    )
