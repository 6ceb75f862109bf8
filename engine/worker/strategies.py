"""TrainSpec + what TensorFlow sees → one `tf.distribute` strategy (worker only: imports TensorFlow).

`make_strategy` is the one place this mapping lives:

  default       tf.distribute's default strategy: TF's own placement on one device (1 replica)
  one_device    OneDeviceStrategy pinned to the first CPU/GPU
  mirrored      MirroredStrategy over every visible GPU, or over K logical devices when
                --logical-devices K splits the CPU or the one GPU (article 002's trick)
  tpu           TPUStrategy through TPUClusterResolver (--tpu, TPU_NAME, COLAB_TPU_ADDR, or a TPU VM)
  multi_worker  MultiWorkerMirroredStrategy from TF_CONFIG

An impossible combination raises `StrategyError` (a SpecError, so a ValueError) whose one-line message
names the setting and what would work. Device settings (visible GPUs, memory growth/limit, logical
split) are applied first by `tfenv.configure`, which only works before TF initialises — so this must be
the first TensorFlow work a worker does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import tensorflow as tf

from engine.catalog import tf_config
from engine.catalog.replicas import resolve_strategy
from engine.catalog.specs import SpecError, TrainSpec
from engine.worker import tfenv


class StrategyError(SpecError):
    """This spec cannot run under a strategy on what TensorFlow sees here."""


@dataclass(frozen=True)
class ResolvedStrategy:
    """The strategy a run uses, with the facts the result row reports.

    Attributes:
      strategy: the tf.distribute.Strategy (enter `strategy.scope()` to build and compile).
      name: default, one_device, mirrored, tpu or multi_worker.
      replicas: strategy.num_replicas_in_sync — what it really uses, not what was asked.
      devices: the devices the strategy computes on (replica devices; workers for multi_worker).
      physical_devices: how many physical accelerators those replicas span (for the peak figure).
    """

    strategy: tf.distribute.Strategy
    name: str
    replicas: int
    devices: tuple[str, ...]
    physical_devices: int = 1


def parse_tf_config(text: str | None) -> dict:
    """Validate TF_CONFIG for MultiWorkerMirroredStrategy (engine.catalog.tf_config, raising StrategyError)."""
    return tf_config.parse_tf_config(text, StrategyError)


def tpu_address(spec: TrainSpec, environ: dict | None = None) -> str:
    """Where the TPU is: --tpu, else TPU_NAME, else grpc://COLAB_TPU_ADDR, else 'local' on a TPU VM, else ''."""
    env = os.environ if environ is None else environ
    if spec.tpu:
        return spec.tpu
    if env.get("TPU_NAME"):
        return env["TPU_NAME"]
    if env.get("COLAB_TPU_ADDR"):
        return "grpc://" + env["COLAB_TPU_ADDR"]
    if env.get("TPU_ACCELERATOR_TYPE") or any(Path(f"/dev/accel{i}").exists() for i in range(8)):
        return "local"
    return ""


