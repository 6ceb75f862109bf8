"""Which error an estimate row really has (issue 36 item 6): the case it is in, with that case's checked figures.

An estimate of a chip whose silicon sibling was measured (an H200 answered beside a measured H100: one GH100 die)
misses by about a tenth; one of silicon nobody measured (a TPU v6e beside GPUs only) by about a fifth, with a
range widened out of sample; one whose own figures of other workloads are in the table (a B200 with Lambda's
figures beside the ranking) by its leave-one-out error. One figure for every row would overstate the first and
understate the second. The figures are estimate_check.CHECK's (bench/bench_estimates.py --json): read from that one place, never restated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.compare.estimate.estimate_check import CHECK, LAUNCH, NEW_SILICON, SIBLING
from engine.compare.estimate.points import points_from_reference
from engine.compare.estimate.stack_factor import STACK_CHECK
from engine.compare.estimate.tpu_family import LAW_SOURCE, TPU_LAW
from engine.compare.facts.silicon import DEVICES, NONE, STACKS
from engine.compare.facts.which_rows import DeviceRow
from engine.compare.scale.converted import CLASS_WORDS, CONVERSION_ERROR_PCT
from engine.reference.units import HARDWARE

OWN = "memory-aware"  # CHECK's key of the case "this chip's own other figures are in": memory-aware, leave one out


@dataclass(frozen=True)
class ErrorCase:
    """The case of one estimate row.

    Attributes:
      case: OWN ("memory-aware": the chip's own other figures are in), SIBLING ("sibling measured"), NEW_SILICON
        ("new silicon") or LAUNCH (new silicon beyond every chip with a figure); the CHECK entry its figures are from.
      sibling: the hardware key of the measured sibling ("" for new silicon).
      median_error_pct, coverage_pct: that case's median absolute error and how often its range held the truth.
      text: the words a row carries ("a sibling of this chip (H100) was measured: ~10 %, range held 89 %").
    """

    case: str
    sibling: str
    median_error_pct: float
    coverage_pct: float
    text: str


def error_case(hardware_key: str, measured_keys: Iterable[str], beyond: float = 0.0) -> ErrorCase:
    """The case of an estimate for `hardware_key` in an answer whose rows measured, published (or anchor on)
    `measured_keys`: a device of the same silicon among them → "a sibling of this chip was measured"; else the
    device itself (a figure of another workload, stack or precision, which the step model's fit sees) → its
    leave-one-out error; else "new silicon" — checked on the launches (launch_check) where its peak or bandwidth lies
    beyond every chip the fit saw (`beyond`: the estimate's own, extrapolation.beyond), as a chip just launched does."""
    chip, keys = (DEVICES.get(hardware_key, NONE).silicon or hardware_key), set(measured_keys)
    siblings = sorted(k for k in keys if k != hardware_key and (DEVICES.get(k, NONE).silicon or k) == chip)
    if siblings:  # checked with the chip's own figures all out: it only gets better with them in
        name = HARDWARE[siblings[0]].short if siblings[0] in HARDWARE else siblings[0]
        case, sibling, lead = SIBLING, siblings[0], f"a sibling of this chip ({name}) was measured"
    elif hardware_key in keys:  # its own figures of other workloads are in: the leave-one-out case
        case, sibling, lead = OWN, "", "this chip's own figures (other workloads, stacks or precisions) are in the fit"
    elif beyond > 0:  # its peak or bandwidth past every chip the fit saw: the range was stretched for it
        case, sibling, lead = LAUNCH, "", "new silicon beyond every chip with a figure here (as at a chip's launch)"
    else:
        case, sibling, lead = NEW_SILICON, "", "new silicon"
    c = CHECK[case]
    text = f"{lead}: ~{c.median_error_pct:.0f} % median error, range held {c.coverage_pct:.0f} %"
    return ErrorCase(case, sibling, c.median_error_pct, c.coverage_pct, text)


def fitted_devices(ref: Any) -> set[str]:
    """The devices with a usable training figure in the reference table (a DataFrame; None: none): what the step
    model's fit sees, so what leave-one-out, device-left-out and silicon-left-out were checked against."""
    return {p.hardware_key for p in points_from_reference(ref)} if ref is not None and not ref.empty else set()


def with_error_cases(
    rows: Sequence[DeviceRow], beside: Sequence[DeviceRow] = (), fitted: Iterable[str] = (), ref: Any = None
) -> list[DeviceRow]:
    """Each estimate row of a Which-device table with its case (error_case) and the case's words after its how;
    the devices with a figure in the table (measured, published or scaled rows, ranked or beside) and those the
    fit saw (`fitted`, and fitted_devices of `ref`, the reference table) are the evidence."""
    figured = {r.hardware_key for r in [*rows, *beside] if not r.is_estimate} | set(fitted) | fitted_devices(ref)
    roots = {r.hardware_key: r for r in rows if r.anchor_model}  # converted anchors (engine.compare.scale.converted)
    out = []
    for r in rows:
        if r.is_estimate:
            case = error_case(r.hardware_key, figured | ({r.anchor} if r.anchor else set()), r.beyond)
            text = case.text
            if (root := _root_of(r, rows, roots)) is not None:
                text = _converted_text(root, None if r is root else case)
            elif r.ratio_source.startswith(LAW_SOURCE):  # a TPU placed by the model's TPU law: that path's check
                text = _law_text(r.law_beyond)
            elif "stack factor" in r.ratio_source:  # another vendor's stack (estimate.stack_factor): that path's check
                text = _stack_text(r)
            r = replace(r, error_case=text, how=f"{r.how.rstrip('.')}. How far off it may be: {text}")
        out.append(r)
    return out


def _stack_text(r: DeviceRow) -> str:
    v = DEVICES.get(r.hardware_key, NONE).vendor
    err, held, n = STACK_CHECK.get(v, max(STACK_CHECK.values()))
    return (
        f"another vendor's stack ({STACKS.get(v, v)}), its silicon held out of the fit and the factor: ~{err:.0f} % "
        f"median error, range held {held:.0f} % ({n} same-round figures)"
    )


def _root_of(r: DeviceRow, rows: Sequence[DeviceRow], roots: dict[str, DeviceRow]) -> DeviceRow | None:
    """The converted anchor `r` hangs from, through other rows (a TPU from the root TPU from a GPU), or None."""
    by_key, seen = {x.hardware_key: x for x in rows}, set()
    while r.anchor and r.anchor not in seen:
        if r.anchor in roots:
            return roots[r.anchor]
        seen.add(r.anchor)
        nxt = by_key.get(r.anchor)
        if nxt is None or nxt is r:
            return None
        r = nxt
    return None


def _converted_text(root: DeviceRow, then: ErrorCase | None) -> str:
    """The case of a row that is, or hangs from, a model converted from another by traced cost: the conversion's
    checked error (engine.compare.scale.conversion_check), and the step model's case after it where it hangs."""
    err = CONVERSION_ERROR_PCT.get(root.conversion, max(CONVERSION_ERROR_PCT.values()))
    lead = f"{root.anchor_model} converted by traced cost ({CLASS_WORDS.get(root.conversion, 'another model')}): ~{err:.0f} % median error"
    return lead if then is None else f"{lead}, then {then.text}"


def _law_text(beyond: float) -> str:
    err, held, n, *_ = TPU_LAW
    text = f"TPU law from other TPU pairs: ~{err:.0f} % median error, range held {held:.0f} % ({n} TPU pairs)"
    if beyond > 0:  # the check's pairs lie 1.3–2.2× apart: further than that is not what it measured
        text += "; further from its root than any pair checked: its range stretched (its how says how far)"
    return text
