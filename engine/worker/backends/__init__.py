"""Per-backend pieces of the worker for the Keras 3 backends other than TensorFlow.

`prepare_process` runs first in the worker, before Keras or any framework is imported: it sets
KERAS_BACKEND and the environment each framework reads once at import (which platform JAX uses, how
many logical host devices XLA makes, which device Keras's torch backend picks). `load` then imports
only the chosen backend's module, so a JAX run never imports TensorFlow or PyTorch.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from engine.catalog.backends import KERAS_BACKEND_OF

_JAX_PLATFORMS = {"cpu": "cpu", "gpu": "cuda", "tpu": "tpu"}


def prepare_process(backend: str, device: str, logical_devices: int = 1, visible_devices: str = "") -> None:
    """Environment for this run's framework; must run before Keras/JAX/PyTorch are imported.
    Native PyTorch (`torch`) sets no KERAS_BACKEND: it never imports Keras."""
    if backend in KERAS_BACKEND_OF:
        os.environ["KERAS_BACKEND"] = KERAS_BACKEND_OF[backend]
    if visible_devices and device == "gpu":
        os.environ["CUDA_VISIBLE_DEVICES"] = visible_devices
    if backend == "jax":
        os.environ["JAX_PLATFORMS"] = _JAX_PLATFORMS[device]
        if device == "cpu" and logical_devices > 1:
            # the JAX twin of article 002's logical CPU devices: XLA splits the host into K devices
            flags = os.environ.get("XLA_FLAGS", "")
            os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={logical_devices}".strip()
    elif backend in ("torch", "keras-torch"):
        os.environ["KERAS_TORCH_DEVICE"] = "cuda" if device == "gpu" else "cpu"
        if device == "cpu":
            os.environ["CUDA_VISIBLE_DEVICES"] = ""  # "cpu" means CPU even on a GPU machine


def load(backend: str) -> ModuleType:
    """The ops module of `backend` (jax, torch or keras-torch): device facts, sync, microbenchmark ops.
    Native PyTorch and Keras-torch time the same torch ops, so they share torch_ops."""
    return importlib.import_module(f"engine.worker.backends.{KERAS_BACKEND_OF.get(backend, backend)}_ops")
