"""Comparison analytics in one import: normalisation, speedups, cost/energy, comparability.

The functions live in small modules (engine.reference.normalize, engine.reference.speedup, engine.reference.cost,
engine.reference.comparability, engine.reference.units); this module gathers the ones pages call. Pure pandas — no
streamlit, no tensorflow.

    from engine.reference import analysis
    table = analysis.speedup_table(rows, baseline="k80", label_col="hardware_key")
    warnings = analysis.comparability_warnings(rows)
    matches = analysis.match_references(result_row, ref)
"""

from __future__ import annotations

from engine.reference.comparability import (
    SETTINGS,
    Difference,
    ReferenceMatch,
    comparability_warnings,
    differences,
    match_references,
    matches_frame,
)
from engine.reference.cost import (
    CostEstimate,
    cost_per_million_examples_usd,
    cost_table,
    cost_usd,
    energy_kwh,
    energy_per_example_j,
    estimate_cost,
    reference_power_w,
    reference_prices,
)
from engine.reference.normalize import (
    PeakLookup,
    PerUnit,
    add_per_unit,
    describe_count,
    epoch_time_s_from_throughput,
    examples_per_s_from_time,
    global_batch,
    local_result_rows,
    peak_tflops,
    per_unit,
    reference_throughput,
    train_time_s_from_throughput,
)
from engine.reference.speedup import geomean_speedups, metric_family, pair_speedup, speedup_table, stated_vs_computed
from engine.reference.units import (
    METRICS,
    axis_title,
    convert,
    geometric_mean,
    hardware_key_for_device,
    speedup,
    to_canonical,
    units_between,
)

__all__ = [
    "METRICS",
    "SETTINGS",
    "CostEstimate",
    "Difference",
    "PeakLookup",
    "PerUnit",
    "ReferenceMatch",
    "add_per_unit",
    "axis_title",
    "comparability_warnings",
    "convert",
    "cost_per_million_examples_usd",
    "cost_table",
    "cost_usd",
    "describe_count",
    "differences",
    "energy_kwh",
    "energy_per_example_j",
    "epoch_time_s_from_throughput",
    "estimate_cost",
    "examples_per_s_from_time",
    "geomean_speedups",
    "geometric_mean",
    "global_batch",
    "hardware_key_for_device",
    "local_result_rows",
    "match_references",
    "matches_frame",
    "metric_family",
    "pair_speedup",
    "peak_tflops",
    "per_unit",
    "reference_power_w",
    "reference_prices",
    "reference_throughput",
    "speedup",
    "speedup_table",
    "stated_vs_computed",
    "to_canonical",
    "train_time_s_from_throughput",
    "units_between",
]
