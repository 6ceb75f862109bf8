"""How good is an estimate where nothing was measured? Leave-one-out on every real figure (issue 19, item 5).

Every (model, device, precision class) that has a measured or published training figure is held out and
estimated from all the others (engine.compare.estimate_check.leave_one_out); the table compares the estimate and its
range with the held-out figure, and the summary gives the median absolute error and how often the range held
the true value — overall, by method (ratio, roofline) and by kind of model.

Figures: the curated reference table — published figures and AccelBench's own reference pack (its
`accelbench` rows, from data/reference/measured/); `--published-only` leaves the pack out.

    python bench/bench_estimates.py [--markdown] [--published-only]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.compare import estimate as est
from engine.compare import estimate_check as chk  # noqa: E402
from engine.compare.workload import model_kind  # noqa: E402
from engine.reference.data import load_reference  # noqa: E402
from engine.reference.units import HARDWARE  # noqa: E402


def all_points(published_only: bool = False) -> list[est.Point]:
    ref = load_reference()
    if published_only:
        ref = ref[ref["source_kind"] != "accelbench"]
    return est.points_from_reference(ref)


def _n(v: float) -> str:
    return f"{v:,.0f}" if v >= 100 else f"{v:,.3g}"


def table_rows(pairs: Sequence[tuple[est.Point, est.Estimate]]) -> list[list[str]]:
    rows = []
    for p, e in pairs:
        err = (e.examples_per_sec - p.examples_per_sec) / p.examples_per_sec * 100
        dev = HARDWARE[p.hardware_key].short if p.hardware_key in HARDWARE else p.hardware_key
        method = f"{e.method}{' (rough)' if e.rough and e.method == 'ratio' else ''}"
        via = f"{e.anchor.hardware_key} × {'/'.join(e.ratio_models)}" if e.anchor else "FLOPs × peak × MFU"
        rows.append([
            p.model, dev, p.precision_class, f"{_n(p.examples_per_sec)} ({p.basis})", _n(e.examples_per_sec),
            f"{_n(e.low)}–{_n(e.high)}", f"{err:+.0f}", "yes" if e.low <= p.examples_per_sec <= e.high else "**no**",
            method, via,
        ])  # fmt: skip
    return rows


HEAD = ["model", "device", "precision", "true ex/s (basis)", "estimate", "range", "error %", "covered", "method", "from"]  # fmt: skip


def summary_rows(pairs: Sequence[tuple[est.Point, est.Estimate]]) -> list[list[str]]:
    rows = []
    groups = [("all", pairs), *((m, [x for x in pairs if x[1].method == m]) for m in ("ratio", "roofline"))]
    groups += [(f"kind: {k}", [x for x in pairs if model_kind(x[0].model) == k]) for k in ("conv", "transformer", "recurrent")]  # fmt: skip
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables (for BENCHMARKS.md)")
    parser.add_argument("--published-only", action="store_true", help="leave out AccelBench's own pack rows")
    args = parser.parse_args(argv)
    points = all_points(args.published_only)
    pairs = chk.leave_one_out(points)
    groups = {(p.model, p.hardware_key, p.precision_class) for p in points}
    show = markdown if args.markdown else plain
    print(f"Leave-one-out, {date.today().isoformat()}: {len(points)} figures in {len(groups)} (model, device, "
          f"precision class) points; {len(pairs)} could be estimated from the others.\n")  # fmt: skip
    print(
        show(
            ["held out", "points", "median abs. error %", "range held true %", "median range width (high ÷ low)"],
            summary_rows(pairs),
        )
    )
    print()
    print(show(HEAD, table_rows(pairs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
