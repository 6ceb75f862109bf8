"""One consistent headline per device: a device nobody here measured for this workload, anchored on one that
AccelBench did (your store or the reference pack).

For device D the figure is the anchor's measured rate × the D-to-anchor ratio taken from ONE source that
published both devices on the same model with one software stack (the same suite's B200 and H100 rows), never a
ratio between two stacks: a source's own stack cancels in its ratio, and the anchor carries the run's framework
family. So the order of devices for one workload does not flip because their figures come from different
frameworks (a Keras-JAX H100 at 5,262 img/s beside a PyTorch B200 at 3,076 would read as a slower B200).

Basis "scaled": a measured anchor × a published same-source ratio. The source's own figure for D stays listed
beside it with its stack named (engine.compare.facts.source.with_stack). Pure Python over engine.compare.facts.likeforlike rates.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Sequence
from dataclasses import replace

from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.source import publisher
from engine.compare.facts.workload import device_unit
from engine.reference.units import HARDWARE, short_name, units_between

BASIS = "scaled"
# a device ratio carried from a family member (workload.FAMILIES): the 80th percentile of |log| between two members'
# ratios on the same two devices in one source (engine.compare.scale.family_check: 26 device pairs, median 14 %, 80th percentile 23 %)
FAMILY_MARGIN = 0.23


def _config(r: lfl.Rate) -> tuple[str, float]:
    """What two rows of one source must share to give a device ratio: precision class and device count."""
    return r.precision_class, float(r.settings.get("per_device_of") or 1)


def _source_ratios(
    published: Sequence[lfl.Rate], target: str, anchor: str, any_count: bool = False
) -> list[tuple[lfl.Rate, lfl.Rate, str]]:
    """(target row, anchor row, precision class) pairs of one device each, from one source and one stack (and one
    system size, unless `any_count`: a family member's MLPerf systems, each per device, 4 and 8 GPUs)."""
    ones = [(r, o) for r in published if r.hardware_key in (target, anchor) and (o := r.one) is not None]
    ones = [(r, o) for r, o in ones if not r.doubtful and r.bound not in ("at most", "at least")]
    out = []
    for t_raw, t in ones:
        if t_raw.hardware_key != target:
            continue
        for a_raw, a in ones:
            same_source = a_raw.hardware_key == anchor and a_raw.source_id == t_raw.source_id
            same_config = _config(a)[0] == _config(t)[0] if any_count else _config(a) == _config(t)
            if same_source and a_raw.stack == t_raw.stack and same_config:
                out.append((t, a, _config(t)[0]))
    return out


def _option(
    base: lfl.Rate, anchor: lfl.Rate, target: str, published: Sequence[lfl.Rate], any_count: bool = False
) -> tuple[tuple, lfl.Rate, lfl.Rate, lfl.Rate, list[float]] | None:
    """The best same-source pair for target/anchor at the anchor's precision class: one device each first."""
    pairs = _source_ratios(published, target, anchor.hardware_key, any_count)
    if not pairs:
        return None
    a_pc = anchor.precision_class
    by_source: dict[tuple[str, str, float], list[tuple[lfl.Rate, lfl.Rate]]] = {}
    for t, a, pc in pairs:
        if pc == a_pc:  # a ratio at another precision class does not carry (tensor cores change it)
            by_source.setdefault((t.source_id, pc, _config(t)[1]), []).append((t, a))
    if not by_source:
        return None

    def year(k: tuple[str, str, float]) -> int:
        y = by_source[k][0][0].settings.get("year")
        return int(y) if isinstance(y, (int, float, str)) and str(y).isdigit() else 0

    # one device each first, then the newest source (its software is nearest today's)
    best_key = min(by_source, key=lambda k: (k[2] != 1, -year(k), k[0]))
    chosen = by_source[best_key]
    ratios = sorted(t.value / a.value for t, a in chosen)
    mid = statistics.median_low(ratios)
    t, a = next((t, a) for t, a in chosen if t.value / a.value == mid)
    rank = (
        anchor.stack != base.stack if base.stack else False,  # the run's own framework family first
        a_pc != base.precision_class,
        abs(math.log(mid)),  # the nearest measured device: the least carried
        -anchor.value,
    )
    return rank, anchor, t, a, ratios


def scaled_rows(
    base: lfl.Rate,
    anchors: Sequence[lfl.Rate],
    published: Sequence[lfl.Rate],
    devices: Collection[str],
    kin: Sequence[lfl.Rate] = (),
) -> list[lfl.Rate]:
    """A scaled row for each device in `devices` that one source published beside a measured anchor.

    anchors: measured one-device rates of this workload (your store's, the pack's, the run itself on a GPU),
    at most one per device; published: every published rate of this workload (the sources of the ratios); kin:
    published rates of the model's family (workload.FAMILIES), whose same-source ratio stands where the model has
    none — a family transfer, named and ranged by FAMILY_MARGIN.
    """
    # a pipeline-bound source's ratio measures its input pipeline, not the devices (flagged by the evidence stage)
    published = [r for r in published if "saturated" not in r.settings]
    out = []
    for key in devices:
        for pool, family in ((published, False), (kin, True)):
            options = [
                o for a in anchors
                if a.hardware_key != key and (o := _option(base, a, key, pool, family)) is not None
            ]  # fmt: skip
            if options:
                _, anchor, t, a, ratios = min(options, key=lambda o: o[0])
                row = _scaled(anchor, key, t, a, ratios)
                out.append(_family(row, t) if family else row)
                break
    return out


def _family(row: lfl.Rate, t: lfl.Rate) -> lfl.Rate:
    """A scaled row whose ratio was measured on a family member: said so, its range widened by FAMILY_MARGIN."""
    lo, hi = row.low or row.value, row.high or row.value
    words = f"family transfer from {t.workload} (its ratio, ± {FAMILY_MARGIN:.0%} for the member)"
    settings = {**row.settings, "family_from": t.workload,
                "ratio_source": f"{row.settings.get('ratio_source')}; {words}"}  # fmt: skip
    return replace(
        row, how=f"{row.how.replace(' ratio:', f' ratio on {t.workload}:', 1)}; {words}", settings=settings,
        low=lo / (1 + FAMILY_MARGIN), high=hi * (1 + FAMILY_MARGIN),
    )  # fmt: skip


def _n(v: float) -> str:
    return f"{v:,.0f}" if v >= 100 else f"{v:,.3g}"


def _scaled(anchor: lfl.Rate, key: str, t: lfl.Rate, a: lfl.Rate, ratios: list[float]) -> lfl.Rate:
    one = anchor.one or anchor
    ratio = t.value / a.value
    who, fw, dev = publisher(t), t.stack, HARDWARE.get(key)
    name, anchor_name = short_name(key), short_name(anchor.hardware_key)
    words = f"measured on {anchor_name} × {who}'s {name}/{anchor_name} ratio"
    count = _config(t)[1]
    each = f"{count:g} devices each, ÷ {count:g}" if count != 1 else "one device each"
    anchor_how = one.how.split(":")[0] if ":" in one.how else "measured"
    how = (
        f"{words}: {_n(one.value)} {anchor.unit} ({anchor_how}; {anchor.stack or 'framework not stated'}, "
        f"{anchor.precision_words}) × {_n(t.value)} / {_n(a.value)} = {ratio:.3g}× ({who}, "
        f"{fw or 'stack not stated'}, {t.precision_words}, {each}; both from one source and one "
        f"stack, so the stack cancels)"
    )
    if shapes := t.settings.get("rescaled_from"):  # the source's two figures, each at its shape (evidence.reshape)
        how += f"; the source's figures were at {shapes}, each rescaled to the run's shape by the model's traced cost"
    unit = "chip" if dev is not None and dev.device_type == "tpu" else "gpu"
    settings = {
        **{k: v for k, v in anchor.settings.items() if k not in ("per_device_of", "scale_role", "scale_note")},
        "hardware_key": key, "hardware": name, "device_type": dev.device_type if dev else "gpu",
        "hardware_count": 1, "count_unit": device_unit(key), "source_kind": BASIS, "scaled_words": words,
        "anchor_id": anchor.id, "anchor_key": anchor.hardware_key, "ratio_ids": (t.id, a.id),
        "ratio_source": f"{who}, {fw or 'stack not stated'} ({t.precision_words})",
    }  # fmt: skip
    lo, hi = min(ratios), max(ratios)
    spread = hi / lo > 1.005
    return lfl.Rate(
        id=f"scaled:{key}:{anchor.id}", label=f"{name} (scaled from {anchor_name}, {anchor.stack or 'measured'}, "
        f"{anchor.precision_words})", origin=BASIS, task=anchor.task, workload=anchor.workload,
        value=one.value * ratio, unit=anchor.unit,
        devices=units_between(key, unit, "core" if unit == "chip" else "die"), derivation=BASIS, how=how,
        bound="about", hardware_key=key, device_type=settings["device_type"], source_id=t.source_id,
        settings=settings, basis=BASIS, low=one.value * lo if spread else None,
        high=one.value * hi if spread else None,
    )  # fmt: skip
