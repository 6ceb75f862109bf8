"""How many replicas a training run will have, and which strategy `auto` means — known before any
framework starts, so the launcher, the form and the worker agree."""

from __future__ import annotations

from typing import Protocol


class TrainSpec(Protocol):
    """The settings of a training spec (engine.catalog.specs.TrainSpec) that decide its replicas."""

    @property
    def strategy(self) -> str: ...
    @property
    def backend(self) -> str: ...
    @property
    def device(self) -> str: ...
    @property
    def logical_devices(self) -> int: ...
    @property
    def visible_devices(self) -> str: ...


def planned_replicas(spec: TrainSpec, gpu_count: int) -> int | None:
    """Replicas the strategy will have, when knowable before TF starts (None for TPU/multi-worker)."""
    strategy = resolve_strategy(spec, gpu_count)
    if strategy in ("default", "one_device"):
        return 1
    if strategy == "mirrored":
        if spec.device == "cpu" or spec.logical_devices > 1:
            return spec.logical_devices
        gpus = gpus_used(spec, gpu_count)
        # the worker re-validates with a huge count ("not checked here"): the real count is checked once
        # the strategy exists (engine.worker.strategies), never against a made-up one
        return gpus if gpus < UNKNOWN_GPU_COUNT else None
    return None


UNKNOWN_GPU_COUNT = 10**6  # what engine.worker passes: device counts were checked by the launcher


def gpus_used(spec: TrainSpec, gpu_count: int) -> int:
    """GPUs a run can see: --visible-devices narrows the machine's count."""
    return len(spec.visible_devices.split(",")) if spec.visible_devices else gpu_count


def resolve_strategy(spec: TrainSpec, gpu_count: int) -> str:
    """`auto` → the strategy the device and counts imply; explicit choices pass through."""
    if spec.strategy != "auto":
        return spec.strategy
    if spec.backend in ("torch", "keras-torch"):
        return "default"  # native PyTorch runs have no DDP yet; Keras's torch backend trains on one device
    if spec.device == "tpu":
        return "tpu"
    if spec.logical_devices > 1 or (spec.device == "gpu" and gpus_used(spec, gpu_count) > 1):
        return "mirrored"
    return "default"
