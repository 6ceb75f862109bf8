"""TensorFlow-side device set-up and facts, shared by the microbenchmarks and training.

Only the worker process imports this. `configure` must run before anything initialises the TF
runtime: visible devices, memory growth, memory caps and logical splits cannot change afterwards.
"""

from __future__ import annotations

import os
import resource

import tensorflow as tf

from engine.catalog import hardware_table
from engine.runs import hardware
from engine.worker.errors import PlacementError  # noqa: F401  (re-exported: callers catch tfenv.PlacementError)


def configure(
    device: str,
    logical_devices: int = 1,
    memory_growth: bool = False,
    memory_limit_mb: int = 0,
    visible_devices: str = "",
) -> None:
    """Apply article 002's device settings: visible GPUs, memory growth or cap, logical split."""
    if device == "gpu":
        gpus = tf.config.list_physical_devices("GPU")
        if not gpus:
            raise PlacementError(
                "TensorFlow sees no GPU (is this a CUDA build of TensorFlow, and is the driver loaded?)"
            )
        if visible_devices:
            wanted = [int(i) for i in visible_devices.split(",")]
            missing = [i for i in wanted if i >= len(gpus)]
            if missing:
                raise PlacementError(
                    f"--visible-devices {visible_devices}: GPU {missing[0]} does not exist ({len(gpus)} GPU(s) found)"
                )
            gpus = [gpus[i] for i in wanted]
            tf.config.set_visible_devices(gpus, "GPU")
        if memory_growth:
            for gpu in gpus:
                tf.config.experimental.set_memory_growth(gpu, True)
        if logical_devices > 1 or memory_limit_mb:
            limit = memory_limit_mb or max(256, _gpu_memory_mb(0) // logical_devices - 256)
            tf.config.set_logical_device_configuration(
                gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=limit) for _ in range(logical_devices)]
            )
    elif device == "cpu":
        # Hide GPUs so "cpu" means CPU even on a GPU machine (TF would otherwise place ops on GPU:0).
        tf.config.set_visible_devices([], "GPU")
        if logical_devices > 1:
            cpu = tf.config.list_physical_devices("CPU")[0]
            tf.config.set_logical_device_configuration(
                cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(logical_devices)]
            )


def _gpu_memory_mb(index: int) -> int:
    acc = hardware.detect_accelerators()
    return int(acc.gpus[index].memory_mb) if len(acc.gpus) > index and acc.gpus[index].memory_mb else 4096


def logical_devices(device: str) -> list[str]:
    """Names of the logical devices of the requested type; PlacementError when there are none."""
    kind = device.upper()
    found = [d.name for d in tf.config.list_logical_devices(kind)]
    if not found:
        seen = ", ".join(d.name for d in tf.config.list_logical_devices()) or "none"
        raise PlacementError(f"asked for {kind} but TensorFlow has no {kind} device (it sees: {seen})")
    return found


def check_placement(device: str, used: list[str]) -> None:
    """Refuse a run whose ops ran somewhere other than where it asked (article 000's trap)."""
    kind = device.upper()
    if not used:
        raise PlacementError("could not tell where the ops ran")
    wrong = [d for d in used if f"DEVICE:{kind}:" not in d.upper()]
    if wrong:
        raise PlacementError(
            f"asked for {kind} but the ops ran on {', '.join(sorted(set(wrong)))} — no {kind} number is reported"
        )


def sync() -> None:
    """Wait for all queued device work (GPU/TPU ops are asynchronous)."""
    fn = getattr(getattr(tf.test, "experimental", None), "sync_devices", None)
    if fn is not None:
        try:
            fn()
        except RuntimeError:
            pass  # raised when there is nothing but a CPU to sync; CPU eager ops are already done
        except tf.errors.OpError:
            pass  # a multi-worker eager context cannot SyncDevice; callers also read results back, which waits


def device_name(device: str) -> str:
    if device == "gpu":
        gpus = tf.config.list_physical_devices("GPU")
        if gpus:
            details = tf.config.experimental.get_device_details(gpus[0])
            return details.get("device_name", "GPU")
    if device == "tpu":
        return os.environ.get("TPU_ACCELERATOR_TYPE") or "TPU"
    return hardware.cpu_info().name


def peak_dtype(dtype: str, device: str, op: str) -> str:
    """The math a float32 op really gets (hardware_table.float32_math): TensorFlow runs float32 matmuls and
    convolutions on TF32 by default (tf.config.experimental.enable_tensor_float_32_execution) where the GPU has it,
    so an A100's or H100's MFU is taken against its TF32 peak, not its FP32 one (which read several hundred %)."""
    if dtype != "float32" or device != "gpu":
        return dtype
    stack = "rocm" if tf.test.is_built_with_rocm() else "cuda"
    allowed = tf.config.experimental.tensor_float_32_execution_enabled()
    return hardware_table.float32_math(device_name(device), stack, op, allowed)


def peak_gflops(device: str, dtype: str) -> float | None:
    if device == "cpu":
        return hardware.cpu_peak_gflops(dtype)
    return hardware.accelerator_peak_gflops(device_name(device), dtype)


def environment(device: str) -> dict:
    """Version and host facts stored with each result (no host name)."""
    import keras

    host = hardware.host_summary()
    acc = hardware.detect_accelerators() if device == "gpu" else None
    return {
        "tf_version": tf.__version__,
        "keras_version": keras.__version__,
        "python_version": host["python_version"],
        "host_cores": host["host_cores"],
        "host_memory_gb": host["host_memory_gb"],
        "device_name": device_name(device),
        "driver_version": acc.gpus[0].driver_version if acc and acc.gpus else None,
    }


def peak_host_memory_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # ru_maxrss is KiB on Linux


def peak_device_memory_mb(device: str) -> float | None:
    if device != "gpu":
        return None
    try:
        return tf.config.experimental.get_memory_info("GPU:0")["peak"] / 2**20
    except (ValueError, RuntimeError):
        return None
