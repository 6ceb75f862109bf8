"""One line per comparison the result card shows for a run's backend and timing (no Streamlit here)."""

from __future__ import annotations

from typing import Any

from engine.catalog import backends


def _n(v: Any, unit: str = "", digits: int = 1) -> str:
    return f"{v:,.{digits}f}{unit}" if isinstance(v, (int, float)) else "—"


FLOOR_NOTE = "the CPU peak is a floor"  # what a worker writes in a run's notes when its clock was not the maximum


def peak_text(gflops: float | None, peak: float | None, device: str | None, floor: bool | None) -> tuple[str, str]:
    """('54% of peak', a one-line explanation) for the result card; ('—', '') when unknown.

    `floor`: whether a CPU peak came from a base or current clock rather than the highest the cores reach
    (None: not known, e.g. a run from another machine). Turbo runs above such a clock, so the real share of
    the peak is at most the figure shown: it is marked "≤" and explained, never capped. A CPU figure over
    100 % can only come from such a peak, so it is marked even when the basis is unknown.
    """
    if not gflops or not peak:
        return "—", ""
    pct = 100.0 * gflops / peak
    note = f"theoretical peak {peak:,.1f} GFLOP/s"
    if device != "cpu":
        return f"{pct:.0f}% of peak", note
    note += " = cores × clock × FLOPs/cycle"
    if floor or (floor is None and pct > 100):
        return f"≤ {pct:.0f}% of peak", note + (
            "; the clock is a base clock (the OS gives no maximum here), a floor: turbo runs above it, "
            "so the real share of the peak is lower than shown"
        )
    if floor is None:
        return f"{pct:.0f}% of peak", note + " (this run's clock basis is not known here)"
    return f"{pct:.0f}% of peak", note + ", at the highest clock the cores report"


# (backend, device) → (models whose ops are known to be slow there, the line the card shows)
KNOWN_SLOW: dict[tuple[str, str], tuple[frozenset[str], str]] = {
    ("jax", "cpu"): (
        frozenset(
            {"fashion_cnn", "tiny_cnn", "flowers_cnn", "vgg19", "xception", "resnet50", "resnet152v2", "inceptionv3"}
        ),
        "Known slow: XLA's CPU convolutions — fashion_cnn took 313.9 s on JAX against 66.9 s on TensorFlow on "
        "the same CPU; for a convnet on a CPU, TensorFlow or PyTorch measures the hardware better",
    ),
    ("jax", "gpu"): (
        frozenset({"matmul"}),
        "Known gap: on an H100 (2026-11-23) JAX's 8192³ bf16 matmul ran at 669 TFLOP/s (1.64 ms a call) against "
        "PyTorch's 785 (1.40 ms), both synchronised after every call; a plain PyTorch loop of 20 calls and one "
        "sync took 1.33 ms a call. The likely cause is JAX's longer dispatch and block_until_ready round trip "
        "(about 0.3 ms against torch's 0.07), which windowed timing (since 2026-11-25) leaves out; not yet "
        "re-measured on a GPU — bench/jax_peer.py separates it from XLA's choice of GEMM kernel",
    ),
}


def known_slow_line(row: dict[str, Any]) -> str | None:
    """The card's warning when the run's backend is known to be slow for its ops on its device."""
    models, line = KNOWN_SLOW.get((str(row.get("backend") or "tensorflow"), str(row.get("device") or "")), (None, ""))
    return line if models and row.get("model") in models else None


def backend_lines(row: dict[str, Any], peak_floor: bool | None = None) -> list[str]:
    """Framework vs the host's BLAS vs the peak; windowed vs step-synced vs whole-epoch throughput."""
    name = row.get("backend") or "tensorflow"
    info = backends.INFO.get(name)
    version = row.get("framework_version") or (f"tensorflow {row['tf_version']}" if row.get("tf_version") else "")
    lines = [f"Backend: {info.label if info else name}" + (f" ({version})" if version else "")]
    if row.get("gflops") is not None and (row.get("blas_gflops") or row.get("peak_gflops")):
        parts = [f"{name} {_n(row.get('gflops'))} GFLOP/s"]
        if row.get("blas_gflops"):
            parts.append(f"NumPy BLAS {_n(row['blas_gflops'])} ({row['gflops'] / row['blas_gflops']:.2f}×)")
        if row.get("peak_gflops"):
            floor = row.get("device") == "cpu" and (peak_floor or (row.get("mfu_pct") or 0) > 100)
            mfu = ("≤ " if floor else "") + _n(row.get("mfu_pct"), " %")
            parts.append(f"device peak {_n(row['peak_gflops'])}{' (a floor)' if floor else ''} (MFU {mfu})")
        lines.append(" vs ".join(parts))
    if row.get("examples_per_sec_windowed") is not None:
        line = (
            f"Throughput synced every few steps {_n(row['examples_per_sec_windowed'])} ex/s, every step "
            f"{_n(row.get('examples_per_sec_step_synced'))} ex/s, whole epochs {_n(row.get('examples_per_sec_epoch'))} ex/s"
        )
        if row.get("sync_overhead_pct") is not None:
            line += f" (syncing every step costs {_n(row['sync_overhead_pct'], ' %')})"
        lines.append(line)
    slow = known_slow_line(row)
    return [*lines, slow] if slow else lines
