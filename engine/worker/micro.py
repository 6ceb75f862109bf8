"""matmul and conv2d microbenchmarks (worker only: imports TensorFlow).

Each repeat computes the whole operation, synchronises the device, then reads the clock. A result
too big for memory is computed in blocks (columns of B, or images of the batch) that are
discarded as they finish, and the run says so in `notes`.
"""

from __future__ import annotations

import os
import time

import psutil
import tensorflow as tf

from engine.catalog.specs import MicroSpec
from engine.runs.progress import Reporter
from engine.worker import tfenv
from engine.worker.backends.timing import blas_matmul_gflops
from engine.worker.micro_flops import flops
from engine.worker.stats import summarize_ms

_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}


def memory_budget_bytes() -> int:
    """How big one output block may be: a quarter of free memory, at most 2 GiB.

    `ACCELBENCH_MAX_BLOCK_MB` lowers it (tests use it to exercise blocking on small shapes).
    """
    budget = min(2 * 2**30, psutil.virtual_memory().available * 0.25)
    override_mb = os.environ.get("ACCELBENCH_MAX_BLOCK_MB")
    if override_mb:
        budget = min(budget, float(override_mb) * 2**20)
    return int(budget)


def plan_blocks(total: int, bytes_per_unit: int, budget: int) -> list[tuple[int, int]]:
    """Split `total` units (columns or images) into [start, end) blocks of at most `budget` bytes."""
    per_block = max(1, min(total, budget // max(1, bytes_per_unit)))
    return [(s, min(total, s + per_block)) for s in range(0, total, per_block)]


def _device_string(device: str) -> str:
    return tfenv.logical_devices(device)[0]


def run_micro(spec: MicroSpec, report: Reporter) -> dict:
    """The op built in blocks that fit memory, warmed up (the first call's compile reported apart), timed."""
    tfenv.configure(spec.device)
    dev = _device_string(spec.device)
    report.phase("preparing", device=dev)
    budget = memory_budget_bytes()
    with tf.device(dev):
        op, calls, blocks, unit = _operands(spec, budget)
        tfenv.sync()
        first_s, times, timed_s, used = _timed(spec, op, calls, report)
    summary = summarize_ms(times)
    median_s = summary["step_time_ms_median"] / 1000
    notes = ""
    if len(blocks) > 1:
        size = blocks[0][1] - blocks[0][0]
        notes = (
            f"computed in {len(blocks)} blocks of up to {size:,} {unit}s so each block's output stays under "
            f"{budget / 2**30:.1f} GiB; timings cover all blocks"
        )
    math = tfenv.peak_dtype(spec.dtype, spec.device, spec.bench)
    peak = tfenv.peak_gflops(spec.device, math)
    if math != spec.dtype:
        notes = "; ".join(
            filter(None, [notes, f"peak and MFU taken for {math} (TensorFlow's default for {spec.dtype})"])
        )
    gflops = flops(spec) / median_s / 1e9
    blas = None
    if spec.bench == "matmul" and spec.device == "cpu" and spec.dtype == "float32":
        blas = blas_matmul_gflops(spec.m, spec.n, spec.k, repeats=min(5, spec.repeats))
        notes = "; ".join(
            filter(None, [notes, f"tensorflow {gflops:,.1f} vs NumPy BLAS {blas:,.1f} GFLOP/s ({gflops / blas:.2f}×)"])
        )
    return {
        **summary,
        "time_to_first_step_s": first_s,
        "total_s": timed_s + first_s,
        "gflops": gflops,
        "peak_gflops": peak,
        "mfu_pct": 100.0 * gflops / peak if peak else None,
        "blas_gflops": blas,
        "examples_per_sec": spec.batch_size / median_s if spec.bench == "conv2d" else None,
        "replicas": 1,
        "devices_used": ",".join(sorted(used)),
        "peak_host_memory_mb": tfenv.peak_host_memory_mb(),
        "peak_device_memory_mb": tfenv.peak_device_memory_mb(spec.device),
        "notes": notes or None,
    }


def _operands(spec: MicroSpec, budget: int) -> tuple:
    """(the tf.function, its calls' arguments, the blocks, the block unit): the matmul split by columns of B, the
    conv by images, so that each block's output stays under `budget`."""
    dtype = tf.as_dtype(spec.dtype)
    if spec.bench == "matmul":
        a = tf.random.uniform((spec.m, spec.k), dtype=tf.float32)
        b = tf.random.uniform((spec.k, spec.n), dtype=tf.float32)
        a, b = tf.cast(a, dtype), tf.cast(b, dtype)
        blocks = plan_blocks(spec.n, spec.m * _BYTES[spec.dtype], budget)
        operands = [b[:, s:e] for s, e in blocks] if len(blocks) > 1 else [b]
        op = tf.function(lambda x, y: tf.matmul(x, y), jit_compile=spec.xla)
        return op, [(a, bb) for bb in operands], blocks, "column"
    x = tf.cast(tf.random.uniform((spec.batch_size, spec.height, spec.width, spec.channels)), dtype)
    w = tf.cast(tf.random.uniform((spec.kernel_size, spec.kernel_size, spec.channels, spec.filters)), dtype)
    per_image = spec.height * spec.width * spec.filters * _BYTES[spec.dtype]
    blocks = plan_blocks(spec.batch_size, per_image, budget)
    op = tf.function(lambda x, w: tf.nn.conv2d(x, w, strides=1, padding="SAME"), jit_compile=spec.xla)
    return op, [(x[s:e], w) for s, e in blocks] if len(blocks) > 1 else [(x, w)], blocks, "image"


def _timed(spec: MicroSpec, op, calls: list, report: Reporter) -> tuple[float, list[float], float, set[str]]:
    """(first call's seconds, each timed repeat's seconds, the timed span, the devices the output lived on)."""
    used: set[str] = set()

    def once() -> float:
        t0 = time.perf_counter()
        out = op(*calls[0])
        for args in calls[1:]:
            out = op(*args)
        # Reading one element back forces the device to finish every queued block.
        _ = out[(0,) * len(out.shape)].numpy()
        tfenv.sync()
        used.add(out.device)
        return time.perf_counter() - t0

    report.phase("warmup", repeats=spec.warmup)
    first_s = once()  # trace + compile + first execution, reported apart
    for _ in range(max(0, spec.warmup - 1)):
        once()
    tfenv.check_placement(spec.device, sorted(used))
    report.phase("timing", repeats=spec.repeats)
    times = []
    t_start = time.perf_counter()
    for i in range(spec.repeats):
        dt = once()
        times.append(dt)
        report.record("repeat", repeat=i + 1, total=spec.repeats, time_ms=dt * 1000, gflops=flops(spec) / dt / 1e9)
    return first_s, times, time.perf_counter() - t_start, used
