"""The estimate stage's rows: one estimate per device key as a rate of work marked basis "estimate", with its
range (engine.compare.estimate.estimate), held under the step floor where the run's own batch applies
(step_floor), from the answer's measured anchors where there are any (one scale)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from engine.compare.estimate.estimate import Estimate
from engine.compare.estimate.points import evidence_points, point_of_rate
from engine.compare.estimate.stack_factor import StackFactor, estimates_on_stacks
from engine.compare.estimate.step_floor import capped_all
from engine.compare.evidence.rates import Evidence
from engine.compare.evidence.reshape import RESCALED
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.run import RunFacts, facts_of
from engine.compare.facts.silicon import STACKS
from engine.compare.scale.converted import CONVERTED
from engine.compare.scale.one_scale import TPU_FLOAT32
from engine.reference.units import HARDWARE, units_between
from engine.reference.units import short_name as name_of


def estimated_rows(
    ev: Evidence,
    ref: pd.DataFrame | None,
    keys: Sequence[str],
    anchors: Sequence[lfl.Rate] | None = None,
    facts: RunFacts | None = None,
) -> list[lfl.Rate]:
    """An estimate per device key, as a rate marked basis "estimate" with its range (estimate.estimate); the
    store's measured runs (of any model) join the reference table's figures as points (`ev`, the answer's evidence:
    engine.compare.evidence.rates). `anchors`: the answer's measured rows of the model an estimate may start from
    (one scale), else any of its figures. `facts`: the run's, read once by the answer (engine.compare.facts.run).
    Each row names the devices the step model's fit saw (settings "fit_devices": error_case's evidence)."""
    if not keys or ref is None:
        return []
    base = ev.base
    facts = facts or facts_of(base)
    groups, starts = evidence_points(ev.reference, ev.store, anchors)
    if starts is None and base.shaped != base.workload:  # the model's figures converted to the run's input shape
        starts = [
            p for p in (point_of_rate(r) for r in [*ev.same_store, *ev.same_reference] if RESCALED in r.settings) if p
        ]
        starts = starts or None
    es, stacks = estimates_on_stacks(
        base.workload, keys, facts.precision_class, groups, ev.reference, starts,
        flops_per_example=facts.flops_per_example, kind=facts.model_kind, shaped=base.shaped,
    )  # fmt: skip
    bands = {a.hardware_key: (*a.settings["conversion_band"], f"{a.settings['anchor_model']} ({a.kind})")
             for a in anchors or () if CONVERTED in a.settings}  # fmt: skip
    # on one scale the rows share the measured anchors' batch, not the run's: no ceiling at the run's batch — but a
    # run's own model converted from another (scale.converted) is at the run's batch, so the floor holds
    es = capped_all(es, facts.batch_size, ref if starts is None or bands else None)
    fitted = tuple(sorted({d for _, d, _ in groups}))
    return [_as_rate(base, facts, e, fitted, bands, stacks.get(e.hardware_key)) for e in es]


def _as_rate(
    base: lfl.Rate,
    facts: RunFacts,
    e: Estimate,
    fitted: tuple[str, ...] = (),
    bands: dict[str, tuple[float, float, str]] | None = None,
    stack: StackFactor | None = None,
) -> lfl.Rate:
    dev = HARDWARE.get(e.hardware_key)
    name = dev.short if dev else e.hardware_key
    precision = base.precision if facts.precision_class == e.precision_class else "mixed_bfloat16"
    unit = "chip" if dev is not None and dev.device_type == "tpu" else "gpu"
    base_unit = "core" if unit == "chip" else "die"  # likeforlike counts TPU cores and GPU dies
    device_type = dev.device_type if dev else "gpu"
    settings = {
        "hardware_key": e.hardware_key, "hardware": name, "device_type": device_type,
        "hardware_count": 1, "count_unit": unit, "task": "training", "model": base.workload,
        "dataset": base.settings.get("dataset"), "precision": precision, "rough": e.rough, "method": e.method, "source_kind": "estimate",
        "anchor_key": e.anchor.hardware_key if e.anchor else None,
        "ratio_source": "step model" if e.method == "memory-aware" else f"ratio on {len(e.ratio_models)} other models",
        "fit_devices": fitted, "beyond": e.beyond,
    }  # fmt: skip
    if stack is not None:  # another vendor's stack beside the CUDA anchor (estimate.stack_factor), in the basis
        settings |= {"stack_factor": stack.factor, "ratio_source": f"step model × {STACKS[stack.vendor]} stack factor "
                     f"{stack.factor:.2f}"}  # fmt: skip
    if device_type == "tpu" and facts.precision_class == "float32":
        settings["precision_note"] = TPU_FLOAT32
    words = "estimate, rough" if e.rough else "estimate"
    low, high = e.low, e.high
    start = e.anchor.hardware_key if e.anchor is not None and e.anchor.basis == "estimate" else ""
    band, how = (bands or {}).get(start), e.how
    if band is not None:  # from a converted anchor (scale.converted): its error compounds with the step model's
        if not e.capped:  # a ceiling (the step floor) stays the ceiling, its range the floor's
            low, high = min(low, e.examples_per_sec) * band[0], max(high, e.examples_per_sec) * band[1]
        settings["rough"] = True
        how = f"{how}; that {name_of(start)} figure is {band[2]} measured there, converted by traced cost"
    return lfl.Rate(
        id=f"estimate:{e.hardware_key}:{base.workload}:{e.precision_class}", label=f"{name} ({words}, "
        f"{lfl.precision_text(precision)})", origin="estimate", task="training", workload=base.workload,
        value=e.examples_per_sec, unit="examples/s", devices=units_between(e.hardware_key, unit, base_unit),
        derivation="estimate", how=how, bound="at most" if e.capped else "about",
        hardware_key=e.hardware_key, device_type=device_type, source_id="ESTIMATE", settings=settings,
        basis="estimate", low=low, high=high,
    )  # fmt: skip
