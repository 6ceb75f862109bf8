"""One line per comparison the result card shows for a run's backend and timing (no Streamlit here)."""

from __future__ import annotations

from typing import Any

from engine.spec import backends


def _n(v: Any, unit: str = "", digits: int = 1) -> str:
    return f"{v:,.{digits}f}{unit}" if isinstance(v, (int, float)) else "—"


def backend_lines(row: dict[str, Any]) -> list[str]:
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
            parts.append(f"device peak {_n(row['peak_gflops'])} (MFU {_n(row.get('mfu_pct'), ' %')})")
        lines.append(" vs ".join(parts))
    if row.get("examples_per_sec_windowed") is not None:
        line = (
            f"Throughput synced every few steps {_n(row['examples_per_sec_windowed'])} ex/s, every step "
            f"{_n(row.get('examples_per_sec_step_synced'))} ex/s, whole epochs {_n(row.get('examples_per_sec_epoch'))} ex/s"
        )
        if row.get("sync_overhead_pct") is not None:
            line += f" (syncing every step costs {_n(row['sync_overhead_pct'], ' %')})"
        lines.append(line)
    return lines
