"""The CLI's parser and dispatch: `python -m engine devices|models|run|results|cancel|compare|db|sweep`.

Each command's body lives in the module of its group (engine.cli.run, .results, .db, .compare, .sweep);
to add a command: a sub-parser in `build_parser` (or its group's `_add_*` function), a `cmd_NAME(args) -> int`
there, a line in `main`'s table.

Exit codes: 0 the run finished ok; 1 it started and failed (the failure is stored); 2 invalid
input — nothing started, nothing stored, one line on stderr naming the field.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, TypeAlias

from engine.catalog.backends import BACKENDS
from engine.catalog.specs import BENCHES, DEVICES, DTYPES, PRECISIONS, STRATEGIES
from engine.cli import compare as cli_compare
from engine.cli import data as cli_data
from engine.cli import db as cli_db
from engine.cli import sweep as cli_sweep
from engine.cli.common import EXIT_FAILED, EXIT_INVALID, EXIT_OK, fail, prog, silence
from engine.cli.results import cmd_cancel, cmd_results
from engine.cli.run import cmd_devices, cmd_models, cmd_run
from engine.cli.table import add_format_flags
from engine.runs.store import StoreError

__all__ = ["EXIT_FAILED", "EXIT_INVALID", "EXIT_OK", "build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage dump
        fail(f"{message} (see: {self.prog} --help)")  # prog is the whole command, e.g. "python -m engine results list"


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
    p = _Parser(prog=prog(), description="AccelBench: honest deep-learning benchmarks on CPU, GPU and TPU.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_machine_commands(sub)
    _add_run_command(sub)
    rsub = _add_results_commands(sub)
    cli_db.add_parsers(sub, rsub)  # before cancel: the order sub-commands are listed in --help and errors
    c = sub.add_parser("cancel", help="cancel a queued or running run")
    c.add_argument("run_id")
    cli_compare.add_parser(sub)
    cli_sweep.add_parser(sub)
    cli_data.add_parser(sub)
    return p


_SubParsers: TypeAlias = "argparse._SubParsersAction[_Parser]"  # what add_subparsers returns


def _add_machine_commands(sub: _SubParsers) -> None:
    """`devices` and `models`: what this machine has and what it can train."""
    d = sub.add_parser("devices", help="what this machine has (CPU peak, GPUs, TPU)")
    d.add_argument("--probe", action="store_true", help="also ask TensorFlow which devices it sees (slower)")
    d.add_argument("--json", action="store_true")

    m = sub.add_parser("models", help="models with their parameter counts for a dataset's input shape")
    m.add_argument("--dataset", default=None)
    m.add_argument("--json", action="store_true")


def _add_run_command(sub: _SubParsers) -> None:
    """`run`: its flags in --help's order — what to run, how to train it, where and within which limits."""
    r = sub.add_parser("run", help="run a microbenchmark (--bench) or a training benchmark (--model)")
    _add_run_workload_flags(r)
    _add_run_training_flags(r)
    _add_run_host_flags(r)


def _add_run_workload_flags(r: argparse.ArgumentParser) -> None:
    """What to run: a microbenchmark's shape, a zoo or own model, its data and input pipeline."""
    r.add_argument("--bench", choices=BENCHES)
    for name in ("m", "n", "k", "height", "width", "channels", "filters", "kernel-size", "repeats", "warmup"):
        r.add_argument(f"--{name}", type=_positive_int)
    r.add_argument("--dtype", choices=DTYPES)
    r.add_argument("--model")
    r.add_argument("--model-file", help="your own saved Keras 3 model (.keras) instead of a zoo --model")
    r.add_argument("--model-fn", help="package.module:function returning an uncompiled keras.Model")
    r.add_argument("--model-path", help="folder to import --model-fn's module from (default: the working directory)")
    r.add_argument(
        "--unsafe-model-code",
        action="store_true",
        default=None,
        help="allow a .keras file's Lambda layers (runs its code)",
    )
    r.add_argument("--loss", help="your model's loss (default auto: sparse cross-entropy for class scores, else mse)")
    r.add_argument("--optimizer", help="your model's optimizer: adam (default), adamw or sgd")
    r.add_argument("--data-npz", help="train your model on this .npz of x/y instead of synthetic data")
    r.add_argument("--dataset")
    r.add_argument("--data-dir")
    r.add_argument("--input-workers", help="file pipeline: parallel decode workers, N or auto (default: AUTOTUNE)")
    r.add_argument("--prefetch", help="file pipeline: batches prepared ahead, N or auto (default: AUTOTUNE)")
    r.add_argument("--cache", action=argparse.BooleanOptionalAction, default=None, help="file pipeline: keep decoded "
                   "images in memory after the first pass (default: off, decode every epoch)")  # fmt: skip


