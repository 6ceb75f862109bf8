"""The flowers set through tf.data, as TensorFlow's guide writes a file pipeline (issue 38).

  TFRecords: the files interleaved (`interleave`, `input_workers` files at a time, read in parallel), each
  record parsed, its JPEG decoded and resized in a parallel `map`; a folder of JPEGs: the file names listed,
  each file read and decoded in the same parallel `map`. Then `cache` (when asked: decoded images kept after
  the first pass), shuffle, repeat, batch, float conversion, `prefetch`. Workers and prefetch default to
  tf.data.AUTOTUNE. Uncached, the records are shuffled before decoding (cheap bytes, not decoded images).

Every 10th example of each file (TFRecords) or of the listing (folder) is held out for validation; the torch
DataLoader (engine.worker.torch_native.loader) holds out the same ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.worker.errors import DataFileError
from engine.worker.image_files import (
    VALIDATION_EVERY,
    ImageFiles,
    check_cache_fits,
    examples,
    find_images,
    read_item,
    split,
    undecodable,
)
from engine.worker.keras_files import DatasetUnavailable

if TYPE_CHECKING:
    import tensorflow as tf
else:
    from engine.worker.lazy_tf import tf

AUTOTUNE = -1  # tf.data.AUTOTUNE
SHUFFLE_BUFFER = 10_000


def _images(data_dir: str) -> ImageFiles:
    if data_dir.startswith("gs://"):  # object storage: only TensorFlow lists and reads it
        try:
            files = sorted({f for ext in ("*.tfrec", "*.tfrecord") for f in tf.io.gfile.glob(f"{data_dir}/{ext}")})
        except (tf.errors.OpError, ValueError) as exc:
            raise DatasetUnavailable(f"cannot list {data_dir}: {str(exc).splitlines()[0][:200]}") from None
        if not files:
            raise DatasetUnavailable(f"no *.tfrec or *.tfrecord files in {data_dir}")
        return ImageFiles("tfrecord", files, [], [])
    return find_images(data_dir.rstrip("/"))


def _decode(data, label):
    height, width, _ = catalog.DATASETS["flowers"].input_shape
    image = tf.image.decode_jpeg(data, channels=3)
    image = tf.image.resize(image, (height, width))  # a no-op for the public 192×192 set
    return tf.cast(tf.round(image), tf.uint8), tf.cast(label, tf.int32)


def _parse(record):
    features = {"image": tf.io.FixedLenFeature([], tf.string), "class": tf.io.FixedLenFeature([], tf.int64)}
    ex = tf.io.parse_single_example(record, features)
    return ex["image"], ex["class"]


def _examples(images: ImageFiles, held_out: bool, workers: int) -> tf.data.Dataset:
    """(JPEG bytes or file name, label) of one split, not yet decoded."""
    if images.layout == "folder":
        names, labels = split(images.files, held_out), split(images.labels, held_out)
        return tf.data.Dataset.from_tensor_slices((names, labels))
    every = tf.constant(VALIDATION_EVERY, tf.int64)

    def one_file(name):
        kept = tf.data.TFRecordDataset(name).enumerate()
        kept = kept.filter(lambda i, _: tf.equal(i % every, 0) if held_out else tf.not_equal(i % every, 0))
        return kept.map(lambda _, r: r)

    files = tf.data.Dataset.from_tensor_slices(images.files)
    cycle = workers if workers > 0 else AUTOTUNE
    return files.interleave(one_file, cycle_length=cycle, num_parallel_calls=cycle).map(_parse)


def _decoded(images: ImageFiles, ds: tf.data.Dataset, workers: int) -> tf.data.Dataset:
    calls = workers if workers > 0 else AUTOTUNE
    if images.layout == "folder":
        return ds.map(lambda f, y: _decode(tf.io.read_file(f), y), num_parallel_calls=calls)
    return ds.map(_decode, num_parallel_calls=calls)


def _to_float(x, y):
    return tf.cast(x, tf.float32) / 255.0, y


def _pipeline(images, held_out: bool, batch: int, n: int, seed: int, settings: InputSettings) -> tf.data.Dataset:
    ds = _examples(images, held_out, settings.workers)
    if settings.cache:  # decode once, keep the uint8 images (4x smaller than float32), shuffle them each epoch
        ds = _decoded(images, ds, settings.workers).cache()
        ds = ds.shuffle(min(SHUFFLE_BUFFER, n), seed=seed) if not held_out else ds
    else:  # streaming: shuffle the cheap undecoded records, decode every epoch
        ds = ds.shuffle(min(SHUFFLE_BUFFER, n), seed=seed) if not held_out else ds
        ds = _decoded(images, ds, settings.workers)
    calls = settings.workers if settings.workers > 0 else AUTOTUNE
    ds = ds.repeat().batch(batch, drop_remainder=True).map(_to_float, num_parallel_calls=calls)
    return ds.prefetch(settings.prefetch if settings.prefetch > 0 else AUTOTUNE)


def _count(images: ImageFiles, data_dir: str, held_out: bool = False) -> int:
    if images.layout == "folder":
        return len(split(images.files, held_out))
    try:  # reads the bytes, decodes nothing
        return int(_examples(images, held_out, 0).reduce(tf.constant(0, tf.int64), lambda n, _: n + 1))
    except tf.errors.OpError as exc:
        named = first_bad_file(images, decode=False)  # tf.data's error names no file
        what = str(named) if named else str(exc).splitlines()[0][:200]
        raise DatasetUnavailable(f"cannot read the TFRecords in {data_dir}: {what}") from None


def first_bad_file(images: ImageFiles, decode: bool = True) -> DataFileError | None:
    """The first item (in listing order) that TensorFlow's own decoder cannot read — a truncated TFRecord, an
    empty or corrupt JPEG — or None. Run only after tf.data failed: its error (a graph error) names no file.
    Local files only: Python does not read gs://."""
    if images.files[0].startswith("gs://"):
        return None
    try:
        for item in examples(images, False) + examples(images, True):
            data, _ = read_item(item)
            if decode:
                try:
                    tf.io.decode_jpeg(data, channels=3)
                except (tf.errors.OpError, ValueError) as exc:
                    return undecodable(item, exc, data)
    except DataFileError as exc:
        return exc
    return None


