"""Multi-process runs on one host (`--processes N`, issue 30), each framework started by its own launcher.

The worker (`python -m engine.worker RUN_DIR`) is the agent: it starts the ranks, waits for them, and stores
the one result row as for any run; the ranks write no row, only their own file (ranks.py) in the run folder.

  ranks.py       a rank's identity, its result file, sharding the global batch, the merged row's columns,
                 dying with the agent, and a small model's final weights kept for the correctness test
  torchrun.py    native PyTorch: torch's elastic agent (what torchrun runs), a rank failure named in one line
  torch_rank.py  one PyTorch rank: `python -m engine.worker.launch.torch_rank RUN_DIR`, gloo/NCCL, DDP
  torch_ddp.py   what a PyTorch rank changes in the ordinary run (engine.worker.torch_native.run): device, DDP,
                 the epoch's loss and accuracy all-reduced
  local.py       JAX and TensorFlow: our own local launcher (they have none for one host) — start, watch, stop
  tf_rank.py     one TensorFlow rank: MultiWorkerMirroredStrategy from the TF_CONFIG local.py wrote
  jax_rank.py    one JAX rank: `python -m engine.worker.launch.jax_rank RUN_DIR`, jax.distributed.initialize
  jax_dp.py      what a JAX rank changes in engine.worker.train_backend: Keras DataParallel over the global mesh
"""

from __future__ import annotations

from pathlib import Path

from engine.catalog.specs import TrainSpec
from engine.runs.progress import Reporter


def run_processes(spec: TrainSpec, report: Reporter) -> dict:
    """Run `spec` over `spec.processes` local processes and return the one result row (rank 0's, merged)."""
    assert report.path is not None, "a multi-process run needs its run folder"
    run_dir = Path(report.path).parent
    if spec.backend == "torch":
        from engine.worker.launch import torchrun

        return torchrun.launch(spec, report, run_dir)
    from engine.worker.launch import local

    return local.launch(spec, report, run_dir)  # JAX and TensorFlow: our own local launcher
