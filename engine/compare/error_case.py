"""Which error an estimate row really has (issue 36 item 6): the case it is in, with that case's checked figures.

An estimate of a chip whose silicon sibling was measured (an H200 answered beside a measured H100: one GH100 die)
misses by about a tenth; one of silicon nobody measured (a TPU v6e beside GPUs only) by about a fifth, with a
range widened out of sample. One figure for every row would overstate the first and understate the second. The
figures are estimate_check.CHECK's (bench/bench_estimates.py --json): read from that one place, never restated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.compare.estimate_check import CHECK, NEW_SILICON, SIBLING
from engine.compare.step_model import silicon
from engine.compare.which_rows import DeviceRow
from engine.reference.units import HARDWARE


@dataclass(frozen=True)
class ErrorCase:
    """The case of one estimate row.

    Attributes:
      case: SIBLING ("sibling measured") or NEW_SILICON ("new silicon"); the CHECK entry its figures are from.
      sibling: the hardware key of the measured sibling ("" for new silicon).
      median_error_pct, coverage_pct: that case's median absolute error and how often its range held the truth.
      text: the words a row carries ("a sibling of this chip (H100) was measured: ~10 %, range held 89 %").
    """

    case: str
    sibling: str
    median_error_pct: float
    coverage_pct: float
    text: str


def error_case(hardware_key: str, measured_keys: Iterable[str]) -> ErrorCase:
    """The case of an estimate for `hardware_key` in an answer whose rows measured (or anchor on) `measured_keys`:
    a device of the same silicon among them → "a sibling of this chip was measured"; else "new silicon"."""
    chip = silicon(hardware_key)
    siblings = sorted(k for k in set(measured_keys) if k != hardware_key and silicon(k) == chip)
    if siblings:
        c = CHECK[SIBLING]
        name = HARDWARE[siblings[0]].short if siblings[0] in HARDWARE else siblings[0]
        lead = f"a sibling of this chip ({name}) was measured"
        return ErrorCase(SIBLING, siblings[0], c.median_error_pct, c.coverage_pct, _text(lead, c.median_error_pct,
                         c.coverage_pct))  # fmt: skip
    c = CHECK[NEW_SILICON]
    return ErrorCase(NEW_SILICON, "", c.median_error_pct, c.coverage_pct,
                     _text("new silicon", c.median_error_pct, c.coverage_pct))  # fmt: skip


def _text(lead: str, error_pct: float, held_pct: float) -> str:
    return f"{lead}: ~{error_pct:.0f} % median error, range held {held_pct:.0f} %"


def with_error_cases(rows: Sequence[DeviceRow], beside: Sequence[DeviceRow] = ()) -> list[DeviceRow]:
    """Each estimate row of a Which-device table with its case (error_case) and the case's words after its how;
    the devices with a figure in the table (measured, published or scaled rows, ranked or beside) are the
    evidence a sibling is looked for in."""
    figured = {r.hardware_key for r in [*rows, *beside] if not r.is_estimate}
    out = []
    for r in rows:
        if r.is_estimate:
            case = error_case(r.hardware_key, figured | ({r.anchor} if r.anchor else set()))
            r = replace(r, error_case=case.text, how=f"{r.how.rstrip('.')}. How far off it may be: {case.text}")
        out.append(r)
    return out
