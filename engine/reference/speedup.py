"""Speedups against a chosen baseline, the geometric mean over workloads, and the published ratios
checked against the absolute numbers they were computed from.

A speedup here is always "how many times better than the baseline" (>1 = better), whichever way the
metric points: for times it is baseline/value, for throughput value/baseline.
"""

from __future__ import annotations

import math

import pandas as pd

from engine.reference.metrics import family_of
from engine.reference.units import METRICS, speedup

RATIO_METRICS = ("speedup_vs", "perf_per_watt_ratio", "power_ratio")
DEFAULT_WORKLOAD = ("model", "dataset", "metric_family")


def metric_family(metric: str) -> str:
    """images/s and examples/s are one family (a local run reports examples/s); others are themselves."""
    return family_of(metric)


def _with_family(rows: pd.DataFrame) -> pd.DataFrame:
    out = rows.copy()
    out["metric_family"] = [metric_family(m) for m in out["metric"]]
    return out


def time_ratios(table: pd.DataFrame, subject: str, baselines: tuple[str, ...], name: str = "") -> pd.DataFrame:
    """Per row (model), how many times faster `subject` is than each baseline column, from times.

    Only for tables of identical workloads — article 001's tables train each model for the same 25 epochs
    over the same data on every device — where a ratio of times is a ratio of rates (baseline ÷ subject).
    """
    return pd.DataFrame({f"{name or subject} vs {b} (×)": table[b] / table[subject] for b in baselines}).round(2)


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
