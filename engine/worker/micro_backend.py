"""matmul and conv2d microbenchmarks under JAX or PyTorch (worker only; TensorFlow's are in micro.py).

Each backend's own op (engine.worker.backends.<name>_ops) goes through one timing loop; on a CPU the
matmul is also timed with NumPy's BLAS, so the result card can show framework vs BLAS vs peak.
"""

from __future__ import annotations

from types import ModuleType

from engine.catalog.specs import MicroSpec
from engine.runs import hardware
from engine.runs.progress import Reporter
from engine.worker.backends import timing
from engine.worker.errors import PlacementError
from engine.worker.micro_flops import flops
from engine.worker.stats import summarize_ms


def _op(spec: MicroSpec, ops: ModuleType):
    if spec.bench == "matmul":
        return ops.matmul_op(spec.m, spec.n, spec.k, spec.dtype, spec.device)
    return ops.conv_op(
        spec.batch_size, spec.height, spec.width, spec.channels, spec.filters, spec.kernel_size, spec.dtype, spec.device
    )


def peak_gflops(ops: ModuleType, device: str, dtype: str) -> float | None:
    """The device's dense peak for `dtype` from the one hardware table; None (no guess) when unknown."""
    if device == "cpu":
        return hardware.cpu_peak_gflops(dtype)
    return hardware.accelerator_peak_gflops(ops.device_name(device), dtype)


def check_placement(ops: ModuleType, device: str, used: set[str]) -> None:
    wrong = sorted(d for d in used if ops.kind_of(d) != device)
    if not used or wrong:
        raise PlacementError(f"asked for {device.upper()} but the op ran on {', '.join(wrong) or 'an unknown device'}")


def run_micro_backend(spec: MicroSpec, report: Reporter, ops: ModuleType) -> dict:
    report.phase("preparing", device=spec.device, backend=spec.backend)
    run = _op(spec, ops)
    report.phase("warmup", repeats=spec.warmup)
    timed = timing.time_repeats(
        run, ops.finish, warmup=max(1, spec.warmup), repeats=spec.repeats, flop=flops(spec), report=report
    )
    used = ops.used_devices(timed.last_output)
    check_placement(ops, spec.device, used)
    summary = summarize_ms(timed.times_s)
    gflops = flops(spec) / (summary["step_time_ms_median"] / 1000) / 1e9
    math = ops.peak_dtype(spec.dtype, spec.device, spec.bench)
    peak = peak_gflops(ops, spec.device, math)
    notes = [f"{ops.version()}; warm-up {max(1, spec.warmup)} (first call {timed.first_s * 1000:.1f} ms)"]
    if timed.window > 1:
        notes.append(
            f"each repeat {timed.window} calls back to back and one sync, per call: the host's round trip is not "
            "charged to the op"
        )
    blas = None
    if spec.bench == "matmul" and spec.device == "cpu" and spec.dtype == "float32":
        blas = timing.blas_matmul_gflops(spec.m, spec.n, spec.k, repeats=min(5, spec.repeats))
        notes.append(f"{spec.backend} {gflops:,.1f} vs NumPy BLAS {blas:,.1f} GFLOP/s ({gflops / blas:.2f}×)")
    if math != spec.dtype:
        notes.append(f"peak and MFU taken for {math} (the math {spec.backend} uses by default for {spec.dtype})")
    if ops.math_note(spec.dtype, spec.device):
        notes.append(ops.math_note(spec.dtype, spec.device))
    return {
        **summary,
        "time_to_first_step_s": timed.first_s,
        "total_s": timed.timed_s + timed.first_s,
        "gflops": gflops,
        "peak_gflops": peak,
        "mfu_pct": 100.0 * gflops / peak if peak else None,
        "blas_gflops": blas,
        "examples_per_sec": spec.batch_size / (summary["step_time_ms_median"] / 1000)
        if spec.bench == "conv2d"
        else None,
        "replicas": 1,
        "devices_used": ",".join(sorted(used)),
        "peak_device_memory_mb": ops.peak_device_memory_mb(spec.device),
        "notes": "; ".join(notes),
    }
