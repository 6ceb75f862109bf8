"""The shortest training step an accelerator has been seen to take (AccelBench's own pack): at global batch B no
estimate may claim more than B ÷ that step (engine.compare.estimate.step_floor holds estimates under it; a converted
anchor, engine.compare.scale.converted, too)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from engine.reference.normalize import is_missing

_RATES = ("examples_per_s", "images_per_s")


@dataclass(frozen=True)
class StepFloor:
    """The fastest measured training step on an accelerator.

    Attributes:
      step_s: its median step time in seconds (global batch ÷ examples/s).
      label: what it was, for the sentence that names the cap ("reuters_conv1d, batch 256, H100, keras-jax").
    """

    step_s: float
    label: str


def step_floor(ref: pd.DataFrame | None) -> StepFloor | None:
    """The fastest AccelBench-measured training step on a GPU or TPU in the reference table (None: none measured)."""
    if ref is None or ref.empty or "source_kind" not in ref:
        return None
    rows = ref[
        (ref["source_kind"] == "accelbench")
        & (ref["task"] == "training")
        & ref["device_type"].isin(["gpu", "tpu"])
        & ref["metric"].isin(_RATES)
    ]
    best: tuple[float, dict[str, Any]] | None = None
    for row in rows.to_dict("records"):
        batch, rate = row.get("batch_size"), row.get("value")
        if is_missing(batch) or is_missing(rate) or not float(rate) > 0:
            continue
        step_s = float(batch) / float(rate)
        if best is None or step_s < best[0]:
            best = (step_s, row)
    if best is None:
        return None
    step_s, row = best
    label = f"{row['model']}, batch {int(float(row['batch_size']))}, {row['hardware']}, {row['framework']}"
    return StepFloor(step_s, label)


def ceiling(batch: Any, floor: StepFloor | None) -> float | None:
    """batch ÷ the fastest measured step: what no estimate at that global batch may exceed (None: no floor)."""
    if floor is None or is_missing(batch) or not float(batch) > 0:
        return None
    return float(batch) / floor.step_s


def hold(batch: Any, ref: pd.DataFrame | None) -> tuple[float, str] | None:
    """(the ceiling at `batch`, the clause a row held there carries), in one call; None without a floor or batch."""
    floor = step_floor(ref)
    top = ceiling(batch, floor)
    return (top, held_words(top, batch, floor)) if top is not None and floor is not None else None


def held_words(top: float, batch: Any, floor: StepFloor) -> str:
    """The clause a row held at the ceiling carries."""
    return (
        f"held at ≤ {top:,.0f} examples/s: at batch {int(float(batch))} a step cannot be shorter than the fastest "
        f"training step AccelBench has measured on an accelerator ({floor.step_s * 1000:.2g} ms: {floor.label}), so "
        "this small workload is bound by per-step overhead, not the device's FLOP/s"
    )
