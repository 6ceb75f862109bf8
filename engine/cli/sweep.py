"""`sweep`: a matrix of runs on this machine or a Ray cluster, the largest batch that fits, a sweep's
rows, and cancelling a sweep (engine.sweep does the work; this module is flags and printing)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from typing import Any

from engine.cli.common import EXIT_FAILED, EXIT_OK, fail, output_may_be_gone, prog, row_line
from engine.results.schema import ResultRow
from engine.results.status import RunStatus
from engine.runs import endings, jobs
from engine.runs.processes import stop_name, stop_reason, stops_as_ctrl_c
from engine.runs.store import Store
from engine.runs.transfer import label_problem
from engine.sweep import status
from engine.sweep.dispatch import Dispatcher, PlannedCell
from engine.sweep.matrix import AXES, SHARED_SETTINGS, SweepError, matrix_from_values, read_matrix_file
from engine.sweep.maxbatch import MAX_BATCH_LIMIT, MaxBatch, max_batch
from engine.sweep.plan import new_sweep_id
from engine.sweep.sweep_run import SweepCancelled, SweepOutcome, run_sweep


def _whole(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0, got {text!r}")
    return int(text)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None


def add_parser(sub: Any) -> None:
    s = sub.add_parser("sweep", help="a matrix of runs (models × datasets × batch sizes × …) locally or on Ray")
    for axis in AXES:
        s.add_argument(f"--{axis.replace('_', '-')}", dest=axis, help=f"comma-separated {axis.replace('_', ' ')}")
    s.add_argument("--file", help="a TOML or YAML file with the axes (and a [settings] table)")
    s.add_argument("--epochs", type=_whole)
    s.add_argument("--steps-per-epoch", type=_whole)
    s.add_argument("--validation-steps", type=int)
    s.add_argument("--strategy")
    s.add_argument("--xla", action="store_true", default=None)
    s.add_argument("--price-per-hour", dest="price_per_hour_usd", type=_number)
    s.add_argument("--timeout-s", type=_number)
    s.add_argument("--host-memory-limit-mb", type=_whole, help="cap each worker's address space (RLIMIT_AS)")
    s.add_argument("--data-dir", help="flowers: the folder of TFRecords or class folders of JPEGs every cell reads")
    s.add_argument("--prefetch", help="file pipeline: batches prepared ahead, N or auto (default: AUTOTUNE)")
    s.add_argument(
        "--cache", action=argparse.BooleanOptionalAction, default=None, help="file pipeline: keep decoded images"
    )
    s.add_argument("--skip-invalid", action="store_true", help="run the cells that can run; list the others with why")
    s.add_argument(
        "--on", default="local", help="local (default), ray (RAY_ADDRESS or a local head) or ray://HOST:PORT"
    )
    s.add_argument(
        "--cpus-per-cell",
        type=_number,
        help="--on ray: CPUs each CPU cell asks for (default: all of the smallest node's, so no cell shares its cores)",
    )
    s.add_argument(
        "--nodes",
        type=_whole,
        default=1,
        help="--on ray: spread each multi-process cell over M nodes (N ÷ M processes on each; torch or jax)",
    )
    s.add_argument("--max-batch", action="store_true", help="search the largest batch that fits per cell group")
    s.add_argument(
        "--start-batch", type=_whole, help="--max-batch: first size tried (default: smallest --batch-sizes, else 16)"
    )
    s.add_argument("--batch-limit", type=_whole, default=MAX_BATCH_LIMIT, help="--max-batch: never try above this")
    s.add_argument(
        "--resolution", type=_whole, default=1, help="--max-batch: stop bisecting when ok and failed are this close"
    )
    s.add_argument("--label")
    s.add_argument("--sweep-id", help=argparse.SUPPRESS)  # the Run page names the sweep it starts
    s.add_argument("--show", metavar="SWEEP_ID", help="print a sweep's cells")
    s.add_argument("--cancel", metavar="SWEEP_ID", help="cancel every cell of a sweep still queued or running")
    s.add_argument("--json", action="store_true", help="print the outcome as one JSON object on the last line")


def make_dispatcher(on: str, cpus_per_cell: float | None, nodes: int = 1) -> Dispatcher:
    if nodes > 1 and not on.startswith("ray"):
        raise SweepError(f"--nodes {nodes}: cells across hosts run on a Ray cluster; add --on ray://HOST:PORT")
    if on == "local":
        from engine.sweep.local import LocalDispatcher

        return LocalDispatcher()
    if on == "ray" or on.startswith("ray://"):
        from engine.sweep.ray_dispatch import RayDispatcher, address_problem

        if problem := address_problem(on):  # at once: Ray Client would wait 30 s for a head that is not named
            raise SweepError(problem)
        return RayDispatcher(None if on == "ray" else on, cpus_per_cell, nodes)
    raise SweepError(f"--on: must be local, ray or ray://HOST:PORT; got {on!r}")


def cmd_sweep(args: argparse.Namespace) -> int:
    """A sweep's flags to its outcome; Ctrl-C, SIGTERM and SIGHUP all cancel what is under way and the waiting
    cells (every cell final, the exit 1); a SIGKILLed sweep's waiting cells are ended by the next look
    (engine.runs.endings.end_unstarted)."""
    if args.show or args.cancel:
        return _show_or_cancel(args)
    with stops_as_ctrl_c():
        return _sweep(args)


def _sweep(args: argparse.Namespace) -> int:
    if args.label is not None and (problem := label_problem(args.label)):
        fail(f"--label {problem}")
    if args.sweep_id is not None and not re.fullmatch(r"sweep-[0-9A-Za-z-]{1,60}", args.sweep_id):
        fail(f"--sweep-id: must look like sweep-20261125-040000-abcdef; got {args.sweep_id!r}")
    values = read_matrix_file(args.file) if args.file else {}
    for key in (*AXES, *SHARED_SETTINGS):
        if getattr(args, key, None) is not None:
            values[key] = getattr(args, key)
    try:
        cells = matrix_from_values(values).cells()
        dispatcher = make_dispatcher(args.on, args.cpus_per_cell, args.nodes)
        store = Store()
        if args.max_batch:
            return _max_batch(args, cells, dispatcher, store)
        outcome = run_sweep(
            cells,
            dispatcher,
            store,
            sweep_id=args.sweep_id,
            skip_invalid=args.skip_invalid,
            label=args.label,
            on_done=_said_done,
            on_planned=_said_planned,
        )
    except SweepError as exc:
        fail(str(exc))
    except SweepCancelled as exc:  # Ctrl-C before the cells were handed over (connecting, checking, storing)
        with output_may_be_gone():
            print(f"accelbench: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt as exc:  # Ctrl-C before the sweep began (importing Ray): nothing was stored
        with output_may_be_gone():
            print(
                f"accelbench: sweep cancelled ({stop_name(exc)}) before it started; nothing was stored", file=sys.stderr
            )
        return EXIT_FAILED
    with output_may_be_gone():  # after SIGHUP the terminal is gone; every cell is final in the store regardless
        _say_outcome(outcome, args.json)
    return EXIT_OK if all(r.get("status") == RunStatus.OK for r in outcome.rows) else EXIT_FAILED


def _say_outcome(outcome: SweepOutcome, as_json: bool) -> None:
    if outcome.stopped_by:
        print(
            f"accelbench: {outcome.stopped_by}: sweep {outcome.sweep_id} cancelled — the running cell stopped, "
            "the waiting ones marked cancelled",
            file=sys.stderr,
        )
    for cell, reason in outcome.skipped:
        print(f"skipped cell {cell.index} ({cell.label}): {reason}", file=sys.stderr)
    if as_json:
        skipped = [{"cell": c.label, "reason": r} for c, r in outcome.skipped]
        print(json.dumps({"sweep_id": outcome.sweep_id, "runs": list(outcome.rows), "skipped": skipped}))
    else:
        for row in outcome.rows:
            print(row_line(row))


def _said_planned(sweep_id: str, planned: list[PlannedCell]) -> None:
    with output_may_be_gone():  # a terminal closed mid-sweep: its SIGHUP (on its way) cancels, not an EIO
        print(f"sweep {sweep_id}: {len(planned)} cells (cancel: {prog()} sweep --cancel {sweep_id})", file=sys.stderr)


def _said_done(p: PlannedCell, row: ResultRow) -> None:
    eps = row.get("examples_per_sec")
    rate = f"{eps:,.1f} ex/s" if isinstance(eps, (int, float)) else (row.get("error") or "")
    with output_may_be_gone():
        print(f"  cell {p.cell.index} {p.cell.label}: {row.get('status')} {rate}", file=sys.stderr)


def _max_batch(args: argparse.Namespace, cells: list, dispatcher: Dispatcher, store: Store) -> int:
    groups = {c.label.replace(f" b{c.request['batch_size']} ", " "): c for c in cells}  # one search per group
    start = args.start_batch or (min(int(b) for b in str(args.batch_sizes).split(",")) if args.batch_sizes else 16)
    dispatcher.open(store)
    sweep_id = args.sweep_id or new_sweep_id()
    endings.record_sweep_owner(store, sweep_id)  # each attempt waits `queued` a moment: a SIGKILL must not keep it
    print(f"sweep {sweep_id}: largest batch for {len(groups)} cell group(s)", file=sys.stderr)
    answers: list[MaxBatch] = []
    try:
        for cell in groups.values():
            cell = replace(cell, request={**cell.request, "batch_size": start})
            answers.append(
                max_batch(cell, dispatcher, store, sweep_id, start, args.batch_limit, args.resolution, args.label)
            )
    except KeyboardInterrupt as exc:  # the attempt under way was cancelled by its runner; no further attempts
        status.cancel_sweep(store, sweep_id, stop_reason(exc, "the sweep"))
        with output_may_be_gone():
            print(f"sweep {sweep_id}: cancelled ({stop_name(exc)})", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps({"sweep_id": sweep_id, "max_batch": [_answer_dict(a) for a in answers]}))
    else:
        for a in answers:
            print(f"{a.group}: largest batch that ran {a.largest_ok}, first that did not {a.first_failed}")
            if a.failure:
                print(f"  {a.failure}")
            for t in a.attempts:
                rate = f"{t.examples_per_sec:,.1f} ex/s" if t.examples_per_sec else t.error[:120]
                print(f"  batch {t.batch_size:>7}: {t.status:<8} {rate}")
    return EXIT_OK if all(a.largest_ok is not None for a in answers) else EXIT_FAILED


def _answer_dict(a: MaxBatch) -> dict[str, Any]:
    return {
        "group": a.group,
        "largest_ok": a.largest_ok,
        "first_failed": a.first_failed,
        "failure": a.failure,
        "attempts": [t.__dict__ for t in a.attempts],
    }


def _show_or_cancel(args: argparse.Namespace) -> int:
    store = Store()
    sweep_id = args.cancel or args.show
    jobs.refresh(store)  # cells whose worker or sweep died are marked before anything is shown
    rows = status.sweep_rows(store, sweep_id)
    if not rows:
        fail(f"no sweep {sweep_id!r} in {store.target.display} (see: {prog()} results list)")
    if args.cancel:
        changed = status.cancel_sweep(store, sweep_id)
        print(f"sweep {sweep_id}: cancelled {len(changed)} of {len(rows)} cells")
        return EXIT_OK
    if args.json:
        print(json.dumps({"sweep_id": sweep_id, "runs": rows}))
    else:
        for row in rows:
            print(row_line(row))
    return EXIT_OK
