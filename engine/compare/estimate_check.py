"""How good an estimate is: every known figure estimated leave-one-out from the others, the median error and
how often the stated range held the true value (bench/bench_estimates.py prints the table; CHECK keeps its
summary for the screen, read by check_note)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from engine.compare.estimate import Estimate, Point, estimate, group_points, middle, usable_device


@dataclass(frozen=True)
class Checked:
    """A leave-one-out check of one method ("ratio", "roofline" or "all").

    Attributes:
      method: which estimates; n_points: held-out figures estimated; basis: what they were ("published").
      median_error_pct: median |estimate − true| ÷ true, in %; coverage_pct: how often the range held the true value.
      median_width: the median range's high ÷ low (how wide the ranges that did so were).
    """

    method: str
    n_points: int
    median_error_pct: float
    coverage_pct: float
    median_width: float
    basis: str


def leave_one_out(points: Sequence[Point], flops: dict[str, float] | None = None) -> list[tuple[Point, Estimate]]:
    """Every (model, device, precision class) figure estimated from all the others: (true figure, estimate)."""
    out = []
    for (m, d, c), group in sorted(group_points(points).items()):
        e = estimate(m, d, c, points, (flops or {}).get(m)) if usable_device(d) else None
        if e is not None:
            out.append((middle(group), e))
    return out


def summarise(pairs: Sequence[tuple[Point, Estimate]], method: str = "all") -> Checked | None:
    """Median absolute error and range coverage of leave-one-out pairs (one method, or "all")."""
    got = [(p, e) for p, e in pairs if method in ("all", e.method)]
    if not got:
        return None
    errors = [abs(e.examples_per_sec - p.examples_per_sec) / p.examples_per_sec * 100 for p, e in got]
    held = sum(e.low <= p.examples_per_sec <= e.high for p, e in got)
    width = statistics.median(e.high / e.low for _, e in got)
    basis = " and ".join(sorted({p.basis for p, _ in got}))
    return Checked(method, len(got), statistics.median(errors), 100 * held / len(got), width, basis)


# `python bench/bench_estimates.py`: the reference table with its H100 pack rows and the published BERT/GPT-2 rows
# (data/reference/transformer_refs.py; before them: ratio 4 / 11.9 % / 100 %, roofline 16 / 60.3 % / 68.8 %).
CHECK: dict[str, Checked] = {
    "ratio": Checked("ratio", 24, 8.4, 100.0, 1.71, "published"),
    "roofline": Checked("roofline", 17, 57.1, 70.6, 9.26, "measured and published"),
    "all": Checked("all", 41, 12.1, 87.8, 1.78, "measured and published"),
}


def check_note(method: str) -> str:
    """One sentence for the screen: how well this method did when checked leave-one-out."""
    c = CHECK.get(method)
    return (
        f"Checked leave-one-out on {c.n_points} {c.basis} figures: median error {c.median_error_pct:.0f} %, range "
        f"held the true value {c.coverage_pct:.0f} % of the time"
    ) if c else "Not yet checked against held-out figures."  # fmt: skip
