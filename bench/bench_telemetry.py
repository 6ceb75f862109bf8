"""What the telemetry sampler costs a run's throughput (target: ≤ 1 %).

    python bench/bench_telemetry.py [--rounds 5] [--engine-rounds 3] [--steps 60] [--batch-size 64]

Three measurements, on and off interleaved (the order alternates every round, so drift falls on both):
  sample   the cost of one `Sampler.sample()` call (median of 200) and the duty cycle that gives at the
           default 4 samples a second — the sampler's whole CPU bill.
  loop     in one process: a NumPy matmul loop (0.5 s, one BLAS thread) with the sampler thread running
           vs not; its figure is loop iterations per second.
  engine   the real CLI, each run in a fresh process: `python -m engine run --model tiny_cnn --dataset
           synthetic …` with ACCELBENCH_TELEMETRY=1 vs 0; its figure is the stored examples_per_sec.
Prints medians with [min–max] over rounds and the median of the paired on/off ratios with their range.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the loop's BLAS on one thread: steadier on a shared host

from engine.worker.telemetry import DEFAULT_INTERVAL_S, OFF_SWITCH, Sampler  # noqa: E402


def sample_cost() -> tuple[float, int]:
    sampler = Sampler()
    sampler.sample()
    times = []
    for _ in range(200):
        t0 = time.perf_counter()
        sampler.sample()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), len(sampler.sample())


def loop_rate(seconds: float = 0.5) -> float:
    import numpy as np

    a = np.random.default_rng(0).random((192, 192), dtype=np.float32)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        a = (a @ a) * 1e-3
        n += 1
    return n / (time.perf_counter() - t0)


def loop_round(on: bool) -> float:
    sampler = Sampler().start() if on else None
    try:
        return loop_rate()
    finally:
        if sampler is not None:
            sampler.stop()


def engine_round(on: bool, a: argparse.Namespace, db: str) -> float:
    env = {**os.environ, OFF_SWITCH: "1" if on else "0", "ACCELBENCH_DB": db}
    cmd = [
        sys.executable,
        "-m",
        "engine",
        "run",
        "--model",
        "tiny_cnn",
        "--dataset",
        "synthetic",
        "--batch-size",
        str(a.batch_size),
        "--epochs",
        "2",
        "--steps-per-epoch",
        str(a.steps),
        "--json",
    ]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    row = json.loads(done.stdout.strip().splitlines()[-1])
    return float(row["examples_per_sec"])


def interleave(rounds: int, fn: Callable[[bool], float]) -> dict[bool, list[float]]:
    out: dict[bool, list[float]] = {True: [], False: []}
    for r in range(rounds):
        for on in (True, False) if r % 2 == 0 else (False, True):
            out[on].append(fn(on))
    return out


def line(name: str, unit: str, got: dict[bool, list[float]]) -> str:
    on, off = got[True], got[False]
    ratios = [x / y for x, y in zip(on, off, strict=True)]  # paired: the two halves of one round
    ratio = statistics.median(ratios)
    return (
        f"| {name} | {unit} | {statistics.median(on):,.1f} [{min(on):,.1f}–{max(on):,.1f}] | "
        f"{statistics.median(off):,.1f} [{min(off):,.1f}–{max(off):,.1f}] | {(ratio - 1) * 100:+.2f} % "
        f"[{(min(ratios) - 1) * 100:+.1f}…{(max(ratios) - 1) * 100:+.1f}] |"
    )


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--engine-rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--batch-size", type=int, default=64)
    a = p.parse_args()
    cost_s, keys = sample_cost()
    duty = cost_s / DEFAULT_INTERVAL_S * 100
    print(f"one sample: {cost_s * 1e6:.0f} µs ({keys} keys) → {duty:.3f} % of one core at {1 / DEFAULT_INTERVAL_S:g}/s")
    print("| measurement | unit | sampler on | sampler off | on ÷ off − 1: median of paired rounds [range] |")
    print("|---|---|---|---|---|")
    print(line(f"matmul loop, {a.rounds} rounds", "iterations/s", interleave(a.rounds, loop_round)), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        got = interleave(a.engine_rounds, lambda on: engine_round(on, a, db))
    print(line(f"engine tiny_cnn, {a.engine_rounds} rounds", "examples/s", got))


if __name__ == "__main__":
    main()
