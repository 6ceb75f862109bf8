"""A sweep's rows as the Sweep page shows them (pure, pandas only): the cell grid with live status, the
throughput heatmap, the best cell per machine by examples/s and by USD per million examples, the
batch-size curve (every batch tried, max-batch attempts included), and the scaling over `--processes`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from engine.results.schema import ResultRow
from engine.results.status import RunStatus

SECONDS_PER_HOUR = 3600.0
# a worker's out-of-memory (engine.worker.main.explain) or the launcher's memory estimate refusing a batch
MEMORY_WORDS = ("out of memory", "needs about")


def out_of_memory(error: object) -> bool:
    """Whether a cell's error says its batch did not fit (the max-batch search and the batch-size curve)."""
    return any(w in str(error or "") for w in MEMORY_WORDS)


GROUP_COLUMNS = ("model", "dataset", "precision", "backend", "device")


def machine_of(row: ResultRow) -> str:
    """Which machine ran a cell: the Ray node, else the device name the worker saw, else this machine."""
    return str(row.get("node") or row.get("device_name") or "this machine")


def usd_per_million(row: ResultRow) -> float | None:
    """USD per million examples: the worker's own figure, else the run's price per hour over its rate."""
    own = row.get("cost_usd_per_million_examples")
    if own:
        return float(own)
    price, rate = row.get("price_per_hour_usd"), row.get("examples_per_sec")
    if price and rate:
        return float(price) / (float(rate) * SECONDS_PER_HOUR) * 1e6
    return None


def processes_of(row: ResultRow) -> int:
    return int(row.get("processes") or 1)


def group_of(row: ResultRow, with_processes: bool = True) -> str:
    """A cell's group (model … device), and `×N processes` for a multi-process run."""
    group = " ".join(str(row.get(c) or "—") for c in GROUP_COLUMNS)
    return group + (f" ×{processes_of(row)} processes" if with_processes and processes_of(row) > 1 else "")


def workers_text(row: ResultRow) -> str:
    """' · input workers N' (or 'auto') for a cell of a sweep over --input-workers, else ''."""
    workers = row.get("input_workers")
    return "" if workers is None else f" · input workers {'auto' if int(workers) == 0 else int(workers)}"


def grid(rows: Sequence[ResultRow]) -> pd.DataFrame:
    """One line per cell, in matrix order; cells that differ only in input workers are separate lines (else the
    heatmap and the batch-size curve would stack them at one batch size)."""
    records = []
    for r in rows:
        group = group_of(r) + workers_text(r)
        records.append(
            {
                "cell": group,
                "batch_size": r.get("global_batch_size"),
                "status": r.get("status"),
                "machine": machine_of(r),
                "examples_per_sec": r.get("examples_per_sec"),
                "usd_per_million_examples": usd_per_million(r),
                "error": r.get("error"),
                "run_id": r.get("run_id"),
            }
        )
    columns = [
        "cell",
        "batch_size",
        "status",
        "machine",
        "examples_per_sec",
        "usd_per_million_examples",
        "error",
        "run_id",
    ]
    return pd.DataFrame(records, columns=columns)


def heatmap(rows: Sequence[ResultRow]) -> pd.DataFrame:
    """examples/s of the ok cells: one row per cell group (model … device), one column per batch size."""
    table = grid([r for r in rows if r.get("status") == RunStatus.OK])
    if table.empty:
        return pd.DataFrame()
    return table.pivot_table(index="cell", columns="batch_size", values="examples_per_sec", aggfunc="median")


def best_per_machine(rows: Sequence[ResultRow]) -> pd.DataFrame:
    """For each machine, its fastest ok cell (examples/s) and its cheapest (USD per million examples)."""
    table = grid([r for r in rows if r.get("status") == RunStatus.OK and r.get("examples_per_sec")])
    out = []
    for machine, part in table.groupby("machine", sort=True):
        fastest = part.loc[part["examples_per_sec"].idxmax()]
        priced = part.dropna(subset=["usd_per_million_examples"])
        cheapest = priced.loc[priced["usd_per_million_examples"].idxmin()] if not priced.empty else None
        out.append(
            {
                "machine": machine,
                "fastest_cell": f"{fastest['cell']} b{fastest['batch_size']}",
                "examples_per_sec": fastest["examples_per_sec"],
                "cheapest_cell": f"{cheapest['cell']} b{cheapest['batch_size']}" if cheapest is not None else None,
                "usd_per_million_examples": cheapest["usd_per_million_examples"] if cheapest is not None else None,
            }
        )
    columns = ["machine", "fastest_cell", "examples_per_sec", "cheapest_cell", "usd_per_million_examples"]
    return pd.DataFrame(out, columns=columns)


