"""`python -m engine compare --run RUN_ID [--reference auto|ID ...] [--json]`: a run against published
numbers as rates of work — the same table and sentence as the Run and Compare pages
(engine.compare.answer). Exit 2 with one line for an unknown run or reference id."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

EXIT_OK, EXIT_INVALID = 0, 2


def add_parser(sub: Any) -> None:
    c = sub.add_parser("compare", help="how many times faster published hardware is than a run, like for like")
    c.add_argument("--run", required=True, metavar="RUN_ID", help="a finished run (a unique prefix is enough)")
    c.add_argument(
        "--reference",
        nargs="+",
        default=["auto"],
        metavar="ID",
        help="'auto' (every reference of the same model or operation), reference ids, or peak:<hardware_key>",
    )
    c.add_argument("--json", action="store_true", help="one JSON object: rows, rates, derivation, grade, headline")


def _die(message: str) -> NoReturn:
    print(f"accelbench: error: {message}", file=sys.stderr)
    sys.exit(EXIT_INVALID)


def _run(store: Any, run_id: str) -> dict[str, Any]:
    row = store.get_run(run_id)
    if row:
        return row
    matches = store.find_run_ids(run_id)
    if len(matches) != 1:
        _die(f"run: no run {run_id!r}" if not matches else f"run: {run_id!r} matches {len(matches)} runs")
    return store.get_run(matches[0])


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.3g}"


def print_table(answer: Any) -> None:
    from engine.compare.answer import times

    print(f"{'row':<40} {'rate':>12} {'unit':<10} {'per device':>11} {'× faster':>9}  grade      how / differences")
    for c in answer.rows:
        r, g = c.rate, c.grade
        bound = {"at most": "≤", "at least": "≥", "about": "≈"}.get(r.bound, "")
        print(
            f"{r.label[:40]:<40} {bound + _fmt(r.value):>12} {r.unit:<10} {_fmt(r.per_device):>11} "
            f"{times(c.speedup):>9}  {(g.grade if g else 'baseline'):<10} {r.how}"
        )
        if g and g.top:
            print(f"{'':>87}differs: {', '.join(g.top)}")
    for line in answer.left_out:
        print(f"left out ({line})")


def cmd_compare(args: argparse.Namespace) -> int:
    from engine.compare.answer import answer_for_run, to_json
    from engine.reference.data import load_reference
    from engine.runs.store import Store

    run = _run(Store(), args.run)
    if run.get("status") != "ok":
        _die(f"run: {run['run_id']} did not finish ok ({run.get('status')}); nothing was measured to compare")
    try:
        answer = answer_for_run(run, load_reference(), args.reference)
    except KeyError as exc:
        _die(f"reference: {exc.args[0]}")
    if answer is None:
        _die(f"run: {run['run_id']} has no measured rate (examples/s or GFLOP/s) to compare")
    if args.json:
        print(json.dumps(to_json(answer) | {"run_id": run["run_id"]}, indent=2, default=str))
        return EXIT_OK
    print_table(answer)
    print()
    print(answer.headline or "No published figure of this model or operation to compare with.")
    return EXIT_OK
