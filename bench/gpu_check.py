"""The GPU check: AccelBench's accelerator path on an NVIDIA GPU with CUDA, JAX and PyTorch (no TensorFlow).

    python bench/gpu_check.py --out DIR [--smoke] [--budget-s 480] [--backends jax,torch]

One command, each run in the engine's own worker process (python -m engine run … --json):
  devices          python -m engine devices
  matmul           8192³ in bfloat16 and float32, on JAX and on PyTorch
  conv2d           article 000's conv: 128×256×256×3 images, 256 5×5 filters (float32, bfloat16)
  resnet50         synthetic ImageNet shapes, batch 256, mixed_bfloat16 and float32, JAX and PyTorch
  fashion_cnn      article 000's Fashion-MNIST CNN, batch 1024, 5 epochs × 100 steps (synthetic data)
  reuters_conv1d   article 002's Reuters model, synthetic data
  peer             bench/gpu_peer.py: plain PyTorch, no AccelBench code
Results: DIR/gpu_check.csv (python -m engine results export), DIR/gpu_check.log, DIR/peer.jsonl.
Runs go in priority order and stop starting new ones once --budget-s is spent, so a time-limited machine
still returns a CSV. --smoke uses tiny sizes on the CPU (the test suite runs it with JAX).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def plan(smoke: bool, backends: list[str], device: str) -> list[tuple[str, list[str]]]:
    """(label, `engine run` arguments) in priority order."""
    mm = ["--m", "8192", "--n", "8192", "--k", "8192"] if not smoke else ["--m", "128", "--n", "128", "--k", "128"]
    conv = (
        ["--batch-size", "128", "--height", "256", "--width", "256"]
        if not smoke
        else ["--batch-size", "2", "--height", "16", "--width", "16"]
    )
    conv += ["--channels", "3", "--filters", "256" if not smoke else "8", "--kernel-size", "5"]
    rn = (
        ["--batch-size", "256", "--epochs", "2", "--steps-per-epoch", "8"]
        if not smoke
        else ["--batch-size", "4", "--epochs", "2", "--steps-per-epoch", "2"]
    )
    fc = (
        ["--batch-size", "1024", "--epochs", "5", "--steps-per-epoch", "100"]
        if not smoke
        else ["--batch-size", "16", "--epochs", "2", "--steps-per-epoch", "3"]
    )
    rt = (
        ["--batch-size", "256", "--epochs", "3", "--steps-per-epoch", "50"]
        if not smoke
        else ["--batch-size", "8", "--epochs", "2", "--steps-per-epoch", "2"]
    )
    rn_model = "resnet50" if not smoke else "tiny_cnn"
    reps = ["--repeats", "10" if not smoke else "2", "--warmup", "2"]
    runs: list[tuple[str, list[str]]] = []
    for b in backends:
        for dt in ("bfloat16", "float32"):
            runs.append((f"matmul {dt} {b}", ["--bench", "matmul", *mm, "--dtype", dt, *reps, "--backend", b]))
    for b in backends:
        runs.append((f"conv2d float32 {b}", ["--bench", "conv2d", *conv, "--dtype", "float32", *reps, "--backend", b]))
    for b in backends:
        runs.append((f"fashion_cnn {b}", ["--model", "fashion_cnn", "--dataset", "synthetic", *fc, "--backend", b]))
    for b in backends:
        runs.append(
            (f"reuters_conv1d {b}", ["--model", "reuters_conv1d", "--dataset", "synthetic", *rt, "--backend", b])
        )
    for prec in ("mixed_bfloat16", "float32"):
        for b in backends:
            runs.append(
                (
                    f"{rn_model} {prec} {b}",
                    ["--model", rn_model, "--dataset", "synthetic", *rn, "--precision", prec, "--backend", b],
                )
            )
    for b in backends:
        runs.append(
            (f"conv2d bfloat16 {b}", ["--bench", "conv2d", *conv, "--dtype", "bfloat16", *reps, "--backend", b])
        )
    return [(label, [*args, "--device", device]) for label, args in runs]


def _engine(args: list[str], env: dict, log, timeout_s: float) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "engine", *args]
    log.write(f"$ {' '.join(cmd)}\n")
    log.flush()
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout_s)


def _summary(row: dict) -> str:
    def f(key: str, fmt: str) -> str:
        v = row.get(key)
        return format(v, fmt) if isinstance(v, (int, float)) else "-"

    return (
        f"{row.get('status')}: {f('gflops', ',.0f')} GFLOP/s, {f('examples_per_sec', ',.1f')} ex/s "
        f"(step-synced {f('examples_per_sec_step_synced', ',.1f')}, epoch {f('examples_per_sec_epoch', ',.1f')}), "
        f"MFU {f('mfu_pct', '.1f')} %, median {f('step_time_ms_median', '.2f')} ms {row.get('error') or ''}"
    )


def _run_all(runs, env: dict, log, budget_s: float) -> int:
    t0, failures = time.monotonic(), 0
    for label, args in runs:
        left = budget_s - (time.monotonic() - t0)
        if left < 20:
            print(f"[skip] {label}: the {budget_s:.0f} s budget is spent", flush=True)
            continue
        try:
            done = _engine(["run", *args, "--json", "--timeout-s", f"{max(10, left - 5):.0f}"], env, log, left)
            row = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {"status": "no output"}
            log.write(done.stderr[-4000:] + "\n")
        except subprocess.TimeoutExpired:
            row = {"status": "timeout", "error": "past the check's budget"}
        if row.get("status") != "ok":
            failures += 1
            worker_log = Path(env["ACCELBENCH_DB"]).parent / "runs" / str(row.get("run_id")) / "log.txt"
            if worker_log.exists():
                log.write(f"--- worker log of {label}:\n{worker_log.read_text()[-6000:]}\n")
        print(f"[{time.monotonic() - t0:6.1f} s] {label}: {_summary(row)}", flush=True)
    return failures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--smoke", action="store_true", help="tiny sizes; runs on a CPU")
    p.add_argument("--budget-s", type=float, default=480.0)
    p.add_argument("--backends", default="jax,torch")
    p.add_argument("--device", default=None, help="default: gpu, or cpu with --smoke")
    p.add_argument("--no-peer", action="store_true")
    p.add_argument(
        "--only", default="", help="comma-separated label prefixes to keep (e.g. 'matmul float32,fashion_cnn')"
    )
    p.add_argument("--db-dir", default=None, help="where the results DB and per-run folders go (default: --out)")
    a = p.parse_args(argv)
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    db_dir = Path(a.db_dir).resolve() if a.db_dir else out
    db_dir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "ACCELBENCH_DB": str(db_dir / "gpu_check.db"), "PYTHONUNBUFFERED": "1"}
    device = a.device or ("cpu" if a.smoke else "gpu")
    with (out / "gpu_check.log").open("a") as log:
        print(_engine(["devices"], env, log, 120).stdout, flush=True)
        runs = plan(a.smoke, a.backends.split(","), device)
        if a.only:
            runs = [r for r in runs if any(r[0].startswith(k.strip()) for k in a.only.split(","))]
        failures = _run_all(runs, env, log, a.budget_s)
        done = _engine(["results", "export", "--out", str(out / "gpu_check.csv")], env, log, 120)
        print(done.stderr.strip(), flush=True)
    if not a.no_peer and "torch" in a.backends:
        peer = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "gpu_peer.py"), *(["--smoke", "--device", "cpu"] if a.smoke else [])],
            capture_output=True,
            text=True,
            timeout=300,
        )
        (out / "peer.jsonl").write_text(peer.stdout)
        print(peer.stdout + peer.stderr[-2000:], flush=True)
    print(f"gpu check: {failures} run(s) not ok; CSV at {out / 'gpu_check.csv'}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
