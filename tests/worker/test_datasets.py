"""Input pipelines fed by small files the tests write: Keras-cache files read by the real loaders (in a fresh
process whose KERAS_HOME points at the test's folder), flowers TFRecords with real JPEG bytes, and synthetic data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf
from conftest import NO_NETWORK, ROOT, write_flowers, write_keras_cache

from engine.catalog import catalog
from engine.worker.datasets import DatasetUnavailable, make_dataset, synthetic_batch

LOADER_SCRIPT = """
import json, sys
import numpy as np
from engine.worker.datasets import DatasetUnavailable, load_arrays, make_dataset
out = {}
for name, model in (("fashion_mnist", "fashion_cnn"), ("mnist", "tiny_cnn"), ("reuters", "reuters_conv1d"), ("imdb", "bilstm")):
    try:
        (xt, yt), (xv, yv), source = load_arrays(name)
        pipe = make_dataset(name, model, 4, validation=True)
        x, y = next(iter(pipe.train))
        vx, vy = next(iter(pipe.validation))
        out[name] = {
            "source": source, "n_train": len(xt), "n_test": len(xv),
            "x_train": [list(map(int, np.ravel(s))) for s in xt], "y_train": list(map(int, yt)),
            "batch_shape": list(x.shape), "batch_dtype": x.dtype.name, "batch": x.numpy().tolist(),
            "labels": y.numpy().tolist(), "val_shape": list(vx.shape), "train_examples": pipe.train_examples,
        }
    except DatasetUnavailable as exc:
        out[name] = {"error": str(exc)}
