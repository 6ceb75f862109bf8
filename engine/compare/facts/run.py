"""The facts of the run an answer is about, read ONCE (facts_of, in engine.compare.answer.answer_for_run) and
carried through every stage in one frozen dataclass, so no stage reads them again for itself: its precision
class, its stack, the model's kind and FLOPs where the run knows them (a user model's), its batch, and whether
it ran on a GPU or TPU (then the run itself is an anchor of the scale)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.compare.facts import likeforlike as lfl


@dataclass(frozen=True)
class RunFacts:
    """Attributes:
    precision_class: "float32" or "mixed"; framework: the run's framework id ('tensorflow'), stack: as a label
    reads it ('TensorFlow'); model_kind: the model's kind (Rate.kind: a user model's from its layers, a zoo
    model's by name);
    flops_per_example: the run's own count, if any; batch_size: the run's batch (the step floor's ceiling);
    on_accelerator: the run ran on a known GPU or TPU."""

    precision_class: str
    framework: str
    stack: str
    model_kind: str
    flops_per_example: float | None
    batch_size: Any
    on_accelerator: bool


def facts_of(base: lfl.Rate) -> RunFacts:
    flops = base.settings.get("flops_per_example")
    return RunFacts(
        precision_class=base.precision_class,
        framework=str(base.settings.get("framework") or ""),
        stack=base.stack,
        model_kind=base.kind,
        flops_per_example=float(flops) if flops else None,
        batch_size=base.settings.get("batch_size"),
        on_accelerator=base.on_accelerator,
    )
