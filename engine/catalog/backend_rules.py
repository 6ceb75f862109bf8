"""What JAX and PyTorch runs cannot do (yet), refused before a worker starts, as (flag, one line)."""

from __future__ import annotations

from typing import Protocol

from engine.catalog import backends
from engine.catalog.framework_support import pillow_install_command


class _TrainFields(Protocol):
    """The TrainSpec fields these rules read (engine.catalog.specs calls here: no import back, no cycle)."""

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
    @property
    def xla(self) -> bool: ...
    @property
    def torch_compile(self) -> bool: ...
    @property
    def model_file(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def data_dir(self) -> str: ...


def backend_problem(spec: _TrainFields, strategy: str) -> tuple[str, str] | None:
    if not spec.torch_compile and spec.backend != "torch":
        return "--no-compile", f"turns off torch.compile of --backend torch (native PyTorch), not {spec.backend}"
    if spec.backend == "tensorflow":
        return None
    if spec.backend == "torch":
        problem = _native_torch_problem(spec)
        if problem:
            return problem
    gs = spec.data_dir.startswith("gs://")
    if spec.dataset == "flowers" and gs and spec.backend != "torch" and not backends.installed("tensorflow"):
        return "--data-dir", (  # files on this machine: torch's DataLoader, or the NumPy/PIL pipeline on Keras
            "a gs:// path is read through tf.data only, which needs TensorFlow; "
            f"{backends.INFO['tensorflow'].install}, or copy the files to this machine (gsutil -m cp -r)"
        )
    if spec.dataset == "flowers" and not gs and not backends.pillow_installed():
        return "--dataset", (
            f"flowers JPEGs are decoded by Pillow on --backend {spec.backend}, which is not installed here; "
            f"install it with: {pillow_install_command(spec.backend)}"
        )
    if strategy in ("tpu", "multi_worker"):
        return "--strategy", f"{strategy} runs only with --backend tensorflow so far"
    if spec.memory_growth or spec.memory_limit_mb:
        return "--memory-limit-mb", f"GPU memory settings apply to --backend tensorflow only, not {spec.backend}"
    if spec.backend == "torch" and (strategy == "mirrored" or spec.logical_devices > 1):
        flag = "--logical-devices" if spec.logical_devices > 1 else "--strategy"
        return flag, (
            "--backend torch runs data parallel as one process per device (DDP): use --processes N instead of "
            f"{'logical devices' if spec.logical_devices > 1 else 'a mirrored strategy'}"
        )
    if spec.backend == "keras-torch" and (strategy == "mirrored" or spec.logical_devices > 1):
        return "--strategy", (
            "--backend keras-torch runs on one device (Keras's torch backend has no data-parallel fit); use "
            "--backend torch --processes N, or jax or tensorflow, for several devices"
        )
    if spec.backend == "jax" and spec.device == "gpu" and spec.logical_devices > 1:
        return "--logical-devices", "JAX cannot split one GPU into logical devices; use the CPU or several GPUs"
    return None


# The zoo models native PyTorch builds (engine.worker.torch_native.models.BUILDERS, checked there).
NATIVE_TORCH_MODELS = (
    *("fashion_cnn", "tiny_cnn", "flowers_cnn", "reuters_conv1d", "bilstm", "resnet50", "vgg19", "inceptionv3"),
    *("gpt2_small", "gpt_tiny", "bert_base", "bert_tiny"),
)


def _native_torch_problem(spec: _TrainFields) -> tuple[str, str] | None:
    """What native PyTorch cannot do: it never imports TensorFlow or Keras, and compiles with torch.compile."""
    if spec.model and spec.model not in NATIVE_TORCH_MODELS:
        return "--model", (
            f"{spec.model} is not in the native PyTorch zoo yet ({', '.join(NATIVE_TORCH_MODELS)}); "
            "run it with --backend keras-torch"
        )
    if spec.xla:
        return "--xla", "native PyTorch compiles with torch.compile (on by default; --no-compile turns it off)"
    if spec.device == "tpu":
        return "--device", "native PyTorch cannot drive a TPU here (that needs torch_xla); use --backend jax"
    if spec.model_file:
        return "--model-file", "a saved .keras model runs on Keras: use --backend keras-torch (or tensorflow, jax)"
    return None
