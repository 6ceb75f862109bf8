"""How good an estimate is, checked two ways on the real figures (bench/bench_estimates.py prints the tables;
CHECK keeps their summaries for the screen, read by check_note):

- leave one out: every (model, device, precision class) figure estimated from all the others;
- leave the device out: every figure of one device removed at once, and each estimated from the rest — the
  situation of a device nobody here has. The step model is refitted without that device (its fit sees only
  the points it is given), so no figure of the held-out device informs its efficiencies.

Each gives the median absolute error, how often the stated range held the true value, and the ranges' width."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.compare.estimate.estimate import Estimate, Point, estimate, group_points, usable_device
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
        e = estimate(m, d, c, points, (flops or {}).get(m), batch=group.middle.batch) if usable_device(d) else None
        if e is not None:
            out.append((group.middle, e))
    return out


def leave_device_out(
    points: Sequence[Point], flops: dict[str, float] | None = None
) -> dict[str, list[tuple[Point, Estimate]]]:
    """Per device with figures for two or more models: each of its figures estimated from the OTHER devices'
    points only (device → [(true figure, estimate)])."""
    return leave_out(points, flops, lambda held, other: other == held)


def leave_out(
    points: Sequence[Point], flops: dict[str, float] | None, removes: Callable[[str, str], bool]
) -> dict[str, list[tuple[Point, Estimate]]]:
    """Per device with figures for two or more models: each of its figures estimated with every point whose
    device `removes(held-out device, its device)` left out (the device alone; or its whole silicon)."""
    out: dict[str, list[tuple[Point, Estimate]]] = {}
    groups = group_points(points)
    devices = sorted({d for _, d, _ in groups if usable_device(d)})
    for device in devices:
        own = {k: g for k, g in groups.items() if k[1] == device}
        if len({m for m, _, _ in own}) < 2:
            continue
        rest = [p for p in points if not removes(device, p.hardware_key)]
        pairs = []
        for (m, d, c), group in sorted(own.items()):
            e = estimate(m, d, c, rest, (flops or {}).get(m), batch=group.middle.batch)
            if e is not None:
                pairs.append((group.middle, e))
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

SIBLING = "sibling measured"  # CHECK's key: the device left out, a device of its silicon kept (an H200 for an H100)
NEW_SILICON = "new silicon"  # CHECK's key: every device of the silicon left out, ranges widened out of sample
# CHECK's key: new silicon beyond every device with a figure (extrapolation.beyond), the case of a chip just launched —
# checked on the launches (launch_check: each device from what was published before its first figure, anchored on
# the user's run of the model on an older chip), the figures whose chip lay beyond the evidence then
LAUNCH = "launch"

# `python bench/bench_estimates.py --json`, 2026-11-29, on the reference table with Google's per-chip TPU rows
# (data/reference/tpu_refs.py), the H100/H200 pack of 2026-11-25, the cross-vendor MLPerf rows and MosaicML's MPT-7B
# rows on MI250 and A100 (data/reference/mosaic_refs.py; BENCHMARKS.md has the tables), with the step fit's size
# trend (slopes ≤ 0) and its residuals scaled for their degrees of freedom (step_fit._dof_scale), a pipeline-bound
# source's figures kept out of the evidence, and a model with no figure modelled at the run's batch (its per-step
# overhead) and refused where it is a stand-in, and a device's figure its run alone, each source counted once
# (points._group). "all" is leave-one-out (the device's own figures of other
# models kept); LEFT_OUT every device left out in turn; SIBLING those of them whose silicon kept another device's
# figures (`leave_device_out.sibling_measured`); NEW_SILICON `leave_silicon_out`, its coverage and width at the
# nested widening (engine.compare.estimate.silicon_check); LAUNCH `chronological_with_own_run.beyond_the_span`.
# tests/compare/test_estimate_leave_one_out.py::test_the_bench_runs holds these equal to what the bench prints.
CHECK: dict[str, Checked] = {
    "ratio": Checked("ratio", 41, 5.8, 100.0, 1.69, "published"),
    "memory-aware": Checked("memory-aware", 78, 10.8, 80.8, 2.21, "measured and published"),
    "all": Checked("all", 119, 8.0, 87.4, 2.17, "measured and published"),
    LEFT_OUT: Checked(LEFT_OUT, 117, 9.9, 86.3, 2.27, "measured and published"),
    SIBLING: Checked(SIBLING, 75, 9.3, 89.3, 2.27, "measured and published"),
    NEW_SILICON: Checked(NEW_SILICON, 118, 15.6, 84.7, 2.03, "measured and published"),
    LAUNCH: Checked(LAUNCH, 58, 29.9, 81.0, 4.96, "measured and published"),
}
# the six devices the leave-device-out check misses most (`leave_device_out.by_device`), median error in %
DEVICE_MISSES: dict[str, float] = {
    "tpu_v2_8": 114.5, "k80": 75.7, "tpu_v3": 31.7, "l40s": 20.0, "tpu_v4": 18.5, "a100": 17.8,
}  # fmt: skip


# issue 36's targets for an estimate of new silicon (every device of its silicon left out)
NEW_SILICON_TARGETS = (18.0, 80.0, 2.5)


def _misses(c: Checked, targets: tuple[float, float, float] = (TARGET_ERROR_PCT, TARGET_COVERAGE_PCT, TARGET_WIDTH),
            worst_devices: bool = True) -> str:  # fmt: skip
    """Where a check misses its targets (error ≤, held ≥, width ≤), and by how much."""
    error, held, width = targets
    out = []
    if c.median_error_pct > error:
        out.append(f"median error {c.median_error_pct:.0f} % against ≤ {error:.0f} %")
    if c.coverage_pct < held:
        out.append(f"range held {c.coverage_pct:.0f} % against ≥ {held:.0f} %")
    if c.median_width > width:
        out.append(f"ranges {c.median_width:.2f}× wide against ≤ {width:g}×")
    verdict = (
        "misses its targets: " + ", ".join(out)
        if out
        else f"meets its targets (≤ {error:.0f} %, ≥ {held:.0f} %, ≤ {width:g}×)"
    )
    worst = sorted(DEVICE_MISSES.items(), key=lambda kv: -kv[1]) if worst_devices else []
    where = ", ".join(f"{HARDWARE[d].short if d in HARDWARE else d} ({e:.0f} %)" for d, e in worst)
    return verdict + (f"; it misses most on {where}" if where else "")


def check_note(method: str) -> str:
    """What the screen says beside an estimate: how well its method did checked leave-one-out and, for the
    memory-aware model (what answers for a device with no figures at all), by case — a sibling of the chip
    measured, or new silicon (engine.compare.estimate.error_case) — never one figure for all. `check_note(LEFT_OUT)`: the
    device-left-out sentence alone."""
    left, sib, new, launch = CHECK[LEFT_OUT], CHECK[SIBLING], CHECK[NEW_SILICON], CHECK[LAUNCH]
    if method == LEFT_OUT:
        return (
            f"Checked with the whole device left out ({left.n_points} figures): median error "
            f"{left.median_error_pct:.0f} %, range held the true value {left.coverage_pct:.0f} % of the time, ranges "
            f"{left.median_width:.1f}× wide — {_misses(left)}."
        )
    c = CHECK.get(method)
    if c is None:
        return "Not yet checked against held-out figures."
    one = (
        f"Checked leave-one-out on {c.n_points} {c.basis} figures: median error {c.median_error_pct:.0f} %, range "
        f"held the true value {c.coverage_pct:.0f} % of the time"
    )
    cases = (
        f"; with the device left out but a sibling of its chip measured ({sib.n_points} figures): "
        f"{sib.median_error_pct:.0f} %, range held {sib.coverage_pct:.0f} %; new silicon, every device of it left out "
        f"({new.n_points}): {new.median_error_pct:.0f} %, range held {new.coverage_pct:.0f} % (range chosen out of "
        f"sample), {new.median_width:.2f}× wide — {_misses(new, NEW_SILICON_TARGETS, worst_devices=False)}; new "
        f"silicon beyond every chip with a figure, as each chip was at its launch ({launch.n_points}): "
        f"{launch.median_error_pct:.0f} %, range held {launch.coverage_pct:.0f} %, {launch.median_width:.1f}× wide"
    )
    return one + (cases if method == "memory-aware" else "") + "."
