"""The input pipeline beside the step on this CPU (issue 38): pipeline alone, step alone and training, per model
and input-worker count.

    python bench/bench_input.py [--rounds 2] [--models flowers_cnn,resnet50] [--workers 1,2] [--examples 256]
                                [--size 500x375] [--batch-size 16] [--steps 4] [--backend tensorflow]

Writes a flowers set of real JPEGs once (`engine data sample flowers`, the issue's 500×375 pictures), then per
round runs every (model, workers) cell in an order that rotates each round (drift falls on all evenly), each in a
fresh process: `python -m engine run --model M --dataset flowers --data-dir D --input-workers W --json`. Each run
reports its three rates (input_examples_per_sec, step_examples_per_sec, examples_per_sec), input_wait_pct and
bound (engine.worker.input_probe); the child's CPU time (user+sys) is read from getrusage. Prints medians with
[min–max] over rounds, as a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("input_examples_per_sec", "step_examples_per_sec", "examples_per_sec", "input_wait_pct")


def _engine(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, env=env)


def one_run(model: str, workers: int, data_dir: str, args: argparse.Namespace) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = _engine(
        "run", "--model", model, "--dataset", "flowers", "--data-dir", data_dir, "--backend", args.backend,
        "--batch-size", str(args.batch_size), "--epochs", "2", "--steps-per-epoch", str(args.steps),
        "--input-workers", str(workers), "--json",
    )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    row = json.loads(done.stdout.strip().splitlines()[-1])
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**{k: row[k] for k in FIELDS}, "bound": row["bound"], "cpu_s": cpu_s, "total_s": row["total_s"]}


def _cell(values: list[float]) -> str:
    med = statistics.median(values)
    return f"{med:,.1f} [{min(values):,.1f}–{max(values):,.1f}]"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--models", default="flowers_cnn,resnet50")
    p.add_argument("--workers", default="1,2")
    p.add_argument("--examples", default="256")
    p.add_argument("--size", default="500x375")
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--backend", default="tensorflow")
    args = p.parse_args()
    cells = [(m, int(w)) for m in args.models.split(",") for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ACCELBENCH_DB"] = str(Path(tmp) / "bench.db")  # the bench's runs stay out of the user's store
        os.environ["ACCELBENCH_RUNS_DIR"] = str(Path(tmp) / "runs")
        data_dir = str(Path(tmp) / "flowers")
        made = _engine("data", "sample", "flowers", "--out", data_dir, "--examples", args.examples, "--size", args.size)
        if made.returncode != 0:
            sys.exit(made.stderr)
        results: dict[tuple[str, int], list[dict]] = {c: [] for c in cells}
        for r in range(args.rounds):
            order = cells[r % len(cells) :] + cells[: r % len(cells)]
            for model, workers in order:
                out = one_run(model, workers, data_dir, args)
                print(f"round {r + 1} {model} w{workers}: {out}", file=sys.stderr, flush=True)
                results[(model, workers)].append(out)
    print("| model | input workers | pipeline alone ex/s | step alone ex/s | training ex/s | input wait % | bound | "
          "CPU s per run |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for (model, workers), runs in results.items():
        ok = [x for x in runs if "error" not in x]
        if not ok:
            print(f"| {model} | {workers} | failed: {runs[0].get('error')} | | | | | |")
            continue
        cols = [_cell([x[k] for x in ok]) for k in FIELDS]
        bounds = "/".join(sorted({x["bound"] for x in ok}))
        print(f"| {model} | {workers} | {' | '.join(cols)} | {bounds} | {_cell([x['cpu_s'] for x in ok])} |")


if __name__ == "__main__":
    main()
