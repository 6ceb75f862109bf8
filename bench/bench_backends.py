"""The engine under each installed Keras 3 backend, against the host's BLAS, the CPU peak and a plain loop.

    python bench/bench_backends.py [--rounds 3] [--model tiny_cnn] [--batch-size 64] [--steps 10] [--n 1024]

Per round, contenders run in an order that rotates every round (drift falls on all evenly), each in a
fresh process:
  matmul  `python -m engine run --bench matmul --m N --n N --k N --backend B --json`: the framework's own op
          (gflops), NumPy's BLAS on the same shape (blas_gflops) and the CPU's peak (peak_gflops).
  engine  `python -m engine run --model M --dataset synthetic … --backend B --json`: examples_per_sec (windowed).
  plain   this file with --plain B: the same architecture (engine.worker.models.build_model), compiled the
          plain way, fit on synthetic NumPy arrays, timed from the first step after a warm-up as long as the engine's first epoch (--steps) to the
          end of the last by a minimal batch callback (no per-step sync on top of Keras's own); native torch's
          peer is bench/gpu_peer.py's torch.nn loop with the same warm-up.
Prints medians with [min–max] over rounds and the engine/plain ratio (target: within ±5 %).
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def plain(backend: str, model: str, batch: int, steps: int) -> None:
    """Plain Keras fit under `backend` (run in its own process: KERAS_BACKEND is read at import)."""
    if backend == "torch":  # native PyTorch's peer: a plain torch loop, no Keras (bench/gpu_peer.py)
        if model != "fashion_cnn":  # the one model gpu_peer writes in torch.nn: no ratio against another model
            print(json.dumps({"error": f"the plain torch peer is fashion_cnn only, not {model}"}))
            return
        import gpu_peer

        print(json.dumps(gpu_peer.train("cpu", batch, steps, warmup=steps)))
        return
    os.environ["KERAS_BACKEND"] = {"keras-torch": "torch"}.get(backend, backend)
    import keras
    import numpy as np

    from engine.catalog import catalog
    from engine.worker.models import build_model

    info = catalog.resolve_dataset(model, "synthetic")
    rng = np.random.default_rng(0)
    warmup = steps  # the engine's steady state is epoch 2, after a first epoch of `steps`
    total = warmup + steps
    x = rng.random((batch * total, *info.input_shape), dtype=np.float32)
    y = rng.integers(0, info.num_classes, size=(batch * total,))
    net = build_model(model, info.input_shape, info.num_classes)
    net.compile(optimizer=keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    clock: dict[str, float] = {}

    class StepClock(keras.callbacks.Callback):
        """From the start of the first step after the warm-up to the end of the last: steps only, like
        gpu_peer's loop and the engine's steady state (no epoch start/end, no compile)."""

        def on_train_batch_begin(self, batch, logs=None):
            if batch == warmup:
                clock["t0"] = time.perf_counter()

        def on_train_batch_end(self, batch, logs=None):
            clock["t1"] = time.perf_counter()

    net.fit(x, y, batch_size=batch, epochs=1, shuffle=False, verbose=0, callbacks=[StepClock()])
    print(json.dumps({"examples_per_sec": steps * batch / (clock["t1"] - clock["t0"])}))


def _json_run(cmd: list[str], env: dict) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = done.stdout.strip().splitlines()
    out = json.loads(lines[-1]) if lines else {"error": done.stderr[-300:]}
    out["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # the whole process
    return out


def contenders(a, backend: str) -> dict[str, list[str]]:
    engine = [sys.executable, "-m", "engine", "run", "--backend", backend, "--json"]
    n = str(a.n)
    train = ["--model", a.model, "--dataset", "synthetic", "--batch-size", str(a.batch_size), "--epochs", "2"]
    return {
        f"matmul {backend}": [*engine, "--bench", "matmul", "--m", n, "--n", n, "--k", n, "--repeats", "10"],
        # native torch eager, like its plain peer (bench/gpu_peer.py's loop has no torch.compile)
        f"engine {backend}": [*engine, *train, "--steps-per-epoch", str(a.steps),
                              *(["--no-compile"] if backend == "torch" else [])],
        f"plain {backend}": [sys.executable, __file__, "--plain", backend, "--model", a.model,
                             "--batch-size", str(a.batch_size), "--steps", str(a.steps)],
    }  # fmt: skip


def _spread(values: list[float], digits: int = 1) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):,.{digits}f} [{min(values):,.{digits}f}–{max(values):,.{digits}f}]"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--model", default="tiny_cnn")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--backends", default="")
    p.add_argument("--plain", default="")
    a = p.parse_args()
    if a.plain:
        plain(a.plain, a.model, a.batch_size, a.steps)
        return
    from engine.catalog import backends as be

    names = a.backends.split(",") if a.backends else be.installed_backends()
    jobs = {k: v for b in names for k, v in contenders(a, b).items()}
    got: dict[str, list[dict]] = {k: [] for k in jobs}
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "ACCELBENCH_DB": f"{tmp}/bench.db", "TF_CPP_MIN_LOG_LEVEL": "3"}
        keys = list(jobs)
        for r in range(a.rounds):
            for k in keys[r % len(keys) :] + keys[: r % len(keys)]:
                got[k].append(_json_run(jobs[k], env))
                print(
                    f"round {r + 1} {k}: {got[k][-1].get('examples_per_sec') or got[k][-1].get('gflops')}", flush=True
                )
    report(names, got)


def report(names: list[str], got: dict[str, list[dict]]) -> None:
    def vals(key: str, field: str) -> list[float]:
        return [r[field] for r in got[key] if isinstance(r.get(field), (int, float))]

    print("\n| backend | matmul GFLOP/s | NumPy BLAS GFLOP/s | CPU peak | engine ex/s | plain ex/s | engine/plain "
          "| engine CPU s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for b in names:
        e, pl = vals(f"engine {b}", "examples_per_sec"), vals(f"plain {b}", "examples_per_sec")
        ratios = [x / y for x, y in zip(e, pl, strict=False)]
        peak = vals(f"matmul {b}", "peak_gflops")
        print(
            f"| {b} | {_spread(vals(f'matmul {b}', 'gflops'))} | {_spread(vals(f'matmul {b}', 'blas_gflops'))} | "
            f"{peak[0] if peak else '-'} | {_spread(e)} | {_spread(pl)} | {_spread(ratios, 2)} | "
            f"{_spread(vals(f'engine {b}', 'cpu_s'))} |"
        )


if __name__ == "__main__":
    main()
