"""`--processes N` (issue 30): one benchmark over N processes on this host, each framework started by its own
launcher (engine.worker.launch) — what such a run may be, checked before anything starts, as (flag, one line).

A multi-process run is data parallel: the global batch (`--batch-size`) is split evenly, one device per process
(a CPU process is one device; on a GPU host one process per GPU).
"""

from __future__ import annotations

from typing import Protocol

# Backends that have a multi-process path so far, and how each is launched.
LAUNCHERS = {
    "torch": "torchrun (torch.distributed elastic agent), DDP",
    "jax": "jax.distributed.initialize over local processes",
    "tensorflow": "MultiWorkerMirroredStrategy, TF_CONFIG written by the engine",
}
MAX_PROCESSES = 64


class _Fields(Protocol):
    @property
    def processes(self) -> int: ...
    @property
    def backend(self) -> str: ...
    @property
    def device(self) -> str: ...
    @property
    def batch_size(self) -> int: ...
    @property
    def logical_devices(self) -> int: ...
    @property
    def strategy(self) -> str: ...
    @property
    def visible_devices(self) -> str: ...


def cores_warning(processes: int, device: str, cores: int) -> str | None:
    """A warning (not a refusal: the run works, and a test may want it) when CPU ranks outnumber the cores:
    ranks then share cores, so the rate measures contention, not scaling."""
    if device != "cpu" or processes <= max(cores, 1):
        return None
    return (
        f"--processes {processes} on {cores} CPU core(s): the ranks share cores, so the rate measures contention, "
        f"not data-parallel scaling; use at most {cores} for a scaling number"
    )


def processes_problem(spec: _Fields, gpu_count: int) -> tuple[str, str] | None:
    """Why `spec`'s `--processes` cannot run here (None: it can). `gpu_count` ≥ 10**6 means not checked here."""
    n = spec.processes
    if n == 1:
        return None
    if spec.backend not in LAUNCHERS:
        return "--processes", f"{n} processes run with --backend {', '.join(LAUNCHERS)} so far, not {spec.backend}"
    if spec.device == "tpu":
        return "--processes", "a TPU is driven by its own runtime, not by local processes; use 1"
    if spec.strategy not in ("auto", "default", "one_device") or spec.logical_devices > 1:
        extra = f"--strategy {spec.strategy}" if spec.logical_devices == 1 else "--logical-devices"
        return "--processes", f"a {n}-process run is already data parallel (one device per process); drop {extra}"
    gpus = len(spec.visible_devices.split(",")) if spec.visible_devices else gpu_count
    if spec.device == "gpu" and gpus < 10**6 and n > gpus:
        return "--processes", f"{n} processes need {n} GPUs (one per process); the run can see {gpus}"
    if spec.batch_size % n:
        return "--batch-size", (
            f"the global batch {spec.batch_size} does not split evenly over {n} processes; "
            f"use a multiple of {n} (e.g. {max(n, spec.batch_size // n * n)})"
        )
    return None