print(json.dumps(out))
"""


def _run_loaders(keras_home: Path) -> dict:
    env = {**os.environ, "KERAS_HOME": str(keras_home), "TF_CPP_MIN_LOG_LEVEL": "3", **NO_NETWORK}
    proc = subprocess.run(
        [sys.executable, "-c", LOADER_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _keras_text_indexing(seq: list[int]) -> list[int]:
    """What keras.datasets.reuters/imdb.load_data(num_words=10_000) make of a raw sequence."""
    return [1] + [w + 3 if w + 3 < catalog.TEXT_VOCAB_SIZE else 2 for w in seq]


def test_real_loaders_read_the_keras_cache_the_test_wrote(tmp_path):
    written = write_keras_cache(tmp_path, np.random.default_rng(0))
    out = _run_loaders(tmp_path)

    fashion = out["fashion_mnist"]
    x_train, y_train, _, _ = written["fashion"]
    assert "keras.datasets.fashion_mnist.load_data()" in fashion["source"] and str(tmp_path) in fashion["source"]
    assert fashion["x_train"] == [list(map(int, img.ravel())) for img in x_train]
    assert fashion["y_train"] == list(map(int, y_train))
    assert fashion["batch_shape"] == [4, 28, 28, 1] and fashion["batch_dtype"] == "float32"
    flat = {tuple(np.round(img.ravel() / 255.0, 5)) for img in x_train}
    assert all(tuple(np.round(np.ravel(b), 5)) in flat for b in fashion["batch"])  # real examples, scaled to [0, 1]
    assert fashion["val_shape"] == [4, 28, 28, 1] and fashion["train_examples"] == 12

    mnist = out["mnist"]  # not Keras's official file (its checksum differs): read as a local copy, same format
    assert "local copy" in mnist["source"] and mnist["x_train"][0] == list(map(int, x_train[-1].ravel()))

    order = np.arange(10)
    np.random.RandomState(113).shuffle(order)  # the loaders' fixed shuffle
    reuters = out["reuters"]
    expected = [_keras_text_indexing(written["seqs"][i]) for i in order]
    assert reuters["n_train"] == 8 and reuters["n_test"] == 2  # Keras's 80/20 split
    assert reuters["x_train"] == expected[:8]
    assert reuters["batch_shape"] == [4, catalog.SEQUENCE_LENGTH] and reuters["batch_dtype"] == "int32"
    for row in reuters["batch"]:  # padded (or cut) at the front to 300, as keras pad_sequences does
        match = [e for e in expected[:8] if row == ([0] * max(0, 300 - len(e)) + e)[-300:]]
        assert match, row[-10:]
    assert max(max(s) for s in reuters["x_train"]) < catalog.TEXT_VOCAB_SIZE

    imdb = out["imdb"]
    assert imdb["n_train"] == 6 and imdb["n_test"] == 4 and imdb["batch_shape"] == [4, 300]


def test_offline_without_a_cached_copy_names_the_cache_path(tmp_path):
    out = _run_loaders(tmp_path)  # an empty KERAS_HOME and no network
    for name, file in (("fashion_mnist", "fashion-mnist"), ("mnist", "mnist.npz"), ("reuters", "reuters.npz")):
        error = out[name]["error"]
        assert str(tmp_path / "datasets") in error and file in error, error
        assert "--dataset synthetic" in error
    assert not (tmp_path / "datasets" / "mnist.npz").exists()  # nothing half-downloaded left behind


def test_flowers_tfrecords_decode_resize_and_keep_labels(tmp_path):
    written = write_flowers(tmp_path / "tfrec", (6, 5))
    pipe = make_dataset("flowers", "flowers_cnn", 4, validation=True, data_dir=str(tmp_path / "tfrec"))
    assert pipe.train_examples == 11 - 2  # every 10th record of each file (the first of each) is held out
    assert "2 TFRecord file(s)" in pipe.source
    colours = dict(written)
    for x, y in pipe.train.take(3):
        assert x.shape == (4, 192, 192, 3) and x.dtype == tf.float32 and y.dtype == tf.int32
        for img, cls in zip(x.numpy(), y.numpy(), strict=True):
            assert img.min() >= 0.0 and img.max() <= 1.0
            np.testing.assert_allclose(img.mean(axis=(0, 1)) * 255, colours[int(cls)], atol=12)
    vx, vy = next(iter(pipe.validation))
    assert vx.shape == (4, 192, 192, 3) and set(vy.numpy().tolist()) == {0, 1}  # the files' first records: 0 and 1


def test_flowers_reads_tfrecord_extension_and_refuses_empty_or_broken_folders(tmp_path):
    write_flowers(tmp_path / "ok", (8,), ext="tfrecord")
    x, _ = next(iter(make_dataset("flowers", "vgg19", 2, data_dir=str(tmp_path / "ok")).train))
    assert x.shape == (2, 192, 192, 3)
    (tmp_path / "empty").mkdir()
    with pytest.raises(DatasetUnavailable, match=r"no \*\.tfrec or \*\.tfrecord files in .*empty"):
        make_dataset("flowers", "flowers_cnn", 2, data_dir=str(tmp_path / "empty"))
    with pytest.raises(DatasetUnavailable, match="needs --data-dir"):
        make_dataset("flowers", "flowers_cnn", 2)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "x.tfrec").write_bytes(b"not a tfrecord at all")
    with pytest.raises(DatasetUnavailable, match="cannot read the TFRecords"):
        make_dataset("flowers", "flowers_cnn", 2, data_dir=str(tmp_path / "bad"))
    with pytest.raises(DatasetUnavailable, match="fewer than one global batch"):
        make_dataset("flowers", "flowers_cnn", 64, data_dir=str(tmp_path / "ok"))


@pytest.mark.parametrize("model", catalog.MODEL_NAMES)
def test_synthetic_data_has_the_models_native_shape_and_costs_nothing_per_step(model):
    info = catalog.resolve_dataset(model, "synthetic")
    pipe = make_dataset("synthetic", model, 8, validation=True)
    assert pipe.info == info
    first, second = list(pipe.train.take(2))
    # a language model's label is the next token at every position; a classifier's, one class
    labels = (8, *info.input_shape) if info.kind == "tokens" else (8,)
    assert first[0].shape == (8, *info.input_shape) and first[1].shape == labels
    assert first[0].dtype == (tf.int32 if info.kind in ("text", "tokens") else tf.float32)
    assert int(tf.reduce_min(first[1])) >= 0 and int(tf.reduce_max(first[1])) < info.num_classes
    np.testing.assert_array_equal(first[0].numpy(), second[0].numpy())  # one cached batch, repeated
    val = next(iter(pipe.validation))
    assert not np.array_equal(val[0].numpy(), first[0].numpy())  # validation is a different batch


def test_synthetic_text_ids_stay_inside_the_vocabulary_and_shape_can_be_overridden():
    x, _ = synthetic_batch(catalog.DATASETS["reuters"], 16, seed=3)
    assert x.min() >= 1 and x.max() < catalog.TEXT_VOCAB_SIZE and x.dtype == np.int32
    pipe = make_dataset("synthetic", "vgg19", 2, info=catalog.DATASETS["cifar10"])
    assert next(iter(pipe.train))[0].shape == (2, 32, 32, 3)