def batch_curve(rows: Sequence[ResultRow]) -> pd.DataFrame:
    """Every ended cell as (group, batch size, examples/s, fits, out_of_memory): the throughput at each tried
    batch size; a failed cell is out of memory only where its error says so (else it failed for another reason)."""
    table = grid([r for r in rows if r.get("status") in (RunStatus.OK, RunStatus.FAILED)])
    table["fits"] = table["status"] == RunStatus.OK
    table["out_of_memory"] = ~table["fits"] & table["error"].map(out_of_memory).astype(bool)
    columns = ["cell", "batch_size", "examples_per_sec", "fits", "out_of_memory"]
    return table[columns].sort_values(["cell", "batch_size"])


def scaling(rows: Sequence[ResultRow]) -> pd.DataFrame:
    """The ok cells of a `--processes 1,2,4` sweep against ideal, per group and global batch: the rate at N
    processes, ideal (N × the rate at 1) and efficiency = rate at N ÷ (N × rate at 1), with its spread (lowest
    and highest over repeated cells at N, against the median at 1), the group's model (for the published
    curves of the same model) and the Ray nodes the cells at N spread over (`--nodes`). Empty without a group run at 1 and at N > 1."""
    columns = ["cell", "batch_size", "processes", "examples_per_sec", "ideal", "efficiency", "low", "high", "runs"]
    ok = [r for r in rows if r.get("status") == RunStatus.OK and r.get("examples_per_sec")]
    table = pd.DataFrame(
        [
            {
                "cell": group_of(r, with_processes=False),
                "batch_size": r.get("global_batch_size"),
                "processes": processes_of(r),
                "rate": float(r.get("examples_per_sec") or 0.0),
                "model": str(r.get("model") or ""),
                "nodes": len(str(r.get("node") or "").split("; ")),  # a cell across Ray nodes lists each (--nodes)
            }
            for r in ok
        ],
        columns=["cell", "batch_size", "processes", "rate", "model", "nodes"],
    )
    out = []
    for (cell, batch), part in table.groupby(["cell", "batch_size"], sort=False):
        base = part[part["processes"] == 1]["rate"].median()
        if pd.isna(base) or part["processes"].nunique() < 2:
            continue
        model = part["model"].iloc[0]  # the model is the group's first column: one per group
        for n, at_n in part.groupby("processes", sort=True):
            eff = at_n["rate"] / (n * base)
            rate, nodes = at_n["rate"].median(), int(at_n["nodes"].max())
            out.append([cell, batch, n, rate, n * base, eff.median(), eff.min(), eff.max(), len(eff), model, nodes])
    return pd.DataFrame(out, columns=[*columns, "model", "nodes"])


# How a cell reads in the status grid: a mark per status, then the throughput once it ran.
STATUS_MARKS = {
    RunStatus.OK: "✓",
    RunStatus.FAILED: "✗",
    RunStatus.RUNNING: "▶",
    RunStatus.QUEUED: "…",
    RunStatus.CANCELLED: "■",
    RunStatus.INTERRUPTED: "⚠",
    RunStatus.TIMEOUT: "◔",  # a glyph DejaVu has (no emoji font on a server)
}


def status_grid(rows: Sequence[ResultRow]) -> pd.DataFrame:
    """The cells as a grid: one row per cell group (model … device), one column per batch size, each cell its
    status mark and word, with examples/s once it ran ok (several runs of one cell: the newest)."""
    table = grid(rows)
    if table.empty:
        return pd.DataFrame()

    def text(r: pd.Series) -> str:
        mark = STATUS_MARKS.get(r["status"], "?")
        rate = (
            f" {r['examples_per_sec']:,.0f}/s"
            if r["status"] == RunStatus.OK and pd.notna(r["examples_per_sec"])
            else ""
        )
        return f"{mark} {r['status']}{rate}"

    table["shown"] = table.apply(text, axis=1)
    out = table.pivot_table(index="cell", columns="batch_size", values="shown", aggfunc="last", sort=False)
    out.columns = [f"batch {c}" for c in out.columns]
    return out.fillna("")
