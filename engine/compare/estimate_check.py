"""How good an estimate is, checked two ways on the real figures (bench/bench_estimates.py prints the tables;
CHECK keeps their summaries for the screen, read by check_note):

- leave one out: every (model, device, precision class) figure estimated from all the others;
- leave the device out: every figure of one device removed at once, and each estimated from the rest — the
  situation of a device nobody here has. The step model is refitted without that device (its fit sees only
  the points it is given), so no figure of the held-out device informs its efficiencies.

Each gives the median absolute error, how often the stated range held the true value, and the ranges' width."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from engine.compare.estimate import Estimate, Point, estimate, group_points, middle, usable_device
from engine.reference.units import HARDWARE


@dataclass(frozen=True)
class Checked:
    """A check of one method ("ratio", "memory-aware", "all"; LEFT_OUT: every figure with its device left out).

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


def leave_device_out(
    points: Sequence[Point], flops: dict[str, float] | None = None
) -> dict[str, list[tuple[Point, Estimate]]]:
    """Per device with figures for two or more models: each of its figures estimated from the OTHER devices'
    points only (device → [(true figure, estimate)])."""
    out: dict[str, list[tuple[Point, Estimate]]] = {}
    groups = group_points(points)
    devices = sorted({d for _, d, _ in groups if usable_device(d)})
    for device in devices:
        own = {k: g for k, g in groups.items() if k[1] == device}
        if len({m for m, _, _ in own}) < 2:
            continue
        rest = [p for p in points if p.hardware_key != device]
        pairs = []
        for (m, d, c), group in sorted(own.items()):
            e = estimate(m, d, c, rest, (flops or {}).get(m))
            if e is not None:
                pairs.append((middle(group), e))
        out[device] = pairs
    return out


def summary_json(pairs: Sequence[tuple[Point, Estimate]]) -> dict[str, float | int]:
    """A summary as the bench's JSON prints it."""
    c = summarise(pairs)
    if c is None:
        return {"points": 0}
    return {"points": c.n_points, "median_abs_error_pct": round(c.median_error_pct, 1),
            "coverage_pct": round(c.coverage_pct, 1), "median_width": round(c.median_width, 2)}  # fmt: skip


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


# issue 29's targets for an estimate of a device nobody here measured (leave the device out)
TARGET_ERROR_PCT, TARGET_COVERAGE_PCT, TARGET_WIDTH = 15.0, 80.0, 2.0
LEFT_OUT = "device left out"  # CHECK's key of the leave-device-out summary (every method together)

# `python bench/bench_estimates.py --json`, 2026-11-25, on the reference table with the Lambda v2 rows and the
# H100/H200 pack of 2026-11-25 (113 points; BENCHMARKS.md has the tables). Before the memory-aware step model (a
# FLOP/s roofline band): leave one out, roofline 17 points 57 % / 71 % / 9.3× wide; with the device left out,
# 27 points 49 % / 70 % / 9.3×.
CHECK: dict[str, Checked] = {
    "ratio": Checked("ratio", 54, 5.0, 94.4, 1.7, "published"),
    "memory-aware": Checked("memory-aware", 59, 15.4, 79.7, 1.9, "measured and published"),
    "all": Checked("all", 113, 9.5, 86.7, 1.88, "measured and published"),
    LEFT_OUT: Checked(LEFT_OUT, 113, 14.0, 80.5, 1.98, "measured and published"),
}
# the devices whose own figures, left out, were missed by more than TARGET_ERROR_PCT (median, in %): where it misses
DEVICE_MISSES: dict[str, float] = {"tpu_v2_8": 90.8, "k80": 65.5, "l40s": 26.5, "b200": 24.7, "v100": 23.5}


def _misses(c: Checked) -> str:
    """Where a leave-device-out check misses issue 29's targets, and by how much ("" where it meets them)."""
    out = []
    if c.median_error_pct > TARGET_ERROR_PCT:
        out.append(f"median error {c.median_error_pct:.0f} % against ≤ {TARGET_ERROR_PCT:.0f} %")
    if c.coverage_pct < TARGET_COVERAGE_PCT:
        out.append(f"range held {c.coverage_pct:.0f} % against ≥ {TARGET_COVERAGE_PCT:.0f} %")
    if c.median_width > TARGET_WIDTH:
        out.append(f"ranges {c.median_width:.1f}× wide against ≤ {TARGET_WIDTH:.0f}×")
    verdict = "misses its targets: " + ", ".join(out) if out else "meets its targets (≤ 15 %, ≥ 80 %, ≤ 2×)"
    worst = sorted(DEVICE_MISSES.items(), key=lambda kv: -kv[1])
    where = ", ".join(f"{HARDWARE[d].short if d in HARDWARE else d} ({e:.0f} %)" for d, e in worst)
    return verdict + (f"; it misses most on {where}" if where else "")


def check_note(method: str) -> str:
    """What the screen says beside an estimate: how well its method did checked leave-one-out and, for the
    memory-aware model (what answers for a device with no figures at all), with the whole device left out and
    whether that meets its targets. `check_note(LEFT_OUT)`: the device-left-out sentence alone."""
    left = CHECK[LEFT_OUT]
    device = (
        f"with the whole device left out ({left.n_points} figures): median error {left.median_error_pct:.0f} %, "
        f"range held the true value {left.coverage_pct:.0f} % of the time, ranges {left.median_width:.1f}× wide — "
        f"{_misses(left)}"
    )
    if method == LEFT_OUT:
        return "Checked " + device + "."
    c = CHECK.get(method)
    if c is None:
        return "Not yet checked against held-out figures."
    one = (
        f"Checked leave-one-out on {c.n_points} {c.basis} figures: median error {c.median_error_pct:.0f} %, range "
        f"held the true value {c.coverage_pct:.0f} % of the time"
    )
    return one + ("; " + device if method == "memory-aware" else "") + "."
