"""The result row: one per run, the same columns in SQLite and in CSV exports (design §3).

Every column has a type, so imports can be checked cell by cell and exports round-trip exactly.
"""

from __future__ import annotations

from typing import TypedDict

SCHEMA_VERSION = 2  # 2: backend "torch" is native PyTorch, "keras-torch" Keras on torch (was "torch")
RUN_ID = r"^[A-Za-z0-9._-]{1,128}$"  # a run id names a folder under runs/: no separators, no "..", no spaces

KINDS = ("matmul", "conv2d", "train")

# (name, type) in export order. Types: str, int, float, bool.
RESULT_COLUMNS: tuple[tuple[str, type], ...] = (
    # identity and status
    ("schema_version", int),
    ("run_id", str),
    ("created_at", str),
    ("status", str),
    ("error", str),
    ("source", str),
    ("label", str),  # the user's own annotation (a machine or team name, `--label`); never set by default
    ("sweep_id", str),  # the sweep (engine.sweep) this run is a cell of; empty for a run started on its own
    ("node", str),  # the Ray node that ran a dispatched cell ("IP (node id)"); empty for runs on this machine
    # what ran
    ("kind", str),
    ("model", str),
    ("dataset", str),
    ("shape", str),
    ("dtype", str),
    ("precision", str),
    ("xla", bool),
    ("device", str),
    ("backend", str),  # Keras 3 backend / framework: tensorflow, jax or torch (empty in older files = tensorflow)
    ("strategy", str),
    ("replicas", int),
    ("global_batch_size", int),
    ("per_replica_batch_size", int),
    # a run over N local processes (issue 30, `--processes`): how many, what started them, what all-reduced
    ("processes", int),
    ("launcher", str),
    ("collective_backend", str),  # gloo (CPU) or nccl (GPU)
    ("epochs", int),
    ("steps_per_epoch", int),
    ("params", int),
    # a user's own model (issue 20): "zoo", "file" (--model-file) or "function" (--model-fn), and a hash of the
    # file or the function's source so History and Compare group runs of the same model
    ("model_source", str),
    ("model_hash", str),
    # a user model's kind read from its layers (engine.worker.layer_kind): transformer, recurrent or conv
    ("model_kind", str),
    ("price_per_hour_usd", float),
    # what it measured
    ("time_to_first_step_s", float),
    ("first_epoch_s", float),
    ("step_time_ms_median", float),
    ("step_time_ms_p10", float),
    ("step_time_ms_p90", float),
    ("examples_per_sec", float),
    # honest timing on fast devices (design §4): a sync only at the edges of windows of several steps,
    # the same steps synced at both edges of every step, and a wall clock around whole epochs
    ("examples_per_sec_windowed", float),
    ("examples_per_sec_step_synced", float),
    ("examples_per_sec_epoch", float),
    ("sync_overhead_pct", float),  # windowed / step-synced − 1, in %; may be slightly negative (noise)
    ("examples_per_sec_per_device", float),  # examples_per_sec ÷ devices in all (replicas)
    ("rank_step_ms_median", str),  # a multi-process run: every rank's median step in ms, "12.1 12.9" by rank
    ("slowest_rank", int),  # the rank whose median step was the longest
    # input pipeline beside the step (issue 38; rule in engine.catalog.input_bound): the pipeline alone, the
    # model alone on one batch already on the device, the share of a step spent waiting for a batch, and
    # the verdict; then the pipeline settings used and the host cores it could use
    ("input_examples_per_sec", float),
    ("step_examples_per_sec", float),
    ("input_wait_pct", float),
    ("bound", str),  # "input", "compute" or "balanced"
    ("input_workers", int),  # empty = AUTOTUNE / the framework's default
    ("prefetch", int),  # empty = AUTOTUNE
    ("cache", bool),
    ("input_cores", int),
    ("total_s", float),
    ("gflops", float),
    ("peak_gflops", float),
    ("mfu_pct", float),  # achieved FLOP/s ÷ the device's dense peak for the run's precision, in %
    ("flops_source", str),  # where the FLOP count behind gflops/mfu_pct came from (counted by layer, or a framework)
    ("tokens_per_sec", float),  # sequence models: examples/s × tokens per sequence
    ("matches_eager_fp32", bool),  # native PyTorch: a compiled/mixed run's first step agreed with eager float32
    ("blas_gflops", float),  # NumPy's BLAS on the same matmul, the host's own reference (CPU matmul only)
    ("final_loss", float),
    ("final_accuracy", float),
    ("val_accuracy", float),
    ("peak_host_memory_mb", float),
    ("peak_device_memory_mb", float),
    ("cost_usd", float),
    # energy and cost per result (issue 12): measured over the steady window, or plainly absent
    ("energy_source", str),  # nvml-counter, nvml-power-integral, rapl, or "not measurable here"
    ("energy_j", float),
    ("avg_power_w", float),
    ("joules_per_example", float),
    ("examples_per_joule", float),
    ("gflops_per_watt", float),
    ("energy_tdp_estimate_j", float),  # board TDP × steady seconds: an ESTIMATE, never a measurement
    ("cost_usd_per_million_examples", float),
    ("cost_usd_per_epoch", float),  # one pass over the named dataset's real training split, at the steady rate
    ("price_source", str),  # which price per hour applied: the user's or a named price-table row
    # where it ran
    ("devices_used", str),
    ("device_name", str),
    ("host_cores", int),
    ("host_memory_gb", float),
    ("tf_version", str),
    ("framework_version", str),  # the backend's own version (jax / torch), tf_version for TensorFlow
    ("keras_version", str),
    ("python_version", str),
    ("driver_version", str),
    ("notes", str),
)

