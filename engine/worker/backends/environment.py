"""Version and host facts stored with a JAX or PyTorch run's result (no host name)."""

from __future__ import annotations

import importlib.util
import resource
from types import ModuleType

from engine.runs import hardware


def environment(device: str, ops: ModuleType, backend: str) -> dict:
    """`backend`: the run's name for it (torch_ops serves native PyTorch and Keras-torch); a native
    PyTorch run has no Keras version (it never imports Keras), nor has a microbenchmark where Keras is not
    installed (it needs the framework alone)."""
    keras_version = None
    if backend != "torch" and importlib.util.find_spec("keras") is not None:  # a microbenchmark runs without Keras
        import keras

        keras_version = keras.__version__
    host = hardware.host_summary()
    acc = hardware.detect_accelerators() if device == "gpu" else None
    return {
        "backend": backend,
        "framework_version": ops.version(),
        "keras_version": keras_version,
        "python_version": host["python_version"],
        "host_cores": host["host_cores"],
        "host_memory_gb": host["host_memory_gb"],
        "device_name": ops.device_name(device) if device != "cpu" else hardware.cpu_info().name,
        "driver_version": acc.gpus[0].driver_version if acc and acc.gpus else None,
        "peak_host_memory_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
    }
