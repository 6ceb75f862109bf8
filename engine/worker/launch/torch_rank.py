"""One rank of a native PyTorch multi-process run: `python -m engine.worker.launch.torch_rank RUN_DIR`, started by
torch's elastic agent (engine.worker.launch.torchrun) with RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR/PORT set.

It joins the process group (gloo on the CPU, NCCL on GPUs) within the join timeout, runs the ordinary native
run with DDP (engine.worker.torch_native.run), and writes its result file; rank 0's holds the row and series.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from datetime import timedelta
from pathlib import Path

from engine.worker.launch.ranks import HOLD_RANK, Rank, die_with_agent, join_timeout_s, write_rank


def main(run_dir: str) -> int:
    die_with_agent()
    path = Path(run_dir)
    rank = Rank.from_env()
    from engine.spec.replicas import UNKNOWN_GPU_COUNT
    from engine.spec.specs import TrainSpec, spec_from_dict
    from engine.worker import backends

    spec = spec_from_dict(json.loads((path / "spec.json").read_text()), gpu_count=UNKNOWN_GPU_COUNT)
    assert isinstance(spec, TrainSpec)
    backends.prepare_process(spec.backend, spec.device, 1, spec.visible_devices)
    import torch.distributed as dist

    from engine.runs.progress import Reporter
    from engine.worker.torch_native.run import run_training_native

    backend = "nccl" if spec.device == "gpu" else "gloo"
    timeout = join_timeout_s()
    if os.environ.get(HOLD_RANK) == str(rank.rank):  # the fault test's rank that never joins
        time.sleep(10 * timeout)
    write_rank(path, rank.rank, {"rank": rank.rank, "state": "joining", "join_timeout_s": timeout})
    try:
        dist.init_process_group(backend, timeout=timedelta(seconds=timeout))
    except Exception as exc:  # noqa: BLE001 — a rendezvous that never completes: one line, then exit
        why = f"not all {rank.world} ranks joined within the {timeout:g} s join timeout ({type(exc).__name__})"
        write_rank(path, rank.rank, {"rank": rank.rank, "error": why, "join_timeout_s": timeout})
        print(f"rank {rank.rank}: {why}: {exc}", file=sys.stderr)
        return 3
    write_rank(path, rank.rank, {"rank": rank.rank, "state": "joined"})
    report = Reporter(path if rank.rank == 0 else None)
    try:
        row = run_training_native(spec, report, backends.load(spec.backend), rank)
    except Exception as exc:  # noqa: BLE001 — the agent names this rank; its file says why
        from engine.worker.main import explain

        write_rank(path, rank.rank, {"rank": rank.rank, "error": explain(exc)})
        raise
    try:
        payload = {"rank": rank.rank, "host": rank.host, "step_ms_median": row.get("step_time_ms_median")}
        payload["device"] = row.get("devices_used", "")
        if rank.rank == 0:
            payload |= {"row": row, "series": report.series}
        write_rank(path, rank.rank, payload)
        dist.barrier()  # no rank leaves (and tears down the group) while another still needs it
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1]))
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
