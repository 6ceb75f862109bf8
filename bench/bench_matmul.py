"""Engine matmul GFLOP/s vs NumPy's BLAS vs the CPU's theoretical peak, same shape, same machine.

    python bench/bench_matmul.py [--size 2048] [--rounds 5] [--repeats 10] [--markdown]

Each round runs, in an order that rotates every round so drift (thermal, noisy neighbours) is
spread evenly: the real CLI `python -m engine run --bench matmul --m N --n N --k N --json`
without and with `--xla`, and NumPy's `a @ b` on float32 matrices of the same size in this process.
The engine's figure is its own stored `gflops` (median of its timed repeats, warm-up excluded);
NumPy's is timed the same way (warm-up, then the median of `--repeats`). The table reports the
median over rounds and the engine/NumPy ratio (target ≥ 0.95).
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
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.runs import hardware  # (needs ROOT on sys.path; no TensorFlow in this process)

TARGET_RATIO = 0.95


def engine_cmd(size: int, repeats: int, xla: bool) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        "engine",
        "run",
        "--bench",
        "matmul",
        "--m",
        str(size),
        "--n",
        str(size),
        "--k",
        str(size),
    ]
    cmd += ["--repeats", str(repeats), "--json"]
    return cmd + (["--xla"] if xla else [])


def run_engine(size: int, repeats: int, xla: bool, db: Path) -> dict:
    """One real CLI run; returns its stored result row."""
    proc = subprocess.run(
        engine_cmd(size, repeats, xla),
        cwd=ROOT,
        env={**os.environ, "ACCELBENCH_DB": str(db)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"engine run failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    row = json.loads(proc.stdout.strip().splitlines()[-1])
    if row["status"] != "ok":
        raise RuntimeError(f"engine run ended {row['status']}: {row.get('error')}")
    return row


def run_numpy(size: int, repeats: int, warmup: int = 2) -> float:
    """NumPy BLAS GFLOP/s: median of `repeats` timed a @ b after `warmup` untimed ones."""
    rng = np.random.default_rng(0)
    a = rng.random((size, size), dtype=np.float32)
    b = rng.random((size, size), dtype=np.float32)
    for _ in range(warmup):
        a @ b
    times_s = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ b
        times_s.append(time.perf_counter() - t0)
    return 2.0 * size**3 / statistics.median(times_s) / 1e9


def blas_name() -> str:
    """Which BLAS NumPy links (np.show_config's dict form; the text form is long)."""
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg["Build Dependencies"]["blas"]
        return f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:  # show_config's layout is not a stable API; the name is only informative
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=10, help="timed repeats per measurement (engine and NumPy alike)")
    ap.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    args = ap.parse_args(argv)

    cpu = hardware.cpu_info()
    load_before = os.getloadavg()
    peak_gflops = hardware.cpu_peak_gflops("float32")
    series: dict[str, list[float]] = {"engine": [], "engine --xla": [], "numpy": []}
    devices_used = set()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        order = list(series)
        for rnd in range(args.rounds):
            for name in order[rnd % 3 :] + order[: rnd % 3]:  # rotate who goes first each round
                if name == "numpy":
                    gflops = run_numpy(args.size, args.repeats)
                else:
                    row = run_engine(args.size, args.repeats, xla=name.endswith("--xla"), db=db)
                    gflops = row["gflops"]
                    devices_used.add(row["devices_used"])
                series[name].append(gflops)
                print(f"round {rnd + 1}/{args.rounds}  {name:<13} {gflops:8.1f} GFLOP/s", file=sys.stderr)

    numpy_med = statistics.median(series["numpy"])
    lines = [
        f"CPU: {cpu.name}, {cpu.cores} cores @ {cpu.clock_ghz} GHz, {cpu.flops_per_cycle_fp32} FP32 FLOP/cycle/core "
        f"→ peak {peak_gflops:.1f} GFLOP/s; NumPy {np.__version__} with {blas_name()}",
        f"matmul {args.size}×{args.size}×{args.size} float32, {args.rounds} rounds × {args.repeats} repeats; "
        f"engine ran on {', '.join(sorted(devices_used))}",
        "",
        f"load average (1 min) before/after: {load_before[0]:.2f} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs "
        "(above the CPU count means other processes competed for the cores)",
        "",
        "| what | median GFLOP/s | best round | min–max over rounds | median × NumPy | best × NumPy best | % of peak (median) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    numpy_best = max(series["numpy"])
    for name, values in series.items():
        med, best = statistics.median(values), max(values)
        lines.append(
            f"| {name} | {med:.1f} | {best:.1f} | {min(values):.1f}–{best:.1f} | {med / numpy_med:.3f} | "
            f"{best / numpy_best:.3f} | {100 * med / peak_gflops:.0f}% |"
        )
    verdict = []
    for name in ("engine", "engine --xla"):
        ratio = statistics.median(series[name]) / numpy_med
        verdict.append(
            f"{name}: {ratio:.3f} × NumPy — {'meets' if ratio >= TARGET_RATIO else 'BELOW'} the {TARGET_RATIO} target"
        )
    print("\n".join(lines + [""] + verdict))
    print("\ncommand: " + " ".join(engine_cmd(args.size, args.repeats, False)[1:]).replace(sys.executable, "python"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
