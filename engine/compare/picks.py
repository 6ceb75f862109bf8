"""What Compare shows by default for a run: one row per device kind for the run's own workload, best evidence
first — a run in your store (engine.compare.evidence.rates), else AccelBench's reference pack, else a published row,
else an estimate (engine.compare.estimate.estimate) — nearest precision first. A device that only a source of another
stack published is anchored on one AccelBench measured (engine.compare.scale.scaled: basis "scaled"), that source's own
figure listed beside it with its stack named. The page's default view, `engine compare --reference auto` and the
Run card all take these rows, so they give the same sentence for the same run.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from engine.catalog import hardware_table
from engine.compare.estimate.rows import estimated_rows
from engine.compare.estimate.tpu_chain import chained
from engine.compare.evidence.rates import Evidence, evidence_for
from engine.compare.evidence.reshape import RESCALED
from engine.compare.evidence.saturation import flag_saturated
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.run import RunFacts, facts_of
from engine.compare.facts.source import publisher, with_stack
from engine.compare.facts.workload import EIGHT_BIT, FAMILIES, not_comparable
from engine.compare.scale.converted import HELD, converted_anchors
from engine.compare.scale.one_scale import Scale, scale_of
from engine.compare.scale.scaled import scaled_rows
from engine.reference.units import same_family

# Devices a user can rent today (each has a price): where none of these has a row for the workload, an
# estimate stands in, labelled as one.
ESTIMATE_DEVICES = ("t4", "l4", "a10g", "v100", "a100", "h100", "h200", "b200", "tpu_v5e", "tpu_v6e")
BASIS_RANK = {"measured": 0, "published": 1, "estimate": 2}


def all_device_keys() -> tuple[str, ...]:
    """Every GPU and TPU of the hardware table with a datasheet peak, one key per chip family (TPU v2, not
    also v2-8): the devices "which device?" (engine.compare.which) estimates where nothing was measured."""
    seen: set[str] = set()
    out = []
    for d in hardware_table.DEVICES:
        if d.device_type in ("gpu", "tpu") and d.peak_tflops and d.key not in seen:
            seen |= same_family(d.key)
            out.append(d.key)
    return tuple(out)


# The order of evidence for one device: your store's runs, AccelBench's reference pack, published rows, estimates.
EVIDENCE_RANK = {"store": 0, "measured": 1, "published": 2, "estimate": 3}


def evidence(r: lfl.Rate) -> str:
    """'store' (a run in your results store), 'measured' (AccelBench's pack), 'published' or 'estimate'."""
    return "store" if r.origin == "store" else r.basis


def _rank(r: lfl.Rate, mine: str, framework: str) -> tuple[int, bool, bool, bool, bool, bool]:
    one = r.one
    scaled = one is None or one is not r
    other_fw = r.basis == "measured" and r.settings.get("framework") != framework
    # a row at the run's own input shape before one converted from another shape (evidence.reshape)
    return (
        EVIDENCE_RANK.get(evidence(r), 9),
        r.precision_class != mine,
        RESCALED in r.settings,
        other_fw,
        r.doubtful,
        scaled,
    )


def _pick(group: Sequence[lfl.Rate], mine: str, framework: str) -> lfl.Rate:
    """The best-evidenced row of one device kind; among equally good published rows the median one (not the
    fastest). AccelBench's own rows on the run's backend come first; failing that, the fastest backend: the pack
    ran every backend on one machine, so their spread is each backend's overhead (named in the label and the
    grade), not the scatter between sources that the median guards against."""
    best = min(_rank(r, mine, framework) for r in group)
    tied = [r for r in group if _rank(r, mine, framework) == best]
    one = {r.id: (r.one or r).value for r in tied}
    measured = best[0] <= EVIDENCE_RANK["measured"]
    pick = max(one.values()) if measured else statistics.median_low(sorted(one.values()))
    return next(r for r in tied if one[r.id] == pick)


def reference_rates(base: lfl.Rate, ref: pd.DataFrame | None) -> list[lfl.Rate]:
    """Every reference row of the run's workload (the one rule) that yields a rate."""
    return list(evidence_for(base, ref).same_reference)


def other_shapes(base: lfl.Rate, ref: pd.DataFrame | None) -> list[lfl.Rate]:
    """Reference rows of the same model or operation at another input shape: listed apart, never in a ratio."""
    return [r for r, _ in evidence_for(base, ref).other_shapes]


def same_workload(base: lfl.Rate, rates: Sequence[lfl.Rate]) -> list[lfl.Rate]:
    """The rates of `base`'s workload (the one rule) on a known GPU or TPU."""
    return [
        r for r in rates
        if r.on_accelerator and not_comparable(base.settings, r.settings, r.derivation) is None
    ]  # fmt: skip


def _anchors(base: lfl.Rate, picked: Sequence[lfl.Rate]) -> list[lfl.Rate]:
    """Measured one-device rates a scaled row may start from: the picks AccelBench measured, and the run itself
    when it ran on a GPU or TPU."""
    out = [r for r in picked if r.basis == "measured" and r.one is not None]
    if base.on_accelerator and base.hardware_key not in {r.hardware_key for r in out}:
        out.append(base)
    return out


def default_rows(
    base: lfl.Rate,
    ref: pd.DataFrame | None,
    device: str | None = None,
    estimates: bool = True,
    store: Sequence[lfl.Rate] = (),
    all_devices: bool = False,
    facts: RunFacts | None = None,
) -> list[lfl.Rate]:
    """One row per accelerator kind for `base`'s workload (or only `device`), best evidence first: your store's
    runs (`store`: engine.compare.evidence.rates rates of any workload), AccelBench's pack, published rows; a device
    only a source published is anchored on a measured one (basis "scaled", the source's figure listed beside it
    with its stack); estimates for the rentable devices with no row — every GPU and TPU with a datasheet peak
    with `all_devices` (engine.compare.which) — (training only: an estimate needs examples/s to scale). `facts`:
    the run's, read once by the answer (engine.compare.facts.run)."""
    return answer_rows(evidence_for(base, ref, store), ref, facts or facts_of(base), device, all_devices, estimates)


def answer_rows(
    ev: Evidence,
    ref: pd.DataFrame | None,
    facts: RunFacts,
    device: str | None = None,
    all_devices: bool = False,
    estimates: bool = True,
) -> list[lfl.Rate]:
    """default_rows of the answer's evidence (engine.compare.evidence.rates.evidence_of), made once by the answer."""
    base = ev.base
    mine, framework = facts.precision_class, facts.framework
    groups: dict[str, list[lfl.Rate]] = {}
    # a pipeline-bound source's figures are flagged first (engine.compare.evidence.saturation): no ratio, no headline
    for r in flag_saturated([*ev.same_store, *ev.same_reference]):
        if r.on_accelerator:
            groups.setdefault(r.hardware_key, []).append(r)
    picked = {k: _pick(g, mine, framework) for k, g in groups.items()}
    if base.task == "training" and estimates:  # one answer: the box, the CLI and "Which device?" read one scale
        rows = one_scale_rows(ev, ref, groups, picked, facts)
        if all_devices and not device:
            return rows
        return _of_devices(rows, [device] if device else [*ESTIMATE_DEVICES, *picked])
    wanted = [k for k in picked if device is None or k == device]
    published = [r for g in groups.values() for r in g if r.basis == "published"]
    unmeasured = [k for k in wanted if picked[k].basis != "measured"]
    scaled = {
        r.hardware_key: r for r in scaled_rows(base, _anchors(base, list(picked.values())), published, unmeasured)
    }
    out: list[lfl.Rate] = []
    for k in wanted:
        out += [scaled[k], with_stack(picked[k])] if k in scaled else [picked[k]]
    if estimates and base.task == "training":
        keys = [device] if device else list(all_device_keys() if all_devices else ESTIMATE_DEVICES)
        covered = {f for k in groups for f in same_family(k)} if all_devices and not device else set(groups)
        covered -= {k for k, r in picked.items() if "saturated" in r.settings and k not in scaled}
        # from the answer's measured anchors, as "Which device?" does (one scale: engine.compare.scale.one_scale)
        scale = scale_of(
            base, [*picked.values(), *([base] if facts.on_accelerator else [])], converted_anchors(ev, facts, ref)
        )
        out += estimated_rows(ev, ref, [k for k in keys if k not in covered], scale.anchors, facts)
    return out


def _of_devices(rows: Sequence[lfl.Rate], keys: Sequence[str]) -> list[lfl.Rate]:
    """The one-scale rows of these devices (a key stands for its chip family: TPU v2 chips and a v2-8 board)."""
    wanted = {f for k in keys for f in same_family(k)}
    return [r for r in rows if r.hardware_key in wanted]


def one_scale_rows(
    ev: Evidence,
    ref: pd.DataFrame | None,
    groups: dict[str, list[lfl.Rate]],
    picked: dict[str, lfl.Rate],
    facts: RunFacts | None = None,
) -> list[lfl.Rate]:
    """Every device on one scale: the measured anchors (one stack, the run's precision class), devices one source
    measured beside an anchor (scaled, never by a pipeline-bound source's ratio), the step model from an anchor
    for every other GPU and TPU with a peak; each other figure (published, another stack or precision) listed
    beside with its `scale_role` "beside" and why, never ranked."""
    base = ev.base
    facts = facts or facts_of(base)
    scale = scale_of(
        base, [*picked.values(), *([base] if facts.on_accelerator else [])], converted_anchors(ev, facts, ref)
    )
    role = {"scale_role": "anchor", "scale_note": scale.note}
    anchors = [replace(a, settings={**a.settings, **role}) for a in scale.anchors]
    published = [r for g in groups.values() for r in g if r.basis == "published"]
    targets = [k for k in picked if k not in scale.keys]
    kin = [r for r in ev.reference if r.basis == "published" and r.kind == base.kind and r.workload != base.workload]
    # a family member's figures at the run's precision (an 8-bit figure enters only through a same-precision ratio)
    family = [r for r in kin if r.workload in FAMILIES.get(base.workload, ()) and r.precision not in EIGHT_BIT]
    unranked = [k for k in all_device_keys() if k not in scale.keys]  # a family member's ratio reaches these too
    scaled = scaled_rows(base, anchors, published, [*targets, *(k for k in unranked if k not in targets)], family)
    ranked = {f for r in [*anchors, *scaled] for f in same_family(r.hardware_key)}
    anchor_ids = {a.id for a in scale.anchors}
    beside = []
    for r in picked.values():
        if r.id in anchor_ids or (r.one or r).id in anchor_ids:
            continue
        why = "pipeline-bound source" if "saturated" in r.settings else _beside_why(r, scale)
        beside.append(replace(with_stack(r), settings={**r.settings, "scale_role": "beside", "beside_why": why}))
    keys = [k for k in all_device_keys() if k not in ranked]
    estimates = estimated_rows(ev, ref, keys, anchors, facts)
    estimates = chained(estimates, published, scale.precision_class, kin)  # TPUs from TPU figures (issue 36 item 5)
    held = [a.settings.get(HELD, a) for a in anchors if a.id != base.id]  # a converted one held at the run's batch
    shown = [replace(a, settings={**a.settings, **role}) for a in held]
    return [*shown, *scaled, *estimates, *beside]


def _beside_why(r: lfl.Rate, scale: Scale) -> str:
    if r.precision_class != scale.precision_class:
        return f"another precision ({r.precision_words})"
    stack = lfl.FRAMEWORK_TEXT.get(str(r.settings.get("framework")), "stack not stated")
    if r.basis == "measured":
        return f"measured on another stack ({stack})"
    return f"{publisher(r)}'s own figure, {stack}: another stack's scale" if r.basis == "published" else r.basis


def automatic_rows(
    base: lfl.Rate, ref: pd.DataFrame | None, chosen: Sequence[lfl.Rate], store: Sequence[lfl.Rate] = ()
) -> list[lfl.Rate]:
    """Compare's rows beside the ones a user picked. A training run: the one answer's rows (answer_rows: the
    one-scale rows of "Which device?" for the rentable devices and every device with evidence), each picked row
    that is among them in the answer's own form (a figure beside the scale says so), so the box and "Which
    device?" give a device one figure. Otherwise, in the order of evidence: your store's runs (one per device, the
    first evidence for it even beside a picked pack row), a scaled row for each picked published device that
    AccelBench did not measure."""
    facts, ev = facts_of(base), evidence_for(base, ref, store)
    if base.task == "training":
        return answer_rows(ev, ref, facts)
    mine, framework = facts.precision_class, facts.framework
    picked_same = [r for r in same_workload(base, chosen) if r.id != base.id]
    measured = {r.hardware_key for r in picked_same if r.basis == "measured"}
    ids = {r.id for r in chosen}
    groups: dict[str, list[lfl.Rate]] = {}
    for r in ev.same_store:
        if r.id not in ids:
            groups.setdefault(r.hardware_key, []).append(r)
    mine_rows = [_pick(g, mine, framework) for g in groups.values()]
    by_device: dict[str, list[lfl.Rate]] = {}
    for r in picked_same + mine_rows:
        if r.basis == "measured":
            by_device.setdefault(r.hardware_key, []).append(r)
    anchors = _anchors(base, [_pick(g, mine, framework) for g in by_device.values()])
    covered = measured | set(groups)
    targets = sorted({r.hardware_key for r in picked_same if r.basis == "published"} - covered)
    pool = [r for r in [*ev.same_reference, *picked_same] if r.basis == "published"]
    pool = flag_saturated(list({r.id: r for r in pool}.values()))  # the evidence stage's flag, as default_rows
    return mine_rows + scaled_rows(base, anchors, pool, targets)
