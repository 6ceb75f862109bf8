"""NumPy input for JAX and PyTorch runs: the same datasets as engine.worker.datasets, without tf.data.

Keras's loaders and synthetic data are NumPy already; batches come from Python generators that Keras
fit converts for its backend (and shards under a JAX distribution). Flowers files on this machine are read
by a NumPy/PIL pipeline with worker threads and prefetch (engine.worker.flowers_numpy: no TensorFlow, so a
JAX-only runtime trains on them); a gs:// path only tf.data reads, its batches handed over as NumPy.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.worker import datasets, flowers_numpy

Batch = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class ArrayPipeline:
    """What a JAX/PyTorch run trains on: endless generators of full global batches (see DataPipeline)."""

    train: Iterator[Batch]
    validation: Iterator[Batch] | None
    info: catalog.DatasetInfo
    source: str
    train_examples: int


def repeat_one(batch: Batch) -> Iterator[Batch]:
    """Synthetic data: one cached global batch, so the input cost per step is ~0."""
    while True:
        yield batch


def shuffled_batches(x: np.ndarray, y: np.ndarray, batch: int, kind: str, shuffle: bool, seed: int) -> Iterator[Batch]:
    """Full batches forever, reshuffled each pass; images become float32 in [0, 1) batch by batch."""
    rng = np.random.default_rng(seed)
    while True:
        order = rng.permutation(len(x)) if shuffle else np.arange(len(x))
        for start in range(0, len(x) - batch + 1, batch):
            idx = order[start : start + batch]
            xb = x[idx].astype(np.float32) / 255.0 if kind == "image" else x[idx]
            yield xb, y[idx]


def _numpy(ds) -> Iterator[Batch]:
    """A tf.data pipeline's batches as NumPy, from a plain generator (Keras's fit takes generators, not
    tf.data's NumpyIterator)."""
    yield from ds.as_numpy_iterator()


def make_arrays(
    dataset: str,
    model: str,
    batch: int,
    *,
    validation: bool = False,
    data_dir: str = "",
    seed: int = 0,
    settings: InputSettings | None = None,
) -> ArrayPipeline:
    if dataset == catalog.SYNTHETIC:
        info = catalog.resolve_dataset(model, dataset)
        train = repeat_one(datasets.synthetic_batch(info, batch, seed))
        val = repeat_one(datasets.synthetic_batch(info, batch, seed + 1)) if validation else None
        return ArrayPipeline(train, val, info, f"synthetic, shaped like {info.name} (one cached batch)", batch)
    info = catalog.DATASETS[dataset]
    if dataset == "flowers" and not data_dir.startswith("gs://"):
        train, val, source, n = flowers_numpy.flowers(data_dir, batch, validation, seed, settings or InputSettings())
        return ArrayPipeline(train, val, info, source, n)
    if dataset == "flowers":  # object storage: tf.data
        pipe = datasets.make_dataset(
            dataset, model, batch, validation=validation, data_dir=data_dir, seed=seed, settings=settings
        )
        val = _numpy(pipe.validation) if pipe.validation is not None else None
        source = f"{pipe.source}; fed to Keras as NumPy"
        return ArrayPipeline(_numpy(pipe.train), val, info, source, pipe.train_examples)
    (x_train, y_train), (x_test, y_test), source = datasets.load_arrays(dataset)
    x_train, y_train = datasets._prepare(dataset, x_train, y_train)
    datasets._check_enough(dataset, "training", len(x_train), batch)
    train = shuffled_batches(x_train, y_train, batch, info.kind, shuffle=True, seed=seed)
    val = None
    if validation:
        x_test, y_test = datasets._prepare(dataset, x_test, y_test)
        x_test, y_test = _at_least(x_test, y_test, batch)
        val = shuffled_batches(x_test, y_test, batch, info.kind, shuffle=False, seed=seed)
    return ArrayPipeline(train, val, info, source, len(x_train))


def _at_least(x: np.ndarray, y: np.ndarray, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """Repeat a split smaller than one batch (tf.data repeats before batching; this does the same)."""
    if len(x) >= batch:
        return x, y
    reps = -(-batch // len(x))
    return np.concatenate([x] * reps), np.concatenate([y] * reps)
