"""Ray's overhead per sweep cell against a local run (issue 21): the time from handing a cell to its
dispatcher to the engine's worker reporting its first progress event ("submit → worker start": the
worker has started, opened the store and marked the run running), and from submit to the stored result
("submit → result"), for the same tiny cell run locally and as a Ray task.

    python bench/bench_sweep.py [--rounds 6] [--json]

Contenders are interleaved (local first in even rounds, Ray first in odd ones) so drift on a shared
machine hits both alike. Ray runs on a head started in this process (2 CPUs, no dashboard). Round 0's
Ray cell is reported apart: it pays for starting a Ray worker process and exporting the task; later
cells reuse a pooled worker, which is what a sweep of many cells sees. Both clocks are this machine's
time.time(); the worker's interpreter start and engine imports (the same for both) are inside the figure,
the framework's import is not (the first event comes before it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.runs.store import Store  # noqa: E402
from engine.sweep.dispatch import Dispatcher  # noqa: E402
from engine.sweep.local import LocalDispatcher  # noqa: E402
from engine.sweep.matrix import matrix_from_values  # noqa: E402
from engine.sweep.plan import new_sweep_id, plan_cells  # noqa: E402

CELL = {"models": "tiny_cnn", "batch_sizes": "16", "backends": "jax", "epochs": 1, "steps_per_epoch": 2}


def one_cell(dispatcher: Dispatcher, store: Store, sweep_id: str) -> tuple[float, float, str]:
    """(submit → the worker's first progress event s, submit → result s, status) of one cell."""
    cell = matrix_from_values(CELL).cells()[0]
    planned = plan_cells([cell], store, sweep_id)
    ended: list[float] = []
    t0 = time.time()
    dispatcher.run(planned, store, lambda p, row: ended.append(time.time()))
    job = store.get_job(planned[0].run_id) or {}
    row = store.get_run(planned[0].run_id) or {}
    first = json.loads((Path(job["run_dir"]) / "progress.jsonl").read_text().splitlines()[0])
    return first["t"] - t0, ended[0] - t0, str(row.get("status"))


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} s ({min(values):.3f}–{max(values):.3f})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import ray

    from engine.sweep.ray_dispatch import RayDispatcher

    t = time.time()
    ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=80 * 2**20, log_to_driver=False)
    init_s = time.time() - t
    store = Store(Path(tempfile.mkdtemp(prefix="bench_sweep_")) / "results.db")
    contenders: dict[str, Dispatcher] = {"local": LocalDispatcher(), "ray": RayDispatcher()}
    contenders["ray"].open(store)
    sweep_id = new_sweep_id()
    samples: dict[str, list[tuple[float, float]]] = {"local": [], "ray": [], "ray_first": []}
    for r in range(args.rounds):
        for name in ("local", "ray") if r % 2 == 0 else ("ray", "local"):
            start_s, result_s, status = one_cell(contenders[name], store, sweep_id)
            assert status == "ok", status
            key = "ray_first" if name == "ray" and not samples["ray"] and not samples["ray_first"] else name
            samples[key].append((start_s, result_s))
    ray.shutdown()
    out = {
        "ray_init_s": round(init_s, 3),
        **{
            name: {
                "n": len(vals),
                "submit_to_worker_start_s": [round(v[0], 4) for v in vals],
                "submit_to_result_s": [round(v[1], 3) for v in vals],
            }
            for name, vals in samples.items()
        },
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"ray.init (in-process head, 2 CPUs): {init_s:.2f} s")
    print("| contender | cells | submit → worker start, median (range) | submit → result, median (range) |")
    print("|---|---|---|---|")
    for name, vals in samples.items():
        print(f"| {name} | {len(vals)} | {spread([v[0] for v in vals])} | {spread([v[1] for v in vals])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
