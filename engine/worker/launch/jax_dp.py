"""What a JAX rank changes in the ordinary Keras-on-JAX run (engine.worker.train_backend): data parallel over the
global mesh (every process's devices), its shard of each global batch, and its final weights kept on rank 0."""

from __future__ import annotations

import dataclasses

import keras
import numpy as np

from engine.worker.arrays import ArrayPipeline
from engine.worker.backend_strategy import BackendStrategy
from engine.worker.launch.ranks import Rank, keep_weights, shard


def apply(device: str, rank: Rank) -> BackendStrategy:
    """`keras.distribution.DataParallel` over every device of every process (jax.devices() is global); each process
    feeds its own shard (engine.worker.launch.ranks.shard), so Keras must not shard again."""
    import jax

    devices = jax.devices()
    keras.distribution.set_distribution(keras.distribution.DataParallel(devices=devices, auto_shard_dataset=False))
    names = tuple(f"{d.platform}:{d.id}" for d in devices)
    return BackendStrategy("data_parallel", len(devices), names, 1 if device == "cpu" else len(devices))


def sharded(data: ArrayPipeline, rank: Rank) -> ArrayPipeline:
    val = shard(data.validation, rank) if data.validation is not None else None
    return dataclasses.replace(data, train=shard(data.train, rank), validation=val)


def keep(run_dir, model) -> None:
    """Rank 0's copy of the (replicated) weights: this process's own replica of each variable."""
    named = {f"{i}_{v.path}": np.asarray(v.value.addressable_data(0)) for i, v in enumerate(model.weights)}
    keep_weights(run_dir, named)
