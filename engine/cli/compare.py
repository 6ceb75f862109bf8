"""`python -m engine compare --run RUN_ID [--reference auto|ID ...] [--json]`: a run against published
numbers as rates of work — the same table and sentence as the Run and Compare pages
(engine.compare.answer). Exit 2 with one line for an unknown run or reference id."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from engine.cli.compare_table import print_answer, print_which
from engine.cli.table import FORMATS, output_format

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
    c.add_argument(
        "--device",
        metavar="KEY",
        help="answer for one device (e.g. h100, a100, t4, tpu_v5e): measured, published or estimated, saying which; "
        "'all': every GPU and TPU in one table, fastest first",
    )
    c.add_argument(
        "--price",
        action="append",
        default=[],
        metavar="KEY=USD",
        help="your price per hour for one device of KEY (repeatable, e.g. --price h100=2.49 --price t4=0.35); "
        "it overrides the price table's",
    )
    c.add_argument(
        "--price-usd-h",
        type=float,
        metavar="USD",
        help="your price per hour for one --device (default: the price table's, named in the answer)",
    )
    c.add_argument(
        "--json",
        action="store_true",
        help="one JSON object: speedup, range, basis (measured: your store's runs or AccelBench's pack | scaled: a "
        "measured device × one source's same-stack ratio | published | estimate | peak), evidence (where the "
        "figure came from), usd_per_million_examples, rows",
    )
    c.add_argument("--format", dest="output", choices=FORMATS, default=None,
                   help="table (default: fits 100 columns), json (the same as --json) or csv")  # fmt: skip
    c.add_argument("--verbose", "-v", action="store_true", help="under each row: how it was measured, what differs")


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


def cmd_compare(args: argparse.Namespace) -> int:
    from engine.compare.answer import answer_for_run, to_json
    from engine.compare.evidence.rates import runs_of
    from engine.reference.data import load_reference
    from engine.runs.store import Store

    store = Store()
    run = _run(store, args.run)
    if run.get("status") != "ok":
        _die(f"run: {run['run_id']} did not finish ok ({run.get('status')}); nothing was measured to compare")
    if (args.device or "").strip().lower() == "all":  # "which device?" (engine.compare.which)
        return _which(args, run)
    device = _device(args.device)
    if args.price_usd_h is not None and (not device or not args.price_usd_h > 0):
        _die("--price-usd-h: give a positive price together with --device KEY (the device it is the price of)")
    prices = {device: args.price_usd_h} if device and args.price_usd_h else None
    prices = (prices or {}) | _prices(args.price) or None
    try:
        answer = answer_for_run(
            run, load_reference(), args.reference, prices=prices, device=device, store_runs=runs_of(store)
        )  # your store's runs on other devices are the first evidence for them
    except KeyError as exc:
        _die(f"reference: {exc.args[0]}")
    if answer is None:
        _die(f"run: {run['run_id']} has no measured rate (examples/s or GFLOP/s) to compare")
    if output_format(args) == "json":
        print(json.dumps(to_json(answer) | {"run_id": run["run_id"], "device": device}, indent=2, default=str))
        return EXIT_OK
    print_answer(answer, output_format(args), args.verbose)
    if output_format(args) == "csv":
        return EXIT_OK
    print()
    nothing = f"No measured, published or estimated figure for {device} on this workload." if device else ""
    print(answer.headline or nothing or "No published figure of this model or operation to compare with.")
    return EXIT_OK


def _device(key: str | None) -> str | None:
    from engine.catalog import hardware_table

    if key is None:
        return None
    low = key.strip().lower()
    found = low if low in hardware_table.BY_KEY else hardware_table.key_for_name(low)
    if found is None or hardware_table.BY_KEY[found].device_type == "cpu":
        known = ", ".join(d.key for d in hardware_table.DEVICES if d.device_type != "cpu" and d.peak_tflops)
        _die(f"device: unknown device {key!r}; one of: {known}")
    return found


def _prices(pairs: list[str]) -> dict[str, float]:
    """`--price KEY=USD ...` as {hardware_key: USD per hour}; a bad pair or device exits 2 with one line."""
    out = {}
    for pair in pairs or []:
        key, sep, usd = pair.partition("=")
        try:
            value = float(usd)
        except ValueError:
            value = -1.0
        if not sep or not value > 0:
            _die(f"--price: {pair!r} is not KEY=USD with a positive price (e.g. h100=2.49)")
        out[_device(key) or key] = value
    return out


def _which(args: argparse.Namespace, run: dict[str, Any]) -> int:
    """`--device all`: every GPU and TPU for the run's workload, fastest first (engine.compare.which)."""
    from engine.compare.which import to_json, which_device
    from engine.reference.data import load_reference

    if args.price_usd_h is not None:
        _die("--price-usd-h: with --device all, give each device's price as --price KEY=USD (e.g. --price h100=2.49)")
    if args.reference != ["auto"]:
        _die("--reference: --device all lists every device for the run's own workload; leave --reference out")
    from engine.compare.evidence.rates import runs_of
    from engine.runs.store import Store

    store_runs = runs_of(Store())  # your store's runs: the first evidence for a device
    table = which_device(run, load_reference(), prices=_prices(args.price), store_runs=store_runs)
    if table is None:
        _die(f"run: {run['run_id']} is not a training run; --device all compares examples/s of training workloads")
    if output_format(args) == "json":
        print(json.dumps(to_json(table), indent=2, default=str))
        return EXIT_OK
    print_which(table, output_format(args), args.verbose)
    if output_format(args) == "csv":
        return EXIT_OK
    if caps := [r.input_cap.short_text() for r in table.rows if r.input_cap is not None]:
        from engine.compare.words.input_cap import ESTIMATE_WORDS, LIFTS

        print(f"\nOn each offer's host, this run's input pipeline ({ESTIMATE_WORDS}):")
        print("\n".join(f"  {line}" for line in caps))
        print(f"What would lift a cap: {', '.join(LIFTS)}.")
    return EXIT_OK
