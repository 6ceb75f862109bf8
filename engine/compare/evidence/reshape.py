"""A figure of the run's own model at another input shape, put on the run's shape by a stated conversion: its rate ×
the model's traced cost at the figure's shape ÷ at the run's (engine.compare.facts.cost.cost_ratio, on the figure's
own device and precision class), said in its label and its `how` ("rescaled from 224×224×3 by cost 0.73").

So a ResNet-50 run on flowers JPEGs at 192×192 sits on the same scale as the same model on synthetic 224×224 data:
AccelBench's pack rows (224×224) become its anchors, rescaled, and every other row hangs from them as it would for
a synthetic run. The original rows stay listed apart ("another input shape"); the converted ones keep their basis
(measured, published) and name the conversion, and a row of the run's own shape always goes before one converted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.cost import cost_ratio, shape_words

RESCALED = "rescaled_from"  # the settings key a converted row carries: the shape it was measured at


def reshaped(base: lfl.Rate, others: Sequence[tuple[lfl.Rate, str]]) -> list[lfl.Rate]:
    """The rows of `base`'s training model at another input shape (the evidence's other_shapes), each converted to
    `base`'s shape by the traced cost ratio on its device; a row whose cost is unknown at either shape is left out."""
    if base.task != "training":
        return []
    out = []
    for r, _why in others:
        if r.workload != base.workload or r.task != "training" or r.shaped == base.shaped:
            continue
        k = cost_ratio(r.shaped, base.shaped, r.hardware_key, r.precision_class)
        if k is not None:
            out.append(_rescaled(base, r, k))
    return out


def _rescaled(base: lfl.Rate, r: lfl.Rate, k: float) -> lfl.Rate:
    frm, to = shape_words(r.shaped), shape_words(base.shaped)
    words = f"rescaled from {frm} to {to} by cost {1 / k:.2f} (× {k:.3g}, the traced FLOPs and bytes of {base.workload})"
    settings = {
        **r.settings, "dataset": base.settings.get("dataset"), "shape": base.settings.get("shape"), RESCALED: frm,
        "cost_ratio": k, "rescaled_words": words,
    }  # fmt: skip
    return replace(
        r, id=f"{r.id}@{base.shaped.partition('@')[2] or 'native'}", label=f"{r.label}, at {frm} rescaled to {to}",
        value=r.value * k, low=r.low * k if r.low else None, high=r.high * k if r.high else None,
        how=f"{r.how}; {words}", settings=settings,
    )  # fmt: skip
