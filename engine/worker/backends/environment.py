"""Version and host facts stored with a JAX or PyTorch run's result (no host name)."""

from __future__ import annotations

import resource
from types import ModuleType

from engine.runs import hardware


def environment(device: str, ops: ModuleType) -> dict:
    import keras

    host = hardware.host_summary()
    acc = hardware.detect_accelerators() if device == "gpu" else None
    return {
        "backend": ops.NAME,
        "framework_version": ops.version(),
        "keras_version": keras.__version__,
        "python_version": host["python_version"],
        "host_cores": host["host_cores"],
        "host_memory_gb": host["host_memory_gb"],
        "device_name": ops.device_name(device) if device != "cpu" else hardware.cpu_info().name,
        "driver_version": acc.gpus[0].driver_version if acc and acc.gpus else None,
        "peak_host_memory_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
    }
