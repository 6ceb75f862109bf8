"""Strategy per backend for JAX and PyTorch runs (TensorFlow's are in engine.worker.strategies).

jax   default/one_device: one device, no distribution. mirrored: `keras.distribution.DataParallel`
      over every device of the kind — several GPUs, TPU cores, or K logical CPU devices made by
      XLA's host-device-count flag (set before JAX starts: engine.worker.backends.prepare_process).
torch one device; several are refused by the spec (Keras's torch backend has no data-parallel fit).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import keras

from engine.catalog.replicas import resolve_strategy
from engine.catalog.specs import TrainSpec
from engine.worker.errors import PlacementError


@dataclass(frozen=True)
class BackendStrategy:
    name: str
    replicas: int
    devices: tuple[str, ...]
    physical_devices: int  # chips whose peak adds up (K logical CPU devices are still one CPU)


def apply_strategy(spec: TrainSpec, ops: ModuleType) -> BackendStrategy:
    """Set up the run's distribution (before the model is built) and say what it is."""
    name = resolve_strategy(spec, gpu_count=len(ops.devices(spec.device)) if spec.device == "gpu" else 0)
    devs = [ops.describe(d) for d in ops.devices(spec.device)]
    if name != "mirrored":
        return BackendStrategy(name, 1, tuple(devs[:1]), 1)
    if ops.NAME != "jax":
        raise PlacementError(f"--strategy mirrored is not available with --backend {spec.backend}")
    if len(devs) < 2:
        raise PlacementError(f"mirrored needs 2 or more {spec.device.upper()} devices; JAX sees {len(devs)}")
    if spec.batch_size % len(devs):
        raise PlacementError(f"the global batch {spec.batch_size} does not divide across {len(devs)} devices")
    keras.distribution.set_distribution(
        keras.distribution.DataParallel(devices=keras.distribution.list_devices(spec.device))
    )
    physical = 1 if spec.device == "cpu" else len(devs)
    return BackendStrategy("data_parallel", len(devs), tuple(devs), physical)


def check_placement(spec: TrainSpec, ops: ModuleType, resolved: BackendStrategy, used: set[str]) -> None:
    """The variables live on the asked-for kind of device, on as many devices as there are replicas."""
    wrong = sorted(d for d in used if ops.kind_of(d) != spec.device)
    if not used or wrong:
        raise PlacementError(
            f"asked for {spec.device.upper()} but the variables live on {', '.join(wrong) or 'an unknown device'}"
        )
    if len(used) < resolved.replicas:
        raise PlacementError(f"{resolved.replicas} replicas planned but the variables live on {len(used)} device(s)")
