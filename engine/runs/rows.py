"""The result row a run starts with, from its spec alone (the worker fills in the rest)."""

from __future__ import annotations

from pathlib import Path

from engine.catalog.specs import MicroSpec, Spec, TrainSpec
from engine.results.schema import ResultRow
from engine.results.status import RunStatus


def initial_row(spec: Spec, run_id: str) -> ResultRow:
    """What is known about a run before it starts (the worker fills in the rest)."""
    row: ResultRow = {
        "run_id": run_id,
        "status": RunStatus.QUEUED,
        "kind": spec.kind,
        "device": spec.device,
        "backend": spec.backend,
        "xla": spec.xla,
        "price_per_hour_usd": spec.price_per_hour_usd or None,
    }
    if isinstance(spec, MicroSpec):
        row["dtype"] = row["precision"] = spec.dtype
        row["model"] = spec.bench
        row["dataset"] = "synthetic"
        row["shape"] = micro_shape(spec)
        row["strategy"] = "none"
        row["global_batch_size"] = spec.batch_size if spec.bench == "conv2d" else None
    elif isinstance(spec, TrainSpec):
        row.update(
            {
                # a user's model is named by its file or function until the worker reads its own name
                "model": spec.model or Path(spec.model_file).stem or spec.model_fn.rpartition(":")[2],
                "model_source": ("file" if spec.model_file else "function") if spec.user_model else "zoo",
                "dataset": spec.dataset,
                "precision": spec.precision,
                "dtype": spec.precision.replace("mixed_", "") if spec.precision != "float32" else "float32",
                "strategy": spec.strategy,
                "global_batch_size": spec.batch_size,
                "epochs": spec.epochs,
                "steps_per_epoch": spec.steps_per_epoch,
            }
        )
        if spec.processes > 1:  # stored from the start: a failed, cancelled or interrupted row keeps it too
            row["processes"] = spec.processes
    return row


def micro_shape(spec: MicroSpec) -> str:
    if spec.bench == "matmul":
        return f"({spec.m}x{spec.k})@({spec.k}x{spec.n})"
    return f"{spec.batch_size}x{spec.height}x{spec.width}x{spec.channels} * {spec.kernel_size}x{spec.kernel_size}x{spec.channels}x{spec.filters}"
