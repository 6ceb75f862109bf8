"""Input pipelines: the real datasets through their real loaders, and synthetic data of any model's shape.

  fashion_mnist, mnist, cifar10, reuters, imdb
      keras.datasets.<name>.load_data() — Keras's own loader, reading Keras's cache
      ($KERAS_HOME or ~/.keras, sub-folder datasets/) and downloading when the file is missing.
      Text is indexed as Keras does (1 = start, 2 = out-of-vocabulary, words from 3) with
      num_words=catalog.TEXT_VOCAB_SIZE, then padded/truncated to catalog.SEQUENCE_LENGTH.
  flowers
      TFRecord files (*.tfrec, *.tfrecord) in a local folder or a gs:// path, in the layout of the
      public flowers set of article 001 (gs://flowers-public/tfrecords-jpeg-192x192-2/): features
      'image' (JPEG bytes) and 'class' (int64, 0..4); or a folder of class folders of JPEGs (ImageFolder).
      Decoded and resized to 192×192×3 by tf.data (engine.worker.flowers_tf), with the run's
      --input-workers/--prefetch/--cache.
  synthetic
      Random examples of the model's native shape, generated once: the pipeline repeats one
      global batch, so the input cost per step is ~0 and the benchmark measures the model alone.

Every pipeline yields full global batches (drop_remainder) so each step has exactly the global batch,
and repeats forever: the run's length is set by epochs × steps_per_epoch.

Keras's cached files (and copies Keras would reject) are read by engine.worker.keras_files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.worker import flowers_tf
from engine.worker.keras_files import DatasetUnavailable, load_arrays

if TYPE_CHECKING:
    import tensorflow as tf
else:
    from engine.worker.lazy_tf import tf  # JAX/PyTorch runs use this module's NumPy loaders without TF
AUTOTUNE = -1  # tf.data.AUTOTUNE's value, without importing TensorFlow
SHUFFLE_BUFFER = 10_000


@dataclass(frozen=True)
class DataPipeline:
    """What training consumes.

    Attributes:
      train: batches of (inputs, labels), repeated forever, `global_batch_size` each.
      validation: the same for validation (held-out split or separate synthetic batch), or None.
      info: shape facts (input shape, classes) the model was built for.
      source: where the examples came from, for the result's notes.
      train_examples: examples in the training split (one synthetic batch for synthetic data).
    """

    train: tf.data.Dataset
    validation: tf.data.Dataset | None
    info: catalog.DatasetInfo
    source: str
    train_examples: int


def _prepare(name: str, x, y) -> tuple[np.ndarray, np.ndarray]:
    info = catalog.DATASETS[name]
    if info.kind == "text":
        from keras.utils import pad_sequences

        x = pad_sequences(x, maxlen=catalog.SEQUENCE_LENGTH).astype(np.int32)
    else:
        x = np.asarray(x, dtype=np.uint8).reshape((-1, *info.input_shape))  # adds the grey channel
    return x, np.asarray(y).reshape(-1).astype(np.int32)


def _images_to_float(x, y):
    return tf.cast(x, tf.float32) / 255.0, y


def _from_arrays(x, y, batch: int, kind: str, shuffle: bool, seed: int) -> tf.data.Dataset:
    # cache the raw (uint8/int32) slices, then shuffle/repeat/batch, convert whole batches, prefetch
    ds = tf.data.Dataset.from_tensor_slices((x, y)).cache()
    if shuffle:
        ds = ds.shuffle(min(SHUFFLE_BUFFER, len(x)), seed=seed, reshuffle_each_iteration=True)
    ds = ds.repeat().batch(batch, drop_remainder=True)
    if kind == "image":
        ds = ds.map(_images_to_float, num_parallel_calls=AUTOTUNE)
    return ds.prefetch(AUTOTUNE)


def _check_enough(name: str, split: str, n: int, batch: int) -> None:
    if n < batch:
        raise DatasetUnavailable(
            f"{name} has {n} {split} examples, fewer than one global batch of {batch}; use a smaller --batch-size"
        )


def synthetic_batch(info: catalog.DatasetInfo, batch: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One global batch of random examples with `info`'s shape and dtype (images in [0, 1), token ids)."""
    rng = np.random.default_rng(seed)
    x: np.ndarray  # token ids (int32) or images (float32)
    if info.kind == "tokens":  # language modelling: each position's label is the next token
        ids = rng.integers(1, info.num_classes, size=(batch, info.input_shape[0] + 1), dtype=np.int32)
        return ids[:, :-1], ids[:, 1:]
    if info.kind == "text":
        x = rng.integers(1, catalog.TEXT_VOCAB_SIZE, size=(batch, *info.input_shape), dtype=np.int32)
    else:
        x = rng.random((batch, *info.input_shape), dtype=np.float32)
    y = rng.integers(0, info.num_classes, size=(batch,), dtype=np.int32)
    return x, y


def _synthetic(info: catalog.DatasetInfo, batch: int, seed: int) -> tf.data.Dataset:
    ds = tf.data.Dataset.from_tensors(synthetic_batch(info, batch, seed)).repeat()
    opts = tf.data.Options()
    # every worker of a multi-worker run sees the same batch; there are no files to shard
    opts.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    return ds.with_options(opts)  # no prefetch: the element is already in memory, a prefetch thread would only cost


def make_dataset(
    dataset: str,
    model: str,
    global_batch_size: int,
    *,
    validation: bool = False,
    data_dir: str = "",
    seed: int = 0,
    info: catalog.DatasetInfo | None = None,
    settings: InputSettings | None = None,
) -> DataPipeline:
    """The training (and optionally validation) pipeline for `model` on `dataset`.

    `info` overrides the shape of synthetic data (e.g. synthetic data shaped like cifar10 for a model
    whose native dataset is flowers); real datasets always have their own shape.
    """
    if dataset not in catalog.DATASET_NAMES:
        raise ValueError(f"unknown dataset {dataset!r}; known: {', '.join(catalog.DATASET_NAMES)}")
    if dataset == catalog.SYNTHETIC:
        info = info or catalog.resolve_dataset(model, dataset)
        train = _synthetic(info, global_batch_size, seed)
        val = _synthetic(info, global_batch_size, seed + 1) if validation else None
        return DataPipeline(
            train, val, info, f"synthetic, shaped like {info.name} (one cached batch)", global_batch_size
        )
    info = catalog.DATASETS[dataset]
    if dataset == "flowers":
        train, val, source, n = flowers_tf.flowers(
            data_dir, global_batch_size, validation, seed, settings or InputSettings()
        )
        return DataPipeline(train, val, info, source, n)
    (x_train, y_train), (x_test, y_test), source = load_arrays(dataset)
    x_train, y_train = _prepare(dataset, x_train, y_train)
    _check_enough(dataset, "training", len(x_train), global_batch_size)
    train = _from_arrays(x_train, y_train, global_batch_size, info.kind, shuffle=True, seed=seed)
    val = None
    if validation:
        x_test, y_test = _prepare(dataset, x_test, y_test)  # repeated before batching, so any size fills a batch
        val = _from_arrays(x_test, y_test, global_batch_size, info.kind, shuffle=False, seed=seed)
    return DataPipeline(train, val, info, source, len(x_train))
