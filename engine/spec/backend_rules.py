"""What JAX and PyTorch runs cannot do (yet), refused before a worker starts, as (flag, one line)."""

from __future__ import annotations

from typing import Protocol

from engine.spec import backends


class _TrainFields(Protocol):
    """The TrainSpec fields these rules read (engine.spec.specs calls here: no import back, no cycle)."""

    @property
    def backend(self) -> str: ...
    @property
    def dataset(self) -> str: ...
    @property
    def device(self) -> str: ...
    @property
    def logical_devices(self) -> int: ...
    @property
    def memory_growth(self) -> bool: ...
    @property
    def memory_limit_mb(self) -> int: ...


def backend_problem(spec: _TrainFields, strategy: str) -> tuple[str, str] | None:
    if spec.backend == "tensorflow":
        return None
    if spec.dataset == "flowers" and not backends.installed("tensorflow"):
        return "--dataset", (
            "flowers TFRecords are read through tf.data, which needs TensorFlow; "
            f"{backends.INFO['tensorflow'].install} or use --dataset synthetic"
        )
    if strategy in ("tpu", "multi_worker"):
        return "--strategy", f"{strategy} runs only with --backend tensorflow so far"
    if spec.memory_growth or spec.memory_limit_mb:
        return "--memory-limit-mb", f"GPU memory settings apply to --backend tensorflow only, not {spec.backend}"
    if spec.backend == "torch" and (strategy == "mirrored" or spec.logical_devices > 1):
        return "--strategy", (
            "--backend torch runs on one device (Keras's torch backend has no data-parallel fit); "
            "use --backend jax or tensorflow for several devices"
        )
    if spec.backend == "jax" and spec.device == "gpu" and spec.logical_devices > 1:
        return "--logical-devices", "JAX cannot split one GPU into logical devices; use the CPU or several GPUs"
    return None
