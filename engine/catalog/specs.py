"""Typed run specs and their validation — all before TensorFlow is imported.

A bad field raises `SpecError`, whose message is one line naming the field and what is allowed.
`spec_from_dict` is the one entry point (CLI, pages and the worker all go through it), so the
rules cannot drift apart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.catalog import backends, catalog
from engine.catalog.backend_rules import backend_problem
from engine.catalog.fields import SpecError, boolean, choice, fill, flag, number, whole
from engine.catalog.input_spec import input_fields, users_folder
from engine.catalog.processes import MAX_PROCESSES, processes_problem
from engine.catalog.replicas import planned_replicas, resolve_strategy
from engine.catalog.user_model_spec import user_model_fields

DEVICES = ("cpu", "gpu", "tpu")
DTYPES = ("float32", "float16", "bfloat16")
PRECISIONS = ("float32", "mixed_float16", "mixed_bfloat16")
STRATEGIES = ("auto", "default", "one_device", "mirrored", "tpu", "multi_worker")
BENCHES = ("matmul", "conv2d")

# Caps that keep one request from being absurd on any machine; demo mode tightens them.
MAX_DIM = 1_000_000
MAX_ELEMENTS = 4_000_000_000  # per operand/result tensor
MAX_REPEATS = 10_000
MAX_TIMEOUT_S = 7 * 24 * 3600
MAX_PRICE_PER_HOUR_USD = 10_000

# (lowest, highest) allowed value of each numeric field. Validation and the Run page's form both read
# these, so a bound is written once; the defaults are the dataclasses' own.
_COMMON_BOUNDS: dict[str, tuple[float, float]] = {
    "price_per_hour_usd": (0, MAX_PRICE_PER_HOUR_USD),
    "timeout_s": (1, MAX_TIMEOUT_S),
}
MICRO_BOUNDS: dict[str, tuple[float, float]] = {
    **{f: (1, MAX_DIM) for f in ("m", "n", "k", "batch_size", "height", "width", "channels", "filters", "kernel_size")},
    "repeats": (1, MAX_REPEATS),
    "warmup": (0, MAX_REPEATS),
    **_COMMON_BOUNDS,
}
TRAIN_BOUNDS: dict[str, tuple[float, float]] = {
    "batch_size": (1, 1_048_576),
    "epochs": (1, 10_000),
    "steps_per_epoch": (1, 1_000_000),
    "validation_steps": (0, 100_000),
    "logical_devices": (1, 64),
    "processes": (1, MAX_PROCESSES),
    "memory_limit_mb": (0, 10_000_000),
    "host_memory_limit_mb": (0, 10_000_000),
    **_COMMON_BOUNDS,
}


@dataclass(frozen=True)
class MicroSpec:
    """A matmul or conv2d microbenchmark.

    Attributes:
      bench: "matmul" or "conv2d".
      m, n, k: matmul sizes, (m×k) @ (k×n).
      batch_size, height, width, channels, filters, kernel_size: conv2d input and kernel.
      dtype: float32, float16 or bfloat16.
      xla: compile the op with XLA (`jit_compile=True`).
      repeats: timed repetitions after warm-up (median and p10/p90 come from these).
      warmup: untimed repetitions first (tracing, compile, caches).
      device: cpu, gpu or tpu — the placement is verified, not assumed.
      backend: the framework whose own op is timed: tensorflow, jax or torch.
      price_per_hour_usd: optional, for cost_usd.
      timeout_s: the run is killed and recorded `timeout` past this.
    """

    bench: str = "matmul"
    m: int = 2048
    n: int = 2048
    k: int = 2048
    batch_size: int = 16
    height: int = 256
    width: int = 256
    channels: int = 3
    filters: int = 256
    kernel_size: int = 5
    dtype: str = "float32"
    xla: bool = False
    repeats: int = 10
    warmup: int = 2
    device: str = "cpu"
    backend: str = backends.DEFAULT_BACKEND
    price_per_hour_usd: float = 0.0
    timeout_s: float = 600.0

    kind = property(lambda self: self.bench)


@dataclass(frozen=True)
class TrainSpec:
    """A timed training run.

    Attributes:
      model, dataset: registry names (engine.catalog.catalog).
      data_dir: a local folder or gs:// path for file-backed datasets (flowers TFRecords).
      batch_size: the GLOBAL batch; per replica = batch_size / replicas.
      epochs, steps_per_epoch: the run's length; the first epoch is reported apart.
      validation_steps: validation batches at the end of each epoch (0 = none).
      device: cpu, gpu or tpu.
      strategy: auto picks from the device and counts; or default, one_device, mirrored, tpu, multi_worker.
      logical_devices: split the CPU or the one GPU into K logical devices (article 002's trick).
      processes: data parallel over N processes on this host, started by the framework's launcher (issue 30).
      precision: float32, mixed_float16 or mixed_bfloat16.
      xla, torch_compile: jit_compile the train step; torch.compile a native PyTorch model (off: `--no-compile`).
      memory_growth, memory_limit_mb, visible_devices: GPU settings, applied before TF initialises.
      host_memory_limit_mb: cap on the worker process's address space (RLIMIT_AS, 0 = none), set before
        the framework is imported: past it the framework's own allocation fails with its out-of-memory
        error (how `engine sweep --max-batch` is tested on a CPU).
      tpu: TPU name or grpc:// address (else TPU_NAME / COLAB_TPU_ADDR, else a local TPU VM).
      input_workers, prefetch, cache: the file pipeline (engine.catalog.input_spec); 0 = AUTOTUNE.
      backend: what runs the model: Keras 3 on tensorflow, jax or keras-torch; or torch, native PyTorch.
      model_file, model_fn, model_path, unsafe_model_code, loss, optimizer, data_npz: the user's own Keras
        model instead of a zoo name, and how it is fed and compiled (engine.catalog.user_model_spec).
      price_per_hour_usd: optional, for cost_usd.
      timeout_s: the run is killed and recorded `timeout` past this.
    """

    model: str = "fashion_cnn"
    dataset: str = "synthetic"
    data_dir: str = ""
    batch_size: int = 256
    epochs: int = 3
    steps_per_epoch: int = 20
    validation_steps: int = 0
    device: str = "cpu"
    strategy: str = "auto"
    logical_devices: int = 1
    processes: int = 1
    precision: str = "float32"
    xla: bool = False
    torch_compile: bool = True
    memory_growth: bool = False
    memory_limit_mb: int = 0
    host_memory_limit_mb: int = 0
    visible_devices: str = ""
    tpu: str = ""
    backend: str = backends.DEFAULT_BACKEND
    model_file: str = ""
    model_fn: str = ""
    model_path: str = ""
    unsafe_model_code: bool = False
    loss: str = "auto"
    optimizer: str = "adam"
    data_npz: str = ""
    input_workers: int = 0
    prefetch: int = 0
    cache: bool = False
    price_per_hour_usd: float = 0.0
    timeout_s: float = 3600.0

    kind = property(lambda self: "train")
    user_model = property(lambda self: bool(self.model_file or self.model_fn))


Spec = MicroSpec | TrainSpec


def _backend(d: dict, needs_keras: bool = True) -> str:
    name = choice(d, "backend", backends.BACKENDS)
    if problem := backends.not_installed_reason(name, needs_keras):
        raise SpecError("--backend", problem)
    return name


def validate_micro(raw: dict[str, Any]) -> MicroSpec:
    d = fill(MicroSpec, raw)
    out: dict[str, Any] = {  # MicroSpec's fields, each checked
        "bench": choice(d, "bench", BENCHES),
        "dtype": choice(d, "dtype", DTYPES),
        "xla": boolean(d, "xla"),
        "repeats": whole(d, "repeats", MICRO_BOUNDS),
        "warmup": whole(d, "warmup", MICRO_BOUNDS),
        "device": choice(d, "device", DEVICES),
        "backend": _backend(d, needs_keras=False),  # a matmul or conv2d is the framework's own op
        "price_per_hour_usd": number(d, "price_per_hour_usd", MICRO_BOUNDS),
        "timeout_s": number(d, "timeout_s", MICRO_BOUNDS),
    }
    for key in ("m", "n", "k", "batch_size", "height", "width", "channels", "filters", "kernel_size"):
        out[key] = whole(d, key, MICRO_BOUNDS)
    if out["bench"] == "matmul":
        m, n, k = out["m"], out["n"], out["k"]
        for name, size in (("--m/--k", m * k), ("--k/--n", k * n), ("--m/--n", m * n)):
            if size > MAX_ELEMENTS:
                raise SpecError(name, f"a {size:,}-element matrix is over the {MAX_ELEMENTS:,}-element limit")
    else:
        if out["kernel_size"] > min(out["height"], out["width"]):
            side = min(out["height"], out["width"])
            raise SpecError("--kernel-size", f"must be at most the image size ({side}), got {out['kernel_size']}")
        n_in = out["batch_size"] * out["height"] * out["width"] * out["channels"]
        n_out = out["batch_size"] * out["height"] * out["width"] * out["filters"]
        if max(n_in, n_out) > MAX_ELEMENTS:
            big = max(n_in, n_out)
            raise SpecError("--batch-size", f"a {big:,}-element tensor is over the {MAX_ELEMENTS:,}-element limit")
    return MicroSpec(**out)


def validate_train(raw: dict[str, Any], gpu_count: int = 0) -> TrainSpec:
    given = bool(raw.get("model"))
    d = fill(TrainSpec, {k: v for k, v in raw.items() if k != "model_given"})
    d["model_given"] = given
    user = user_model_fields(d)
    out: dict[str, Any] = {  # TrainSpec's fields, each checked
        "model": "" if user else choice(d, "model", catalog.MODEL_NAMES),
        "dataset": choice(d, "dataset", catalog.DATASET_NAMES),
        "batch_size": whole(d, "batch_size", TRAIN_BOUNDS),
        "epochs": whole(d, "epochs", TRAIN_BOUNDS),
        "steps_per_epoch": whole(d, "steps_per_epoch", TRAIN_BOUNDS),
        "validation_steps": whole(d, "validation_steps", TRAIN_BOUNDS),
        "device": choice(d, "device", DEVICES),
        "strategy": choice(d, "strategy", STRATEGIES),
        "logical_devices": whole(d, "logical_devices", TRAIN_BOUNDS),
        "processes": whole(d, "processes", TRAIN_BOUNDS),
        "precision": choice(d, "precision", PRECISIONS),
        "backend": _backend(d),
        "xla": boolean(d, "xla"),
        "torch_compile": boolean(d, "torch_compile"),
        "memory_growth": boolean(d, "memory_growth"),
        "memory_limit_mb": whole(d, "memory_limit_mb", TRAIN_BOUNDS),
        "host_memory_limit_mb": whole(d, "host_memory_limit_mb", TRAIN_BOUNDS),
        "price_per_hour_usd": number(d, "price_per_hour_usd", TRAIN_BOUNDS),
        "timeout_s": number(d, "timeout_s", TRAIN_BOUNDS),
    }
    for key in ("data_dir", "visible_devices", "tpu"):
        if not isinstance(d[key], str):
            raise SpecError(flag(key), f"must be text, got {d[key]!r}")
        out[key] = d[key].strip()
    out["data_dir"] = users_folder(out["data_dir"])
    if out["visible_devices"] and not all(p.strip().isdigit() for p in out["visible_devices"].split(",")):
        raise SpecError("--visible-devices", f"must be GPU indices like 0 or 0,1; got {out['visible_devices']!r}")
    out |= user | input_fields(d)
    problem = None if user else catalog.pairing_problem(out["model"], out["dataset"])
    if problem:
        raise SpecError("--dataset", problem)
    if out["dataset"] == "flowers" and not out["data_dir"]:
        raise SpecError("--data-dir", "flowers needs a folder of TFRecord files or a gs:// path (or use synthetic)")
    spec = TrainSpec(**out)
    _check_backend(spec, gpu_count)
    _check_combination(spec, gpu_count)
    return spec


def _check_backend(spec: TrainSpec, gpu_count: int) -> None:
    problem = processes_problem(spec, gpu_count) or backend_problem(spec, resolve_strategy(spec, gpu_count))
    if problem:
        raise SpecError(*problem)


def _check_combination(spec: TrainSpec, gpu_count: int) -> None:
    strategy = resolve_strategy(spec, gpu_count)
    if strategy == "tpu" and spec.device != "tpu":
        raise SpecError("--strategy", f"tpu needs --device tpu, got --device {spec.device}")
    if spec.device == "tpu" and strategy not in ("tpu",):
        raise SpecError("--strategy", f"--device tpu runs under the tpu strategy, got {strategy}")
    if spec.logical_devices > 1 and strategy not in ("mirrored",):
        need = f"{spec.logical_devices} logical devices need --strategy mirrored (or auto), got {strategy}"
        raise SpecError("--logical-devices", need)
    if spec.logical_devices > 1 and spec.device == "tpu":
        raise SpecError("--logical-devices", "cannot split a TPU; use 1")
    if spec.device == "cpu" and (spec.memory_growth or spec.memory_limit_mb or spec.visible_devices):
        gpu_only = "GPU memory settings (--memory-growth, --memory-limit-mb, --visible-devices) need --device gpu"
        raise SpecError("--device", gpu_only)
    if spec.memory_growth and spec.logical_devices > 1:
        raise SpecError("--memory-growth", "cannot be combined with logical devices (each has a fixed memory limit)")
    if spec.precision == "mixed_float16" and spec.device == "tpu":
        raise SpecError("--precision", "TPUs do not support float16; use mixed_bfloat16 or float32")
    if strategy == "mirrored" and spec.device == "cpu" and spec.logical_devices < 2:
        raise SpecError("--strategy", "mirrored on the CPU needs --logical-devices 2 or more (one CPU is one device)")
    replicas = planned_replicas(spec, gpu_count)
    if replicas and spec.batch_size % replicas:
        raise SpecError(
            "--batch-size",
            f"the global batch {spec.batch_size} does not divide across {replicas} replicas; "
            f"use a multiple of {replicas} (e.g. {max(replicas, spec.batch_size // replicas * replicas)})",
        )


def spec_from_dict(raw: dict[str, Any], gpu_count: int = 0) -> Spec:
    """Validate a plain dict (from the CLI, a page or a spec.json) into a typed spec."""
    raw = dict(raw)
    kind = raw.pop("kind", None) or ("train" if "model" in raw else raw.get("bench", "matmul"))
    if kind == "train":
        return validate_train(raw, gpu_count)
    if kind in BENCHES:
        raw.setdefault("bench", kind)
        return validate_micro(raw)
    raise SpecError("--bench", f"must be one of {', '.join(BENCHES)} (or give --model for training), got {kind!r}")


def spec_to_dict(spec: Spec) -> dict[str, Any]:
    return {"kind": spec.kind, **asdict(spec)}
