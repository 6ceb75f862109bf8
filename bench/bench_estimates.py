"""How good is an estimate where nothing was measured? Checked on every real figure (issue 19 item 5, issue 29 item 6).

Leave one out: every (model, device, precision class) that has a measured or published training figure is held
out and estimated from all the others (engine.compare.estimate.estimate_check.leave_one_out). Leave the device out
(`--leave-device-out`): every figure of one device is removed at once and each is estimated from the other
devices' figures, the step model refitted without it (estimate_check.leave_device_out) — a device nobody here
has. The tables compare each estimate and its range with the held-out figure; the summaries give the median
absolute error, how often the range held the true value and the median range width — overall, by method, by
kind of model and (leave-device-out) by device.

Figures: the curated reference table — published figures and AccelBench's own reference pack (its
`accelbench` rows, from data/reference/measured/); `--published-only` leaves the pack out.

Leave the silicon out (`--leave-silicon-out`, and `leave_silicon_out` in `--json`): every device of the held-out
device's silicon removed at once (engine.compare.estimate.silicon_check), its ranges widened by the factor chosen on the
OTHER silicons (nested), so the coverage printed is out of sample.

The estimator itself keeps the figures engine.compare.evidence.saturation flags (they time a source's input pipeline,
not the chip) out of its evidence, the rule applied to the figures it is given (so never to a held-out device's);
they are still scored as truth. `--without-pipeline-bound` leaves them out as truth too.

The error each row really has (issue 42 item 5, `--json` only; engine.compare.estimate.path_check): `by_path` — each
path an estimate takes, held out fully nested (the step model and the ratio: leave the silicon out; the stack factor:
each cross-vendor pair's chip with its silicon out of the fit and of its vendor's factor; the TPU law: α from the other
pairs; traced cost: each conversion class, leave one pair out); `by_vendor` (leave the silicon out per vendor);
`chronological` (each device estimated from the figures published strictly before its first).

    python bench/bench_estimates.py [--markdown] [--published-only] [--leave-device-out] [--leave-silicon-out]
        [--without-pipeline-bound] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.compare.estimate import estimate as est  # noqa: E402
from engine.compare.estimate import estimate_check as chk  # noqa: E402
from engine.compare.estimate import launch_check as lc  # noqa: E402
from engine.compare.estimate import path_check as pc  # noqa: E402
from engine.compare.estimate import silicon_check as sc  # noqa: E402
from engine.compare.estimate.extrapolation import EXTRAPOLATION_C  # noqa: E402
from engine.compare.estimate.step_fit import NEW_SILICON_WIDENING  # noqa: E402
from engine.compare.evidence.saturation import saturated  # noqa: E402
from engine.compare.facts import likeforlike as lfl  # noqa: E402
from engine.compare.facts.workload import model_kind  # noqa: E402
from engine.compare.scale.conversion_check import check_conversions  # noqa: E402
from engine.reference.data import load_reference  # noqa: E402
from engine.reference.units import HARDWARE  # noqa: E402


def reference(published_only: bool = False) -> Any:
    ref = load_reference()
    return ref[ref["source_kind"] != "accelbench"] if published_only else ref


def all_points(published_only: bool = False, without_pipeline_bound: bool = False) -> list[est.Point]:
    ref = reference(published_only)
    points = est.points_from_reference(ref)
    if not without_pipeline_bound:
        return points
    flagged = pipeline_bound(ref)
    return [p for p in points if _key(p) not in flagged]


def _key(p: est.Point) -> tuple[str, str, str, str]:
    return (p.model, p.hardware_key, p.precision_class, p.source_id)


def pipeline_bound(ref: Any) -> set[tuple[str, str, str, str]]:
    """The points whose figure the saturation rule flags (engine.compare.evidence.saturation: a source's plateau across
    devices 1.5× apart in compute and bandwidth measured its pipeline, not the chip)."""
    rates = [r for r in (lfl.rate_of_reference(x) for x in ref[ref["task"] == "training"].to_dict("records")) if r]
    why = saturated(rates)
    return {_key(p) for r in rates if r.id in why for p in [est.point_of_rate(r)] if p is not None}


def _n(v: float) -> str:
    return f"{v:,.0f}" if v >= 100 else f"{v:,.3g}"


def table_rows(pairs: Sequence[tuple[est.Point, est.Estimate]]) -> list[list[str]]:
    rows = []
    for p, e in pairs:
        err = (e.examples_per_sec - p.examples_per_sec) / p.examples_per_sec * 100
        dev = HARDWARE[p.hardware_key].short if p.hardware_key in HARDWARE else p.hardware_key
        method = f"{e.method}{' (rough)' if e.rough and e.method == 'ratio' else ''}"
        if e.method == "ratio" and e.anchor:
            via = f"{e.anchor.hardware_key} × {'/'.join(e.ratio_models)}"
        else:
            via = f"{e.anchor.hardware_key} × step-time ratio" if e.anchor else "FLOPs, bytes × fitted efficiencies"
        rows.append([
            p.model, dev, p.precision_class, f"{_n(p.examples_per_sec)} ({p.basis})", _n(e.examples_per_sec),
            f"{_n(e.low)}–{_n(e.high)}", f"{err:+.0f}", "yes" if e.low <= p.examples_per_sec <= e.high else "**no**",
            method, via,
        ])  # fmt: skip
    return rows


HEAD = ["model", "device", "precision", "true ex/s (basis)", "estimate", "range", "error %", "covered", "method", "from"]  # fmt: skip


def _groups(pairs: Sequence[tuple[est.Point, est.Estimate]]) -> list[tuple[str, list]]:
    methods = sorted({e.method for _, e in pairs})
    anchored = [("memory-aware, own figure elsewhere", [x for x in pairs if x[1].method == "memory-aware" and x[1].anchor]),
                ("memory-aware, no figure of the model", [x for x in pairs if x[1].method == "memory-aware" and not x[1].anchor])]  # fmt: skip
    groups = [("all", list(pairs)), *((m, [x for x in pairs if x[1].method == m]) for m in methods), *anchored]
    groups += [(f"kind: {k}", [x for x in pairs if model_kind(x[0].model) == k]) for k in ("conv", "transformer", "recurrent")]  # fmt: skip
    return groups


def summary_rows(pairs: Sequence[tuple[est.Point, est.Estimate]], by_device: bool = False) -> list[list[str]]:
    rows = []
    groups = _groups(pairs)
    if by_device:
        devices = sorted({p.hardware_key for p, _ in pairs})
        groups += [(f"device: {HARDWARE[d].short if d in HARDWARE else d}", [x for x in pairs if x[0].hardware_key == d]) for d in devices]  # fmt: skip
    for name, got in groups:
        c = chk.summarise(got)
        if c is not None:
            rows.append(
                [name, str(c.n_points), f"{c.median_error_pct:.0f}", f"{c.coverage_pct:.0f}", f"{c.median_width:.1f}×"]
            )
    return rows


def markdown(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def plain(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]
    return "\n".join("  ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=True)) for r in [head, *rows])


def silicon_json(lso: dict[str, list], launch: lc.Launches) -> dict:
    """Leave the silicon out: the figures at the nested widening and stretch (what the published coverage and width
    count), per device, and the band's choice (silicon_check.nested_band; the stretch chosen on the launches)."""
    nested = sc.nested_band(lso, launch.own_run, launch.firsts)
    stated = [x for pairs in lso.values() for x in pairs]
    entry: dict = chk.summary_json(nested.pairs)
    entry["median_width"] = round(sc.median_width(nested.pairs), 2)
    entry["by_device"] = {  # at the nested widening too
        d: chk.summary_json([x for x in nested.pairs if x[0].hardware_key == d]) for d, pairs in lso.items() if pairs
    }
    every = sc.chosen_widening(sc.raw(stated))
    entry["band"] = {
        "widening_by_held_out_silicon": nested.widening_by_silicon,
        "widening_on_every_silicon": every,
        "widening_in_use": NEW_SILICON_WIDENING,
        "stretch_by_held_out_silicon": nested.stretch_by_silicon,
        # chosen where a chip lies beyond the evidence: every launch (chronological, with the user's own run)
        "stretch_on_every_launch": sc.stretch_before(launch.own_run, launch.firsts, 10_000, NEW_SILICON_WIDENING),
        "stretch_in_use": EXTRAPOLATION_C,
        "before_widening": chk.summary_json(sc.raw(stated)),
    }
    return entry


