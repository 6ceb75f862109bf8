"""The one metric registry: every number AccelBench charts, with its label, unit, direction and family.

Two kinds of names live here: the reference schema's metrics (`train_time_s`, `images_per_s`, …,
what data/reference/reference_numbers.csv holds) and the result columns of a run
(`examples_per_sec`, `gflops`, …, what the store and History hold). A family groups the names that
measure the same thing (images/s, examples/s and a run's examples_per_sec are all "throughput"),
so History, Compare, References and the charts agree on titles and on which way is better.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    """What one metric measures.

    Attributes:
      name: the column or reference-metric name.
      label: axis/legend text without the unit.
      unit: canonical unit.
      higher_is_better: False for times, prices, power, loss, memory.
      family: names in one family measure the same thing and share a chart.
      kind: how the value scales with device count — "rate", "time", "capacity" or "intensive".
      alt_units: other units accepted in the reference CSV (converted for charts).
    """

    name: str
    label: str
    unit: str
    higher_is_better: bool
    family: str
    kind: str = "intensive"
    alt_units: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """'Throughput (examples/s)' — the label with its unit, for axes."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


def _m(name, label, unit, higher, family=None, kind="intensive", alt=()) -> Metric:
    return Metric(name, label, unit, higher, family or name, kind, alt)


# The reference schema's metrics (the curated CSV's `metric` column).
METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        _m("train_time_s", "Training time", "s", False, kind="time"),
        _m("op_time_s", "Op time", "s", False, kind="time"),
        _m("epoch_time_s", "Time per epoch", "s", False, kind="time"),
        _m("first_epoch_s", "First epoch (incl. compile)", "s", False, kind="time"),
        _m("step_time_ms", "Step time", "ms", False),
        _m("images_per_s", "Throughput", "images/s", True, "throughput", "rate"),
        _m("examples_per_s", "Throughput", "examples/s", True, "throughput", "rate"),
        _m("speedup_vs", "Speedup (stated)", "x", True),
        _m("perf_per_watt_ratio", "Perf/W ratio", "x", True),
        _m("power_ratio", "Power saving ratio", "x", True),
        _m("peak_tflops", "Peak compute", "TFLOPS", True, kind="capacity"),
        _m("peak_tflops_fp64", "Peak FP64 compute", "TFLOPS", True, kind="capacity"),
        _m("peak_tops", "Peak integer ops", "TOPS", True, kind="capacity"),
        _m("memory_gb", "Memory", "GB", True, kind="capacity", alt=("GiB",)),
        _m("mem_bw_gbs", "Memory bandwidth", "GB/s", True, kind="capacity"),
        _m("onchip_memory_mib", "On-chip memory", "MiB", True, kind="capacity"),
        _m("tdp_w", "TDP", "W", False, kind="capacity"),
        _m("power_measured_w", "Measured power", "W", False, kind="capacity"),
        _m("price_usd_per_h", "Price", "USD/h", False, kind="capacity"),
        _m("cost_to_accuracy_usd", "Cost to accuracy", "USD", False),
        _m("top1_accuracy", "Top-1 accuracy", "%", True),
        _m("images_per_s_per_usd", "Throughput per price", "images/s per USD/h", True),
    )
}

# A run's result columns (engine.results.schema) that are measurements.
RESULT_METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        _m("examples_per_sec", "Throughput", "examples/s", True, "throughput", "rate"),
        _m("gflops", "Achieved compute", "GFLOP/s", True, "compute", "rate"),
        _m("step_time_ms_median", "Median step time", "ms", False, "step_time_ms"),
        _m("step_time_ms_p10", "Step time, 10th percentile", "ms", False, "step_time_ms"),
        _m("step_time_ms_p90", "Step time, 90th percentile", "ms", False, "step_time_ms"),
        _m("time_to_first_step_s", "Time to first step (trace + compile)", "s", False),
        _m("first_epoch_s", "First epoch", "s", False, kind="time"),
        _m("total_s", "Total time", "s", False, "train_time_s", "time"),
        _m("final_loss", "Final loss", "", False),
        _m("final_accuracy", "Final accuracy", "0–1", True),
        _m("val_accuracy", "Validation accuracy", "0–1", True),
        _m("peak_host_memory_mb", "Peak host memory", "MB", False, kind="capacity"),
        _m("peak_device_memory_mb", "Peak device memory", "MB", False, kind="capacity"),
        _m("cost_usd", "Cost", "USD", False),
        _m("peak_gflops", "Device peak", "GFLOP/s", True, "compute", "capacity"),
        # honest timing on fast devices (engine.worker.train_backend); own families: never mixed with the above
        _m("examples_per_sec_windowed", "Throughput, synced every few steps", "examples/s", True),
        _m("examples_per_sec_step_synced", "Throughput, synced every step", "examples/s", True),
        _m("examples_per_sec_epoch", "Throughput, whole epochs", "examples/s", True),
        _m("sync_overhead_pct", "Cost of syncing every step", "%", False),
        _m("mfu_pct", "MFU (of the dense peak)", "%", True),
        _m("tokens_per_sec", "Tokens per second (sequence models)", "tokens/s", True),
        _m("blas_gflops", "NumPy BLAS on the same matmul", "GFLOP/s", True),
        # energy and cost per result (issue 12): measured over the steady window (engine.runs.telemetry)
        _m("energy_j", "Energy, steady window (measured)", "J", False),
        _m("avg_power_w", "Average power (measured)", "W", False, "power_measured_w", "capacity"),
        _m("joules_per_example", "Energy per example (measured)", "J/example", False),
        _m("examples_per_joule", "Examples per joule (measured)", "examples/J", True),
        _m("gflops_per_watt", "Compute per watt (measured)", "GFLOP/s per W", True),
        _m("energy_tdp_estimate_j", "Energy, TDP ESTIMATE (not measured)", "J", False),
        _m("cost_usd_per_million_examples", "Cost per million examples", "USD", False),
        _m("cost_usd_per_epoch", "Cost per epoch of the dataset", "USD", False),
    )
}

# Rates of work: what every comparison is expressed in before a ratio (engine.compare.facts.likeforlike).
RATES: dict[str, Metric] = {
    "training": _m("examples_per_s", "Training throughput", "examples/s", True, "throughput", "rate"),
    "micro": _m("gflops", "Achieved compute", "GFLOP/s", True, "compute", "rate"),
}

# Work per joule and per dollar on the same footing (engine.compare.rank.efficiency): each is a rate of work
# divided by the row's watts or its price per hour; the watts' basis (measured, published, estimate) rides along.
EFFICIENCY: dict[str, Metric] = {
    m.name: m
    for m in (
        _m("examples_per_joule", "Examples per joule", "examples/J", True, "energy_efficiency"),
        _m("gflops_per_watt", "Compute per watt", "GFLOP/J", True, "energy_efficiency"),
        _m("usd_per_million_examples", "Cost per million examples", "USD", False, "cost_per_work"),
    )
}


def metric(name: str) -> Metric | None:
    """The registry entry for a reference metric or a result column, or None for a foreign name."""
    return METRICS.get(name) or RESULT_METRICS.get(name)


def family_of(name: str) -> str:
    """'throughput' for images_per_s, examples_per_s and examples_per_sec; a name's own family otherwise."""
    m = metric(name)
    return m.family if m else name
