"""A sweep over --input-workers (issue 38) as one frame: each ok cell's training rate and its step alone at each
input-worker count, grouped by everything else the cell ran (engine.charts.sweep.workers_figure draws it)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from engine.results.schema import ResultRow
from engine.results.status import RunStatus
from engine.sweep.summary import group_of


def _cell(r: ResultRow) -> str:
    """'flowers_cnn flowers float32 tensorflow cpu b64', plus 'cache' / 'prefetch N' where set (other pipelines)."""
    prefetch = f" prefetch {r['prefetch']}" if r.get("prefetch") is not None else ""
    return f"{group_of(r)} b{r.get('global_batch_size') or '—'}{' cache' if r.get('cache') else ''}{prefetch}"


def workers_frame(rows: Sequence[ResultRow]) -> pd.DataFrame:
    """Every ok cell that set its input workers, as (cell: group of the same model … device at one batch size,
    input_workers, examples_per_sec: training, step_examples_per_sec: the step alone) — the frame of
    `workers_figure`. Cells of an AUTOTUNE pipeline have no worker count and are left out."""
    recs = [
        {
            "cell": _cell(r),
            "input_workers": int(r["input_workers"]),  # type: ignore[arg-type]
            "examples_per_sec": r.get("examples_per_sec"),
            "step_examples_per_sec": r.get("step_examples_per_sec"),
        }
        for r in rows
        if r.get("status") == RunStatus.OK and r.get("input_workers") is not None and r.get("examples_per_sec")
    ]
    cols = ["cell", "input_workers", "examples_per_sec", "step_examples_per_sec"]
    return pd.DataFrame(recs, columns=cols).sort_values(["cell", "input_workers"], ignore_index=True)