# Columns added after the first exports: files written before them still import (the cells stay empty).
ADDED_COLUMNS: tuple[str, ...] = (
    "backend",
    "examples_per_sec_windowed",
    "examples_per_sec_step_synced",
    "examples_per_sec_epoch",
    "sync_overhead_pct",
    "mfu_pct",
    "blas_gflops",
    "framework_version",
    "energy_source",
    "energy_j",
    "avg_power_w",
    "joules_per_example",
    "examples_per_joule",
    "gflops_per_watt",
    "energy_tdp_estimate_j",
    "cost_usd_per_million_examples",
    "cost_usd_per_epoch",
    "price_source",
    "label",
    "sweep_id",
    "node",
    "model_source",
    "model_hash",
    "flops_source",
    "tokens_per_sec",
    "matches_eager_fp32",
    "model_kind",
    "processes",
    "launcher",
    "collective_backend",
    "examples_per_sec_per_device",
    "rank_step_ms_median",
    "slowest_rank",
    "input_examples_per_sec",
    "step_examples_per_sec",
    "input_wait_pct",
    "bound",
    "input_workers",
    "prefetch",
    "cache",
    "input_cores",
)

COLUMN_NAMES: tuple[str, ...] = tuple(name for name, _ in RESULT_COLUMNS)
COLUMN_TYPES: dict[str, type] = dict(RESULT_COLUMNS)

# Measured values that can never be negative; an import carrying one is refused. A tuple in column
# order, so a row with two bad cells always reports the same (leftmost) one.
NON_NEGATIVE: tuple[str, ...] = tuple(
    name
    for name, typ in RESULT_COLUMNS
    if typ in (int, float) and name not in ("schema_version", "final_loss", "sync_overhead_pct")
)


class ResultRow(TypedDict, total=False):
    """One result row as the store and the CSV reader hand it out; None is a missing value.

    The keys are exactly COLUMN_NAMES and the value types match COLUMN_TYPES (a test checks both), so
    a column added to RESULT_COLUMNS must be added here too. `total=False`: a row being built (a
    queued run, a worker's result) holds only the columns known so far.
    """

    schema_version: int | None
    run_id: str
    created_at: str | None
    status: str | None
    error: str | None
    source: str | None
    label: str | None
    sweep_id: str | None
    node: str | None
    kind: str | None
    model: str | None
    dataset: str | None
    shape: str | None
    dtype: str | None
    precision: str | None
    xla: bool | None
    device: str | None
    backend: str | None
    strategy: str | None
    replicas: int | None
    global_batch_size: int | None
    per_replica_batch_size: int | None
    processes: int | None
    launcher: str | None
    collective_backend: str | None
    epochs: int | None
    steps_per_epoch: int | None
    params: int | None
    model_source: str | None
    model_hash: str | None
    model_kind: str | None
    price_per_hour_usd: float | None
    time_to_first_step_s: float | None
    first_epoch_s: float | None
    step_time_ms_median: float | None
    step_time_ms_p10: float | None
    step_time_ms_p90: float | None
    examples_per_sec: float | None
    examples_per_sec_windowed: float | None
    examples_per_sec_step_synced: float | None
    examples_per_sec_epoch: float | None
    sync_overhead_pct: float | None
    examples_per_sec_per_device: float | None
    rank_step_ms_median: str | None
    slowest_rank: int | None
    input_examples_per_sec: float | None
    step_examples_per_sec: float | None
    input_wait_pct: float | None
    bound: str | None
    input_workers: int | None
    prefetch: int | None
    cache: bool | None
    input_cores: int | None
    total_s: float | None
    gflops: float | None
    peak_gflops: float | None
    mfu_pct: float | None
    flops_source: str | None
    tokens_per_sec: float | None
    matches_eager_fp32: bool | None
    blas_gflops: float | None
    final_loss: float | None
    final_accuracy: float | None
    val_accuracy: float | None
    peak_host_memory_mb: float | None
    peak_device_memory_mb: float | None
    cost_usd: float | None
    energy_source: str | None
    energy_j: float | None
    avg_power_w: float | None
    joules_per_example: float | None
    examples_per_joule: float | None
    gflops_per_watt: float | None
    energy_tdp_estimate_j: float | None
    cost_usd_per_million_examples: float | None
    cost_usd_per_epoch: float | None
    price_source: str | None
    devices_used: str | None
    device_name: str | None
    host_cores: int | None
    host_memory_gb: float | None
    tf_version: str | None
    framework_version: str | None
    keras_version: str | None
    python_version: str | None
    driver_version: str | None
    notes: str | None
