"""What a published figure fed its model (issue 38 item 5): real data through an input pipeline, synthetic tensors
(no pipeline at all), or unknown — read from the row's own `data_kind` and its source, never guessed. A synthetic
figure says nothing about whether that device's host could keep it fed; a real-data figure already includes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SYNTHETIC = "synthetic data: no input pipeline in the figure"
UNKNOWN = "input: not stated by the source"


def fed(row: Mapping[str, Any]) -> str:
    """One phrase for a reference row (or a Rate's settings): what reached the model, and through what where the
    source says so."""
    kind = str(row.get("data_kind") or "").strip().lower()
    source = str(row.get("source_id") or "").upper()
    if kind == "synthetic":
        return SYNTHETIC
    if kind != "real":
        return UNKNOWN
    if source.startswith("MLPERF-TPU"):
        return "real data through the submitter's host pipeline (MLPerf rules: preprocessing timed)"
    if source.startswith("MLPERF"):
        model = str(row.get("model") or "")
        dali = " (NVIDIA's code: DALI on the GPU)" if model.startswith("resnet") else ""
        return f"real data through the submitter's pipeline{dali} (MLPerf rules: preprocessing timed)"
    return "real data through the source's own input pipeline"