def as_json(
    loo: Sequence,
    ldo: dict[str, list],
    lso: dict[str, list] | None = None,
    with_sibling: set[str] | None = None,
    launch: lc.Launches | None = None,
) -> dict:
    """The checks' summaries as one object (`--json`)."""
    flat = [x for pairs in ldo.values() for x in pairs]
    out = {}
    if lso is not None and launch is not None:
        out["leave_silicon_out"] = silicon_json(lso, launch)
    for name, pairs in (("leave_device_out", flat), ("leave_one_out", loo)):
        entry: dict = chk.summary_json(pairs)
        entry["by_method"] = {n: chk.summary_json(g) for n, g in _groups(pairs)[1:] if g and not n.startswith("kind")}
        entry["by_kind"] = {n[6:]: chk.summary_json(g) for n, g in _groups(pairs) if g and n.startswith("kind")}
        out[name] = entry
    out["leave_device_out"]["by_device"] = {d: chk.summary_json(pairs) for d, pairs in ldo.items() if pairs}
    # the case "a sibling of this chip was measured": held-out devices whose silicon kept another device's figures
    sibling = {d: pairs for d, pairs in ldo.items() if d in (with_sibling or set())}
    out["leave_device_out"]["sibling_measured"] = chk.summary_json([x for v in sibling.values() for x in v]) | {
        "devices": sorted(sibling)
    }
    return out


