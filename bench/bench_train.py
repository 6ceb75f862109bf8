"""Engine training throughput vs a plain `model.fit`, same model, same data, same machine.

    python bench/bench_train.py [--model fashion_cnn] [--batch-size 256] [--epochs 3] [--steps 20] [--rounds 3]
                                [--markdown]

Each round runs both, in an order that alternates every round so drift (thermal, noisy neighbours)
falls on both evenly, each in a fresh process:
  engine  the real CLI: `python -m engine run --model M --dataset synthetic --batch-size B --epochs E
          --steps-per-epoch S --json`; its figure is the stored `examples_per_sec` (steady state: epochs 2…E).
  plain   this file with --plain: the same architecture (engine.worker.models.build_model), compiled the plain way
          (Adam 1e-3, sparse categorical cross-entropy, accuracy), fit with verbose=0 on the same synthetic
          batch repeated by tf.data, timed by a minimal callback that reads the clock at on_epoch_begin and
          on_epoch_end; its figure is steps × batch × (E−1) / the wall time of epochs 2…E.
The table gives each side's median over rounds and the median engine/plain ratio.
Targets: engine ≥ 0.97 × plain, and the two agree within 5 %.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.runs.store import Store  # (no TensorFlow in this process)

MIN_RATIO = 0.97
AGREE_WITHIN = 0.05
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}


def plain_keras(model_name: str, batch: int, epochs: int, steps: int) -> dict:
    """The plain-Keras side (runs in its own process via --plain)."""
    import keras
    import tensorflow as tf

    from engine.catalog import catalog
    from engine.worker.datasets import synthetic_batch
    from engine.worker.models import build_model

    class EpochClock(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.epoch_s: list[float] = []
            self.cpu_s: list[float] = []

        def on_epoch_begin(self, epoch, logs=None):
            self._t, self._cpu = time.perf_counter(), time.process_time()

        def on_epoch_end(self, epoch, logs=None):
            self.epoch_s.append(time.perf_counter() - self._t)
            self.cpu_s.append(time.process_time() - self._cpu)

    keras.utils.set_random_seed(0)
    info = catalog.resolve_dataset(model_name, "synthetic")
    data = tf.data.Dataset.from_tensors(synthetic_batch(info, batch, seed=0)).repeat()
    model = build_model(model_name, info.input_shape, info.num_classes)
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    clock = EpochClock()
    model.fit(data, epochs=epochs, steps_per_epoch=steps, callbacks=[clock], verbose=0)
    steady_examples = steps * batch * (epochs - 1)
    return {
        "examples_per_sec": steady_examples / sum(clock.epoch_s[1:]),
        "examples_per_cpu_s": steady_examples / sum(clock.cpu_s[1:]),
    }


def run_plain(args) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--plain", "--model", args.model]
    cmd += ["--batch-size", str(args.batch_size), "--epochs", str(args.epochs), "--steps", str(args.steps)]
    proc = subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"plain keras failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_engine(args, db: Path) -> dict:
    cmd = [sys.executable, "-m", "engine", "run", "--model", args.model, "--dataset", "synthetic"]
    cmd += ["--batch-size", str(args.batch_size), "--epochs", str(args.epochs), "--steps-per-epoch", str(args.steps)]
    proc = subprocess.run(
        [*cmd, "--json"], cwd=ROOT, env={**ENV, "ACCELBENCH_DB": str(db)}, capture_output=True, text=True, timeout=3600
    )
    row = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout.strip() else {}
    if proc.returncode != 0 or row.get("status") != "ok":
        raise SystemExit(f"engine run failed: {row.get('error')}\n{proc.stderr[-3000:]}")
    epochs = Store(db).get_series(row["run_id"], "epoch")[1:]  # the run's own per-epoch records, epochs 2…E
    row["examples_per_cpu_s"] = args.steps * args.batch_size * len(epochs) / sum(e["cpu_s"] for e in epochs)
    return row


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="fashion_cnn")
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--plain", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.epochs < 2:
        p.error("--epochs must be at least 2 (epoch 1 holds the compilation and is excluded)")
    if args.plain:
        print(json.dumps(plain_keras(args.model, args.batch_size, args.epochs, args.steps)))
        return 0

    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            order = ("engine", "plain") if i % 2 == 0 else ("plain", "engine")
            got = {}
            for side in order:
                got[side] = run_engine(args, Path(tmp) / "bench.db") if side == "engine" else run_plain(args)
            r = {f"{side}{suffix}": got[side][key] for side in got for suffix, key in _KEYS}
            r["ratio"] = r["engine"] / r["plain"]
            r["cpu_ratio"] = r["engine_per_cpu_s"] / r["plain_per_cpu_s"]
            rounds.append(r)
            print(
                f"round {i + 1} ({' then '.join(order)}): engine {r['engine']:.1f} ex/s, plain {r['plain']:.1f} ex/s, "
                f"ratio {r['ratio']:.3f} (per CPU-second: {r['cpu_ratio']:.3f})",
                file=sys.stderr,
            )
    med = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    ok = med["ratio"] >= MIN_RATIO and abs(med["ratio"] - 1) <= AGREE_WITHIN
    summary = {
        "model": args.model,
        "batch_size": args.batch_size,
        "epochs": args.epochs,
        "steps_per_epoch": args.steps,
        "rounds": rounds,
        "median": med,
        "meets_target": ok,
    }
    if args.markdown:

        def row(label: str, key: str, fmt: str) -> str:
            return f"| {label} | {format(med[key], fmt)} | {', '.join(format(r[key], fmt) for r in rounds)} |"

        print(f"| measure | median of {args.rounds} rounds | per round |")
        print("|---|---:|---|")
        print(row("engine examples/s (CLI, stored `examples_per_sec`)", "engine", ",.1f"))
        print(row("plain `model.fit` examples/s (epoch callback)", "plain", ",.1f"))
        print(row("**engine / plain** (wall clock)", "ratio", ".3f"))
        print(row("engine examples per CPU-second", "engine_per_cpu_s", ",.1f"))
        print(row("plain examples per CPU-second", "plain_per_cpu_s", ",.1f"))
        print(row("engine / plain per CPU-second", "cpu_ratio", ".3f"))
    print(json.dumps(summary))
    return 0 if ok else 1


_KEYS = (("", "examples_per_sec"), ("_per_cpu_s", "examples_per_cpu_s"))


if __name__ == "__main__":
    sys.exit(main())
