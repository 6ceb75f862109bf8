"""The CLI: `python -m engine devices|models|run|results|cancel|compare` (design §2).

Exit codes: 0 the run finished ok; 1 it started and failed (the failure is stored); 2 invalid
input — nothing started, nothing stored, one line on stderr naming the field.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from engine import cli_compare
from engine.results.csvio import CsvError
from engine.runs import hardware
from engine.spec.specs import BENCHES, DEVICES, DTYPES, PRECISIONS, STRATEGIES, SpecError

EXIT_OK, EXIT_FAILED, EXIT_INVALID = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage dump
        _die(f"{message} (see: python -m engine {self.prog.split()[-1]} --help)")


def _die(message: str, code: int = EXIT_INVALID) -> NoReturn:
    print(f"accelbench: error: {message}", file=sys.stderr)
    sys.exit(code)


def _positive_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine", description="AccelBench: honest deep-learning benchmarks on CPU, GPU and TPU.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    d = sub.add_parser("devices", help="what this machine has (CPU peak, GPUs, TPU)")
    d.add_argument("--probe", action="store_true", help="also ask TensorFlow which devices it sees (slower)")
    d.add_argument("--json", action="store_true")

    m = sub.add_parser("models", help="models with their parameter counts for a dataset's input shape")
    m.add_argument("--dataset", default=None)
    m.add_argument("--json", action="store_true")

    r = sub.add_parser("run", help="run a microbenchmark (--bench) or a training benchmark (--model)")
    r.add_argument("--bench", choices=BENCHES)
    for name in ("m", "n", "k", "height", "width", "channels", "filters", "kernel-size", "repeats", "warmup"):
        r.add_argument(f"--{name}", type=_positive_int)
    r.add_argument("--dtype", choices=DTYPES)
    r.add_argument("--model")
    r.add_argument("--dataset")
    r.add_argument("--data-dir")
    r.add_argument("--batch-size", type=_positive_int)
    r.add_argument("--epochs", type=_positive_int)
    r.add_argument("--steps-per-epoch", type=_positive_int)
    r.add_argument("--validation-steps", type=_positive_int)
    r.add_argument("--device", choices=DEVICES)
    r.add_argument("--strategy", choices=STRATEGIES)
    r.add_argument("--logical-devices", type=_positive_int)
    r.add_argument("--precision", choices=PRECISIONS)
    r.add_argument("--xla", action="store_true", default=None)
    r.add_argument("--memory-growth", action="store_true", default=None)
    r.add_argument("--memory-limit-mb", type=_positive_int)
    r.add_argument("--visible-devices")
    r.add_argument("--tpu")
    r.add_argument("--price-per-hour", dest="price_per_hour_usd", type=_number)
    r.add_argument("--timeout-s", type=_number)
    r.add_argument("--detach", action="store_true", help="start in the background and print the run_id")
    r.add_argument("--json", action="store_true", help="print the result row as one JSON object on the last line")

    res = sub.add_parser("results", help="list, show, export or import stored results")
    rsub = res.add_subparsers(dest="action", required=True, parser_class=_Parser)
    rl = rsub.add_parser("list")
    rl.add_argument("--json", action="store_true")
    rl.add_argument("--limit", type=_positive_int, default=50)
    rs = rsub.add_parser("show")
    rs.add_argument("run_id")
    rs.add_argument("--json", action="store_true")
    re_ = rsub.add_parser("export")
    re_.add_argument("--format", choices=("csv", "json"), default="csv")
    re_.add_argument("--out")
    ri = rsub.add_parser("import")
    ri.add_argument("file")

    c = sub.add_parser("cancel", help="cancel a queued or running run")
    c.add_argument("run_id")
    cli_compare.add_parser(sub)
    return p


_NOT_SPEC = {"command", "json", "detach"}


def _spec_request(args: argparse.Namespace) -> dict[str, Any]:
    raw = {k: v for k, v in vars(args).items() if k not in _NOT_SPEC and v is not None}
    if args.model and args.bench:
        _die("--bench and --model: give one (a microbenchmark or a training run), not both")
    if not args.model and not args.bench:
        _die("run needs --bench matmul|conv2d or --model NAME (see: python -m engine models)")
    if args.model:
        micro_only = sorted(
            set(raw)
            & {"m", "n", "k", "height", "width", "channels", "filters", "kernel_size", "repeats", "warmup", "dtype"}
        )
        if micro_only:
            _die(
                f"--{micro_only[0].replace('_', '-')}: is a microbenchmark setting; training runs use --model/--dataset/--batch-size …"
            )
        raw["kind"] = "train"
    else:
        train_only = sorted(
            set(raw)
            & {
                "dataset",
                "data_dir",
                "epochs",
                "steps_per_epoch",
                "validation_steps",
                "strategy",
                "logical_devices",
                "precision",
                "memory_growth",
                "memory_limit_mb",
                "visible_devices",
                "tpu",
            }
        )
        if train_only:
            _die(
                f"--{train_only[0].replace('_', '-')}: is a training setting; microbenchmarks use --dtype/--repeats and their shape flags"
            )
        raw["kind"] = raw["bench"]
    return raw


def _row_line(row: dict[str, Any]) -> str:
    def f(v: Any, fmt: str) -> str:
        return format(v, fmt) if isinstance(v, (int, float)) else "-"

    what = row.get("model") or row.get("kind")
    return (
        f"{row['run_id']}  {row['status']:<11} {row['kind']:<6} {what:<16} {row.get('device') or '-':<4} "
        f"median {f(row.get('step_time_ms_median'), '.2f')} ms  {f(row.get('gflops'), '.1f')} GFLOP/s  "
        f"{f(row.get('examples_per_sec'), ',.1f')} ex/s"
    )


def cmd_run(args: argparse.Namespace) -> int:
    from engine.runs import jobs
    from engine.runs.store import Store

    raw = _spec_request(args)
    try:
        spec = jobs.prepare(raw)
    except SpecError as exc:
        _die(str(exc))
    store = Store()
    run_id = jobs.launch(spec, store)
    if args.detach:
        print(run_id)
        return EXIT_OK
    print(f"run {run_id} started (worker log: {jobs.run_dir_of(run_id, store) / 'log.txt'})", file=sys.stderr)

    def show(ev: dict[str, Any]) -> None:
        if ev.get("event") == "phase":
            print(f"  {ev.get('name')}", file=sys.stderr)
        elif ev.get("event") == "repeat":
            print(
                f"  repeat {ev['repeat']}/{ev['total']}: {ev['time_ms']:.2f} ms, {ev['gflops']:.1f} GFLOP/s",
                file=sys.stderr,
            )
        elif ev.get("event") == "epoch":
            print(
                f"  epoch {ev.get('epoch')}: {ev.get('epoch_s', 0):.2f} s, loss {ev.get('loss', float('nan')):.4f}",
                file=sys.stderr,
            )

    try:
        row = jobs.wait(run_id, store, on_event=show)
    except KeyboardInterrupt:
        jobs.cancel(run_id, store)
        row = store.get_run(run_id) or {}
    if args.json:
        print(json.dumps(row))
    else:
        print(_row_line(row))
        if row.get("error"):
            print(f"error: {row['error']}")
    if row.get("status") != "ok":
        print(f"accelbench: run {run_id} ended {row.get('status')}: {row.get('error')}", file=sys.stderr)
    return EXIT_OK if row.get("status") == "ok" else EXIT_FAILED


def cmd_devices(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    acc = hardware.detect_accelerators()
    info = {
        "cpu": asdict(hardware.cpu_info()),
        "gpus": [asdict(g) for g in acc.gpus],
        "tpu": acc.tpu or None,
        "notes": list(acc.notes),
    }
    if args.probe:
        import os

        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf

        info["tensorflow"] = {"version": tf.__version__, "devices": [d.name for d in tf.config.list_physical_devices()]}
    if args.json:
        print(json.dumps(info))
        return EXIT_OK
    cpu = info["cpu"]
    print(
        f"CPU: {cpu['name']} — {cpu['cores']} cores at {cpu['clock_ghz']} GHz, {', '.join(cpu['vector_extensions']) or 'no SIMD flags'}"
    )
    print(
        f"     peak {cpu['peak_gflops_fp32']} GFLOP/s fp32 ({cpu['flops_per_cycle_fp32']} FLOPs/cycle/core), {cpu['memory_gb']} GB RAM"
    )
    for g in info["gpus"]:
        print(f"GPU {g['index']}: {g['name']}, {g['memory_mb']:.0f} MB, driver {g['driver_version']}")
    if not info["gpus"]:
        print("GPU: none found" + (f" ({'; '.join(info['notes'])})" if info["notes"] else ""))
    print(f"TPU: {info['tpu'] or 'none attached'}")
    if "tensorflow" in info:
        print(f"TensorFlow {info['tensorflow']['version']} sees: {', '.join(info['tensorflow']['devices'])}")
    return EXIT_OK


def cmd_models(args: argparse.Namespace) -> int:
    from engine.spec import catalog

    if args.dataset is not None and args.dataset not in catalog.DATASET_NAMES:
        _die(f"--dataset: must be one of {', '.join(catalog.DATASET_NAMES)}; got {args.dataset!r}")
    from engine.worker.models import param_counts  # imports TensorFlow: builds each model to count it

    rows = param_counts(args.dataset)
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(
                f"{r['model']:<16} {r['dataset']:<14} input {str(tuple(r['input_shape'])):<16} classes {r['num_classes']:<5} params {r['params']:>13,}"
            )
    return EXIT_OK


def cmd_results(args: argparse.Namespace) -> int:
    from engine.runs import jobs
    from engine.runs.store import Store

    store = Store()
    jobs.refresh(store)
    if args.action == "list":
        rows = store.list_runs(limit=args.limit)
        if args.json:
            print(json.dumps(rows))
        else:
            print("\n".join(_row_line(r) for r in rows) or "no runs yet — try: python -m engine run --bench matmul")
        return EXIT_OK
    if args.action == "show":
        row = _find(store, args.run_id)
        print(json.dumps(row) if args.json else "\n".join(f"{k:>24}: {v}" for k, v in row.items() if v is not None))
        return EXIT_OK
    if args.action == "export":
        text = store.export_csv() if args.format == "csv" else json.dumps(store.list_runs(), indent=1)
        if args.out:
            Path(args.out).write_text(text)
            print(f"wrote {store.count_runs()} runs to {args.out}", file=sys.stderr)
        else:
            sys.stdout.write(text)
        return EXIT_OK
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        _die(f"cannot read {path}: {exc.strerror}")
    try:
        added, skipped = store.import_csv(data, path.name)
    except CsvError as exc:
        _die(f"{path.name}: {exc} — nothing was imported")
    print(f"imported {added} runs from {path.name}" + (f" ({skipped} already present, skipped)" if skipped else ""))
    return EXIT_OK


def _find(store, run_id: str) -> dict[str, Any]:
    row = store.get_run(run_id)
    if row:
        return row
    matches = store.find_run_ids(run_id)
    if len(matches) == 1:
        return store.get_run(matches[0])
    _die(
        f"run_id: no run {run_id!r}"
        if not matches
        else f"run_id: {run_id!r} matches {len(matches)} runs; give more of it"
    )


def cmd_cancel(args: argparse.Namespace) -> int:
    from engine.runs import jobs
    from engine.runs.store import Store

    store = Store()
    jobs.refresh(store)
    row = _find(store, args.run_id)
    if jobs.cancel(row["run_id"], store):
        print(f"cancelled {row['run_id']}")
        return EXIT_OK
    print(f"run {row['run_id']} had already ended ({row['status']})")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler = {
        "run": cmd_run,
        "devices": cmd_devices,
        "models": cmd_models,
        "results": cmd_results,
        "cancel": cmd_cancel,
        "compare": cli_compare.cmd_compare,
    }
    return handler[args.command](args)