def _add_run_training_flags(r: argparse.ArgumentParser) -> None:
    """How to train it: batch, steps, device, framework, strategy, precision and compilation."""
    r.add_argument("--batch-size", type=_positive_int)
    r.add_argument("--epochs", type=_positive_int)
    r.add_argument("--steps-per-epoch", type=_positive_int)
    r.add_argument("--validation-steps", type=_positive_int)
    r.add_argument("--device", choices=DEVICES)
    r.add_argument(
        "--backend",
        choices=BACKENDS,
        help="tensorflow, jax or keras-torch: Keras 3 on that framework; torch: native PyTorch "
        "(default: the first installed of tensorflow, jax, torch)",
    )
    r.add_argument("--strategy", choices=STRATEGIES)
    r.add_argument("--logical-devices", type=_positive_int)
    r.add_argument("--processes", type=_positive_int, help="data parallel over N local processes (torch, jax)")
    r.add_argument("--precision", choices=PRECISIONS)
    r.add_argument("--xla", action="store_true", default=None)
    r.add_argument(
        "--no-compile",
        dest="torch_compile",
        action="store_false",
        default=None,
        help="--backend torch: train eagerly, without torch.compile (on by default)",
    )


def _add_run_host_flags(r: argparse.ArgumentParser) -> None:
    """Where and within which limits: memory, visible devices, price, timeout, label, detach, output."""
    r.add_argument("--memory-growth", action="store_true", default=None)
    r.add_argument("--memory-limit-mb", type=_positive_int)
    r.add_argument("--host-memory-limit-mb", type=_positive_int, help="cap the worker's address space (RLIMIT_AS)")
    r.add_argument("--visible-devices")
    r.add_argument("--tpu")
    r.add_argument("--price-per-hour", dest="price_per_hour_usd", type=_number)
    r.add_argument("--timeout-s", type=_number)
    r.add_argument("--label", help="your annotation for this run (a machine or team name); none by default")
    r.add_argument(
        "--detach",
        action="store_true",
        help="start in the background and print the run_id; the run goes on after the command returns (stop it with "
        "cancel RUN_ID). Without it the command waits, and Ctrl-C, SIGTERM or SIGHUP (a closed terminal) cancels the run",
    )
    r.add_argument("--json", action="store_true", help="print the result row as one JSON object on the last line")


def _add_results_commands(sub: _SubParsers) -> _SubParsers:
    """`results list|show|export|import`; returns its sub-parsers so `db` can add `results` actions beside them."""
    res = sub.add_parser("results", help="list, show, export or import stored results")
    rsub = res.add_subparsers(dest="action", required=True, parser_class=_Parser)
    rl = rsub.add_parser("list")
    add_format_flags(rl, "the runs (table: fits 100 columns; --verbose adds each run's label and error)")
    rl.add_argument("--limit", type=_positive_int, default=50)
    rl.add_argument("--sweep", metavar="SWEEP_ID", help="only the runs of this sweep (engine sweep)")
    rs = rsub.add_parser("show")
    rs.add_argument("run_id")
    rs.add_argument("--json", action="store_true")
    re_ = rsub.add_parser("export")
    re_.add_argument("--format", choices=("csv", "json"), default="csv")
    re_.add_argument("--out")
    re_.add_argument("--sweep", metavar="SWEEP_ID", help="only the runs of this sweep (for History)")
    re_.add_argument(
        "--series",
        action="store_true",
        help="include each run's per-step/epoch/repeat records and telemetry (JSON: inside; CSV: OUT's .series.json)",
    )
    ri = rsub.add_parser("import", help="import an AccelBench export, or map another tool's file with --mapping")
    ri.add_argument("file")
    ri.add_argument("--mapping", help="a mapping saved on the History page (JSON): read FILE as another tool's results")
    ri.add_argument(
        "--auto",
        action="store_true",
        help="map another tool's FILE as the History page proposes "
        "(known formats, a batch-size table and a sidecar beside FILE); what it guessed goes to stderr",
    )
    ri.add_argument("--device", help="with --auto: the device of a file that names none (an nvidia-smi log)")
    ri.add_argument("--no-join", action="store_true", help="with --auto: never join a batch-size table beside FILE")
    ri.add_argument("--sidecar", help="with --mapping/--auto: a JSON/YAML file of settings joined to every row")
    ri.add_argument("--out", help="with --mapping/--auto: write the mapped rows here as a long CSV (default: stdout)")
    return rsub


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler = {
        "run": cmd_run,
        "devices": cmd_devices,
        "models": cmd_models,
        "results": cmd_results,
        "cancel": cmd_cancel,
        "compare": cli_compare.cmd_compare,
        "db": cli_db.cmd_db,
        "sweep": cli_sweep.cmd_sweep,
        "data": cli_data.cmd_data,
    }
    try:
        return handler[args.command](args)
    except StoreError as exc:  # every database fault, in one line: what is wrong and what to do
        fail(str(exc))
    except BrokenPipeError:  # `results list | head`: the reader has gone, which is not an error
        silence(sys.stdout)
        return EXIT_OK
