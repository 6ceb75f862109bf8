"""A CPU's brand string as the OS reports it (/proc/cpuinfo's `model name`, lscpu, and MLPerf's
host_processor_model_name copied from them): `AMD EPYC 7763 64-Core Processor`, `Intel(R) Xeon(R) w7-2495X`,
`Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz` — read as the product (EPYC 7763, Xeon w7-2495X, Xeon Platinum 8380):
the vendor, trademarks, core count, clock and the word Processor say nothing the product does not.

Pure Python; no pandas, no streamlit.
"""

from __future__ import annotations

import re

# The product lines whose names are CPUs' (a GPU's model-number reading would take `w7` of `Xeon w7-2495X`).
_CPU_LINE = re.compile(r"\b(?:xeon|epyc|ryzen|threadripper|opteron|core i\d|pentium|celeron)\b|\bcore\(tm\)", re.I)
_NOISE = re.compile(
    r"\((?:r|tm)\)|\b(?:amd|intel)\b|\bcpu\b|@ ?[\d.]+ ?[gm]hz|\b\d+-core\b|\bprocessor\b|\bwith radeon.*$", re.I
)


def cpu_name(text: str) -> str | None:
    """The CPU product a brand string names ('EPYC 7763'), None when the text names no CPU product line."""
    if not _CPU_LINE.search(text):
        return None
    return " ".join(_NOISE.sub(" ", text).split()).strip(" ·-–,:;|") or None  # 'CPU · AMD EPYC': no bare '·'