def _tpu_strategy(spec: TrainSpec) -> ResolvedStrategy:
    address = tpu_address(spec)
    if not address:
        raise StrategyError(
            "--device", "no TPU found: give --tpu NAME|grpc://HOST:PORT, or set TPU_NAME or COLAB_TPU_ADDR"
        )
    try:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=address)
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
    except (ValueError, tf.errors.OpError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise StrategyError("--tpu", f"could not connect to the TPU at {address!r}: {first[:300]}") from None
    strategy = tf.distribute.TPUStrategy(resolver)
    devices = tuple(d.name for d in tf.config.list_logical_devices("TPU"))
    kind = os.environ.get("TPU_ACCELERATOR_TYPE", "").lower()
    cores_per_chip = 2 if ("v2" in kind or "v3" in kind or not kind) else 1  # v2/v3 boards: 2 cores per chip
    chips = max(1, strategy.num_replicas_in_sync // cores_per_chip)
    return ResolvedStrategy(strategy, "tpu", strategy.num_replicas_in_sync, devices, chips)


def make_strategy(spec: TrainSpec) -> ResolvedStrategy:
    """Configure the devices for `spec`, then build its strategy. Raises StrategyError or tfenv.PlacementError."""
    if spec.device == "tpu":
        if resolve_strategy(spec, 0) != "tpu":
            raise StrategyError("--strategy", f"a TPU runs under the tpu strategy only, got {spec.strategy}")
        return _check_batch(spec, _tpu_strategy(spec))
    if spec.strategy == "tpu":
        raise StrategyError("--strategy", f"tpu needs --device tpu, got --device {spec.device}")
    # TF_CONFIG is checked before TensorFlow starts, so a bad one fails fast
    workers = (
        tuple(parse_tf_config(os.environ.get("TF_CONFIG"))["cluster"]["worker"])
        if spec.strategy == "multi_worker"
        else ()
    )
    try:
        tfenv.configure(
            spec.device, spec.logical_devices, spec.memory_growth, spec.memory_limit_mb, spec.visible_devices
        )
    except RuntimeError as exc:
        if isinstance(exc, tfenv.PlacementError):
            raise
        # TF refuses to split devices once it has initialised (e.g. a second run in one process)
        raise StrategyError(
            "--logical-devices",
            f"device settings must be applied before TensorFlow initialises ({exc}); run in a fresh process",
        ) from None
    visible_gpus = len(tf.config.get_visible_devices("GPU")) if spec.device == "gpu" else 0
    name = resolve_strategy(spec, visible_gpus)
    if name == "multi_worker":
        # collective ops must be set up before anything initialises the TF context (even listing devices)
        if spec.logical_devices > 1:
            raise StrategyError("--logical-devices", "multi_worker uses each machine's devices as they are; use 1")
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        tfenv.logical_devices(spec.device)  # PlacementError when this machine lacks the device
        replicas = strategy.num_replicas_in_sync
        physical = replicas if spec.device == "gpu" else len(workers)  # one CPU per machine, else one GPU per replica
        resolved = ResolvedStrategy(strategy, "multi_worker", replicas, workers, physical)
        return _check_batch(spec, resolved)
    devices = tfenv.logical_devices(spec.device)
    if spec.logical_devices > 1 and len(devices) != spec.logical_devices:
        raise StrategyError(
            "--logical-devices",
            f"asked for {spec.logical_devices} logical {spec.device.upper()}s but TensorFlow has {len(devices)} "
            "(device settings must be applied before TensorFlow initialises; run in a fresh process)",
        )
    if name == "default":
        # TF's own placement: the GPU when --device gpu (configure hid the GPUs for --device cpu)
        resolved = ResolvedStrategy(tf.distribute.get_strategy(), "default", 1, tuple(devices[:1]))
    elif name == "one_device":
        resolved = ResolvedStrategy(tf.distribute.OneDeviceStrategy(devices[0]), "one_device", 1, tuple(devices[:1]))
    elif name == "mirrored":
        if len(devices) < 2 and spec.device == "cpu":
            raise StrategyError(
                "--logical-devices", "mirrored on the CPU needs --logical-devices 2 or more (one CPU is one device)"
            )
        strategy = tf.distribute.MirroredStrategy(devices=devices)
        physical = 1 if spec.logical_devices > 1 or spec.device == "cpu" else len(devices)
        resolved = ResolvedStrategy(strategy, "mirrored", strategy.num_replicas_in_sync, tuple(devices), physical)
    else:
        raise StrategyError("--strategy", f"unknown strategy {name!r}")
    return _check_batch(spec, resolved)


def _check_batch(spec: TrainSpec, resolved: ResolvedStrategy) -> ResolvedStrategy:
    """The global batch must split evenly: spec.py checks this where replicas are knowable up front;
    this re-checks with the strategy's real replica count (TPU cores, multi-worker GPUs)."""
    if spec.batch_size % resolved.replicas:
        n = resolved.replicas
        raise StrategyError(
            "--batch-size",
            f"the global batch {spec.batch_size} does not divide across the {n} replicas of {resolved.name}; "
            f"use a multiple of {n} (e.g. {max(n, spec.batch_size // n * n)})",
        )
    return resolved
