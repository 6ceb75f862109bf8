"""The flowers pipelines alone, side by side on the same files (issue 45): tf.data (TensorFlow) and the NumPy/PIL
pipeline that Keras on JAX and on torch read through — batches pulled to the host, no model, no device.

    python bench/bench_pipeline_alone.py [--rounds 3] [--workers 1,2] [--examples 256] [--size 500x375]
                                         [--batch-size 16] [--batches 12]

Writes the set once in both layouts (engine.worker.sample_data), then per round, layout and worker count builds
each pipeline fresh (uncached, prefetch 2), pulls 2 warm-up batches and times the next --batches. Prints the
median examples/s with [min–max] over rounds, as a Markdown table for BENCHMARKS.md. Needs TensorFlow (for
tf.data and the TFRecord writer) and Pillow.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from engine.catalog.input_spec import InputSettings
from engine.worker import flowers_numpy, flowers_tf
from engine.worker.sample_data import write_sample

WARMUP_BATCHES = 2


def _rate(batches: Iterator, batch: int, timed: int) -> float:
    for _ in range(WARMUP_BATCHES):
        next(batches)
    t0 = time.perf_counter()
    for _ in range(timed):
        next(batches)
    return timed * batch / (time.perf_counter() - t0)


def _numpy(data_dir: str, batch: int, settings: InputSettings) -> Iterator:
    return flowers_numpy.flowers(data_dir, batch, False, 0, settings)[0]


def _tf_data(data_dir: str, batch: int, settings: InputSettings) -> Iterator:
    return iter(flowers_tf.flowers(data_dir, batch, False, 0, settings)[0].as_numpy_iterator())


PIPELINES: dict[str, Callable[[str, int, InputSettings], Iterator]] = {"tf.data": _tf_data, "NumPy/PIL": _numpy}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--workers", default="1,2")
    p.add_argument("--examples", type=int, default=256)
    p.add_argument("--size", default="500x375")
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--batches", type=int, default=12)
    args = p.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    root = Path(tempfile.mkdtemp(prefix="pipelines-"))
    for layout in ("tfrecord", "folder"):
        write_sample(str(root / layout), args.examples, layout, width, height)
    rates: dict[tuple[str, int, str], list[float]] = {}
    for _ in range(args.rounds):
        for layout in ("tfrecord", "folder"):
            for workers in (int(w) for w in args.workers.split(",")):
                for name, make in PIPELINES.items():
                    batches = make(str(root / layout), args.batch_size, InputSettings(workers, 2, False))
                    rate = _rate(batches, args.batch_size, args.batches)
                    rates.setdefault((layout, workers, name), []).append(rate)
                    getattr(batches, "close", lambda: None)()  # the NumPy/PIL pipeline's threads end
    print("| layout | input workers | pipeline | examples/s |\n|---|---|---|---|")
    for (layout, workers, name), got in rates.items():
        print(f"| {layout} | {workers} | {name} | {statistics.median(got):,.0f} [{min(got):,.0f}–{max(got):,.0f}] |")


if __name__ == "__main__":
    main()