@contextlib.contextmanager
def files_named(data_dir: str) -> Iterator[None]:
    """Around what reads the flowers pipeline (fit, the input probe): a data error from tf.data leaves as the
    errors.DataFileError naming its file (file, what is wrong, what to do); any other error as it came.
    `data_dir` "": no files to name, and TensorFlow is not touched (a run that never imported it)."""
    if not data_dir:
        yield
        return
    try:
        yield
    except (tf.errors.InvalidArgumentError, tf.errors.DataLossError, tf.errors.OutOfRangeError) as exc:
        named = first_bad_file(_images(data_dir))
        if named is None:
            raise
        raise named from exc


def flowers(
    data_dir: str, batch: int, validation: bool, seed: int, settings: InputSettings
) -> tuple[tf.data.Dataset, tf.data.Dataset | None, str, int]:
    """(train, validation or None, source text, training examples)."""
    images = _images(data_dir)
    n_train = _count(images, data_dir)
    if n_train < batch:
        raise DatasetUnavailable(
            f"flowers has {n_train} training examples, fewer than one global batch of {batch}; use a smaller --batch-size"
        )
    if settings.cache:  # both splits are cached
        check_cache_fits(n_train + (_count(images, data_dir, held_out=True) if validation else 0))
    train = _pipeline(images, False, batch, n_train, seed, settings)
    val = _pipeline(images, True, batch, n_train, seed, settings) if validation else None
    source = f"flowers: {images.describe(data_dir)}, {n_train} training examples; tf.data, {settings.describe()}"
    return train, val, source, n_train
