"""One scale for one answer (issue 36): every device row of "Which device?" is an anchor × a ratio, where the
anchor is a row measured on one stack at the run's precision class (the user's store first, then AccelBench's
pack) and the ratio comes from ONE source that measured both devices on one stack and precision, or from the
step model. A published figure of another stack never stands in the ranking as it is: it is listed beside.
The saturation rule (engine.compare.evidence.saturation) keeps a pipeline-bound source's ratios out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.compare.facts import likeforlike as lfl
from engine.reference.units import HARDWARE

TPU_FLOAT32 = "float32 on a TPU runs its matmuls as bf16 passes (XLA's default precision)"


@dataclass(frozen=True)
class Scale:
    """The measured rows one answer is expressed on.

    Attributes:
      anchors: one-device rows measured at the run's precision class on one stack (one per device).
      stack: that stack's name ('PyTorch'); own_stack: whether it is the run's own.
      precision_class: the run's ("float32" or "mixed"); keys: the anchors' devices; note: the line saying so.
    """

    anchors: tuple[lfl.Rate, ...]
    stack: str
    own_stack: bool
    precision_class: str
    keys: frozenset[str] = frozenset()  # the anchors' hardware keys
    note: str = ""  # the one line at the top of the table saying which scale every row is on


def _note(anchors: Sequence[lfl.Rate], stack_name: str, own_stack: bool) -> str:
    """The one line at the top of the table saying which scale every row is on."""
    if not anchors:
        return (
            "No device was measured for this model at this precision: each estimate is on the scale of the "
            "figure it starts from."
        )
    names = ", ".join(HARDWARE[a.hardware_key].short if a.hardware_key in HARDWARE else a.label for a in anchors)
    where = "your run's stack" if own_stack else "the nearest measured stack: yours has no measured row"
    shape = next((a.settings["rescaled_words"] for a in anchors if a.settings.get("rescaled_words")), "")
    at = f"; measured at another input shape, {shape}" if shape else ""  # evidence.reshape: said where it starts
    return (
        f"One scale: every row is a row measured on {names} ({stack_name or 'stack not stated'}, {where}{at}) × a "
        f"ratio that one source measured on one stack, or the step model's."
    )


def _converted_note(anchors: Sequence[lfl.Rate]) -> str:
    names = ", ".join(HARDWARE[a.hardware_key].short if a.hardware_key in HARDWARE else a.label for a in anchors)
    a = anchors[0]
    return (
        f"One scale: nobody measured {a.workload} on a GPU or TPU, so every row hangs from "
        f"{a.settings.get('anchor_model')} measured on {names} ({a.stack or 'stack not stated'}), converted to "
        f"{a.workload} by their traced costs (an estimate, with its range), × a ratio that one source measured on one "
        f"stack, or the step model's."
    )


def scale_of(base: lfl.Rate, measured: Sequence[lfl.Rate], converted: Sequence[lfl.Rate] = ()) -> Scale:
    """The anchors: the measured one-device rows at the run's precision class, on the run's own stack where any
    is, else on the stack with the most such rows (the fastest first between equals). Where the run's model has no
    measured row at all, `converted`: a sibling model's measured rows converted by traced cost
    (engine.compare.scale.converted), said so in the note."""
    pc = base.precision_class
    ones = [o for r in measured if r.basis == "measured" and (o := r.one) is not None]
    ones = [o for o in ones if o.precision_class == pc]
    mine = base.stack
    stacks: dict[str, list[lfl.Rate]] = {}
    for o in ones:
        stacks.setdefault(o.stack, []).append(o)
    if not stacks and converted:
        stack = converted[0].stack
        keys = frozenset(a.hardware_key for a in converted)
        return Scale(tuple(converted), stack, stack == mine, pc, keys, _converted_note(converted))
    if not stacks:
        return Scale((), mine, True, pc, frozenset(), _note((), mine, True))
    chosen = mine if mine in stacks else max(stacks, key=lambda s: (len(stacks[s]), max(o.value for o in stacks[s])))
    best: dict[str, lfl.Rate] = {}
    for o in stacks[chosen]:
        if o.hardware_key not in best or o.value > best[o.hardware_key].value:
            best[o.hardware_key] = o
    anchors = tuple(best.values())
    keys = frozenset(a.hardware_key for a in anchors)
    return Scale(anchors, chosen, chosen == mine, pc, keys, _note(anchors, chosen, chosen == mine))