def path_json(
    rates: Sequence, points: Sequence[est.Point], lso: dict[str, list], loo: Sequence, launch: lc.Launches
) -> dict:
    """The error each row really has (issue 42 item 5; engine.compare.estimate.path_check): `by_path` — the step model
    and the ratio (leave the silicon out, nested widening), the stack factor (its chip's silicon out of the fit and of
    the factor), the TPU law (α from the other pairs), the traced-cost conversion (leave one pair out); `by_vendor`
    (leave the silicon out); `chronological` (each device from what was published before its first figure);
    `chronological_with_own_run` (the same, anchored on the model's own figure on a device out before it)."""
    band = sc.nested_band(lso, launch.own_run, launch.firsts)
    nested = band.pairs
    by_path: dict[str, Any] = pc.by_method(nested)
    # the ratio needs the target's figures of other models: with its silicon out it never answers; leave one out is
    # its held-out check (no parameter of it is fitted on the held-out figure)
    by_path["ratio"] |= {"leave_one_out": pc.summary([x for x in loo if x[1].method == "ratio"])}
    by_path["stack factor"] = pc.stack_factor_check(rates, points)
    by_path["TPU law"] = pc.tpu_law_check(rates)
    by_path["traced cost"] = pc.traced_cost_check(rates) | {
        "in_sample": {
            n: {"points": c.n, "median_abs_error_pct": round(c.median_error_pct, 1)}
            for n, c in check_conversions(rates).items()
        }  # fmt: skip
    }
    # each device at the stretch chosen on the launches before it (its own figures and later ones never choose it)
    chrono, own_run = (lc.launch_stretched(k, launch.own_run, launch.firsts) for k in (launch.strict, launch.own_run))
    return {
        "by_path": by_path,
        "by_vendor": pc.by_vendor(nested),
        "chronological": lc.chronological_json(chrono, launch.firsts),
        # the product's situation: the same model's figure on a device out before the target is the user's own run
        "chronological_with_own_run": lc.chronological_json(own_run, launch.firsts),
    }


SUMMARY_HEAD = ["held out", "points", "median abs. error %", "range held true %", "median range width (high ÷ low)"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables (for BENCHMARKS.md)")
    parser.add_argument("--published-only", action="store_true", help="leave out AccelBench's own pack rows")
    parser.add_argument("--leave-device-out", action="store_true", help="also hold out every figure of one device")
    parser.add_argument("--leave-silicon-out", action="store_true", help="also hold out every device of a silicon")
    parser.add_argument("--json", action="store_true", help="print the checks' summaries as one JSON object")
    parser.add_argument("--without-pipeline-bound", action="store_true",
                        help="leave out the figures the saturation rule flags (engine.compare.evidence.saturation)")  # fmt: skip
    args = parser.parse_args(argv)
    points = all_points(args.published_only, args.without_pipeline_bound)
    pairs = chk.leave_one_out(points)
    if args.json:
        lso, siblings = sc.leave_silicon_out(points), sc.with_sibling(points)
        rates = pc.training_rates(reference(args.published_only))
        launch = lc.launches(rates, points)
        out = as_json(pairs, chk.leave_device_out(points), lso, siblings, launch)
        out |= path_json(rates, points, lso, pairs, launch)
        print(json.dumps(out, indent=1))
        return 0
    groups = {(p.model, p.hardware_key, p.precision_class) for p in points}
    show = markdown if args.markdown else plain
    if args.leave_device_out:
        ldo = chk.leave_device_out(points)
        flat = [x for got in ldo.values() for x in got]
        print(f"Leave the device out, {date.today().isoformat()}: {len(ldo)} devices with figures for two or more "
              f"models; {len(flat)} figures estimated from the other devices' figures.\n")  # fmt: skip
        print(show(SUMMARY_HEAD, summary_rows(flat, by_device=True)))
        print()
        print(show(HEAD, table_rows(flat)))
        print()
    if args.leave_silicon_out:
        lso = sc.leave_silicon_out(points)
        launch = lc.launches(pc.training_rates(reference(args.published_only)), points)
        nested = sc.nested_band(lso, launch.own_run, launch.firsts)
        print(f"Leave the silicon out, {date.today().isoformat()}: every device of the held-out device's silicon "
              f"removed; ranges at the widening chosen on the other silicons (nested).\n")  # fmt: skip
        print(show(SUMMARY_HEAD, summary_rows(nested.pairs)))
        print()
    print(f"Leave-one-out, {date.today().isoformat()}: {len(points)} figures in {len(groups)} (model, device, "
          f"precision class) points; {len(pairs)} could be estimated from the others.\n")  # fmt: skip
    print(show(SUMMARY_HEAD, summary_rows(pairs)))
    print()
    print(show(HEAD, table_rows(pairs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
