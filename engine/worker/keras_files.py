"""Keras's dataset files: where they are cached, and reading a cached copy Keras would reject.

Keras verifies its npz/tar downloads against checksums: a cached file that is not byte-identical to the
official one (a copy made elsewhere, a subset, a test's small file) would be deleted and re-fetched by
keras.datasets.*.load_data — losing the file when offline. Such a copy is read here in the same
format Keras reads (and `notes` says so); the official file, or a missing one, goes through Keras.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from engine.catalog import catalog

_KERAS_ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
# (file under $KERAS_HOME/datasets, sha256 Keras checks) for the loaders that check one
_CHECKED_FILES = {
    "mnist": ("mnist.npz", "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"),
    "reuters": ("reuters.npz", "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"),
    "imdb": ("imdb.npz", "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"),
}
_FASHION_FILES = (
    "train-labels-idx1-ubyte.gz",
    "train-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
)


class DatasetUnavailable(RuntimeError):
    """The data cannot be read here (offline without a cached copy, no TFRecords at the path, …)."""


def keras_cache_dir() -> Path:
    """Where keras.utils.get_file keeps downloads: $KERAS_HOME/datasets (default ~/.keras/datasets)."""
    # the same two fall-backs as keras (backend/config.py, then utils/file_utils.get_file)
    home = os.environ.get("KERAS_HOME")
    if home is None:
        user = Path("~").expanduser()
        home = str((user if os.access(user, os.W_OK) else Path("/tmp")) / ".keras")
    if not os.access(home, os.W_OK):
        home = "/tmp/.keras"
    return Path(home) / "datasets"


def cache_paths(name: str) -> list[Path]:
    """The files Keras's loader for `name` reads from its cache."""
    base = keras_cache_dir()
    if name == "fashion_mnist":
        return [base / "fashion-mnist" / f for f in _FASHION_FILES]
    if name == "cifar10":
        return [base / "cifar-10-batches-py-target_archive"]
    return [base / _CHECKED_FILES[name][0]]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _unavailable(name: str, exc: BaseException) -> DatasetUnavailable:
    paths = cache_paths(name)
    where = str(paths[0]) if len(paths) == 1 else f"{paths[0].parent}/: {', '.join(p.name for p in paths)}"
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
    return DatasetUnavailable(
        f"{name} is not in the Keras cache ({where}) and could not be downloaded ({first}); "
        "copy the file(s) there, or use --dataset synthetic"
    )


def _index_words(sequences, num_words: int) -> list[list[int]]:
    """Keras's text indexing (reuters/imdb load_data defaults): 1 starts, words from 3, rare words → 2."""
    return [[1] + [w + 3 if w + 3 < num_words else 2 for w in seq] for seq in sequences]


def _read_local_copy(name: str, path: Path) -> tuple[tuple, tuple]:
    """A cached file that is not the official one, read in the format Keras reads (see module doc)."""
    from keras.src.datasets import npz_utils  # Keras's safe npz reader (pickle restricted to numpy arrays)

    data = npz_utils.load_npz(str(path))
    if name == "mnist":
        return (data["x_train"], data["y_train"]), (data["x_test"], data["y_test"])
    rng = np.random.RandomState(113)  # the loaders' default seed
    if name == "reuters":
        xs, ys = data["x"], data["y"]
        order = np.arange(len(xs))
        rng.shuffle(order)
        xs = _index_words(xs[order], catalog.TEXT_VOCAB_SIZE)
        cut = int(len(xs) * 0.8)  # Keras's test_split=0.2
        return (xs[:cut], ys[order][:cut]), (xs[cut:], ys[order][cut:])
    splits = []
    for x, y in ((data["x_train"], data["y_train"]), (data["x_test"], data["y_test"])):
        order = np.arange(len(x))
        rng.shuffle(order)
        splits.append((_index_words(x[order], catalog.TEXT_VOCAB_SIZE), y[order]))
    return splits[0], splits[1]


def load_arrays(name: str) -> tuple[tuple, tuple, str]:
    """((x_train, y_train), (x_test, y_test), source) for a Keras dataset; DatasetUnavailable when offline
    without a cached copy."""
    import keras

    loader = getattr(keras.datasets, name)
    kwargs = {"num_words": catalog.TEXT_VOCAB_SIZE} if name in ("reuters", "imdb") else {}
    if name in _CHECKED_FILES:
        path = cache_paths(name)[0]
        if path.exists() and _sha256(path) != _CHECKED_FILES[name][1]:
            train, test = _read_local_copy(name, path)
            return train, test, f"{name}: local copy {path} (not Keras's official file; read in Keras's format)"
    try:
        train, test = loader.load_data(**kwargs)
    except Exception as exc:  # noqa: BLE001 — Keras raises a bare Exception for a failed download
        raise _unavailable(name, exc) from None
    return train, test, f"{name}: keras.datasets.{name}.load_data() from {cache_paths(name)[0].parent}"
