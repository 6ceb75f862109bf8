"""One rank of a native PyTorch multi-process run: `python -m engine.worker.launch.torch_rank RUN_DIR`, started by
torch's elastic agent (engine.worker.launch.torchrun) with RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR/PORT set.

It joins the process group (gloo on the CPU, NCCL on GPUs) within the join timeout, runs the ordinary native
run with DDP (engine.worker.torch_native.run), and writes its result file; rank 0's holds the row and series.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine.worker.launch.rank_main import join, load_train_spec, run, train_and_write
from engine.worker.launch.ranks import Rank, die_with_agent


def main(run_dir: str) -> int:
    die_with_agent()
    path = Path(run_dir)
    rank = Rank.from_env()
    from engine.worker import backends

    spec = load_train_spec(path)
    backends.prepare_process(spec.backend, spec.device, 1, spec.visible_devices)
    import torch.distributed as dist

    from engine.worker.torch_native.run import run_training_native

    backend = "nccl" if spec.device == "gpu" else "gloo"
    if not join(path, rank, lambda timeout_s: dist.init_process_group(backend, timeout=timedelta(seconds=timeout_s))):
        return 3
    # The join timeout bounds the join only. As the group's timeout it also bounded every collective: on a loaded
    # host one rank still compiling its first step (torch.compile) while the other waited in the all-reduce past
    # it ended the run "rank 1 … exited with code 1" (issue 37). After the join, the run's own timeout (its
    # watchdog) bounds a collective, as it bounds the run.
    dist.distributed_c10d._set_pg_timeout(timedelta(seconds=spec.timeout_s))
    train_and_write(path, rank, lambda report: run_training_native(spec, report, backends.load(spec.backend), rank))
    try:
        dist.barrier()  # no rank leaves (and tears down the group) while another still needs it
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    run(main)
