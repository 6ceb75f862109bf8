"""The flowers files through the NumPy/PIL pipeline (issue 45) that Keras on JAX and on torch train on: the same
pixels and labels from either layout, the same held-out split as tf.data's, decode-once under --cache, its threads
gone when the run drops it, and a JPEG PIL cannot decode fails the run with one line naming the file."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from conftest import last_json

from engine.catalog.input_spec import InputSettings
from engine.worker import flowers_numpy
from engine.worker.errors import DATA_FILE_MARK, DataFileError
from engine.worker.image_files import decode, examples, find_images
from engine.worker.sample_data import FLOWER_CLASSES, write_sample


def _threads_end(within_s: float = 5.0) -> list[str]:
    """The pipeline's threads still alive after waiting up to `within_s` for them to end."""
    deadline = time.monotonic() + within_s
    while True:
        alive = [t.name for t in threading.enumerate() if t.name.startswith("flowers-")]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("numpy") / "folder"
    write_sample(str(out), 20, "folder", 64, 48)  # resized to 192x192 by the pipeline
    return out


def test_held_out_batches_come_in_listing_order_with_their_class_ids(folder):
    train, val, source, n = flowers_numpy.flowers(str(folder), 2, True, 0, InputSettings(workers=2, prefetch=1))
    assert n == 18 and "NumPy/PIL pipeline (no TensorFlow), input workers 2, prefetch 1, cache off" in source
    held = examples(find_images(str(folder)), True)  # every 10th of the listing: daisy's first, roses'
    x, y = next(val)
    assert x.shape == (2, 192, 192, 3) and x.dtype == np.float32 and x.min() >= 0.0 and x.max() <= 1.0
    assert [FLOWER_CLASSES[label] for label in y] == [path.split("/")[-2] for path, _ in held] == ["daisy", "roses"]
    first, _ = decode(held[0])
    assert np.array_equal(np.round(x[0] * 255).astype(np.uint8), first)
    xs, ys = next(train)
    assert xs.shape == (2, 192, 192, 3) and set(ys) <= set(range(5))
    train.close()  # the run is over: its prefetch and decode threads end
    val.close()
    assert _threads_end() == []


def test_cache_decodes_each_image_once_and_the_threads_end_with_the_run(folder, monkeypatch):
    calls: list[tuple] = []
    real = flowers_numpy.decode
    monkeypatch.setattr(flowers_numpy, "decode", lambda item: calls.append(item) or real(item))
    found = examples(find_images(str(folder)), False)
    batches = flowers_numpy.batches(found, 6, InputSettings(workers=2, prefetch=2, cache=True), True, 0)
    for _ in range(9):  # three passes over 18 examples
        next(batches)
    assert sorted(calls) == sorted(found)
    batches.close()
    assert _threads_end() == []


def test_an_undecodable_jpeg_is_named_in_one_line(folder, tmp_path):
    broken = tmp_path / "daisy" / "broken.jpg"
    broken.parent.mkdir()
    broken.write_bytes((folder / "daisy" / "000000.jpg").read_bytes()[:300])  # a JPEG cut off in its header
    with pytest.raises(DataFileError) as caught:
        decode((str(broken), 0))
    said = str(caught.value)
    assert said.startswith(f"{DATA_FILE_MARK}{broken}: not a readable JPEG (") and "\n" not in said, said


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["jax", "keras-torch"])
def test_a_corrupt_jpeg_fails_a_keras_run_with_the_file_named(tmp_path, cli, backend):
    """A real Keras-on-JAX (or on torch) run: every roses picture is garbage, so the first batches meet one; the
    reason has the one format of every backend's (errors.DataFileError: file, what is wrong, what to do)."""
    out = tmp_path / "set"
    write_sample(str(out), 10, "folder", 32, 32)
    roses = sorted((out / "roses").glob("*.jpg"))
    for path in roses:
        path.write_bytes(b"not a JPEG at all")
    proc = cli(
        "run", "--backend", backend, "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(out),
        "--batch-size", "8", "--epochs", "1", "--steps-per-epoch", "2", "--json", timeout=600,
    )  # fmt: skip
    row = last_json(proc.stdout)
    assert proc.returncode == 1 and row["status"] == "failed", row
    assert row["error"].startswith(f"{DATA_FILE_MARK}{out / 'roses'}/") and "\n" not in row["error"], row["error"]
    assert "not a readable JPEG" in row["error"] and "engine data sample flowers" in row["error"], row["error"]
