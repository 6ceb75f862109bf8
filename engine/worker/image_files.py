"""Where a file-backed image set's examples are (issue 38): TFRecord files, or JPEGs in the ImageFolder layout,
and how one is read and decoded without a framework (`decode`: PIL).

Pure Python (no framework): tf.data, torch's DataLoader and the NumPy/PIL pipeline read the same list, so every
backend sees the same files; torch's DataLoader and the NumPy/PIL pipeline decode them the same way; the listing's rules are engine.catalog.data_files's, which the launcher checks before a worker starts.
A gs:// path is listed by TensorFlow (engine.worker.flowers_tf) — only tf.data reads object storage.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.catalog import catalog
from engine.catalog.data_files import image_listing
from engine.catalog.fields import SpecError
from engine.worker import tfrecord_read
from engine.worker.errors import CacheDoesNotFit, DataFileError
from engine.worker.host_limit import cap_mb, room_mb
from engine.worker.keras_files import DatasetUnavailable

_GRAPH_WORDS = re.compile(r"\{\{[^}]*\}\}|\[Op:\w+\]")
VALIDATION_EVERY = 10  # every 10th example (in listing order) is held out for validation


@dataclass(frozen=True)
class ImageFiles:
    """layout "tfrecord": `files` are TFRecord files, `labels` empty; "folder": one JPEG per file, its class id."""

    layout: str
    files: list[str]
    labels: list[int]
    classes: list[str]

    def describe(self, data_dir: str) -> str:
        if self.layout == "tfrecord":
            return f"{len(self.files)} TFRecord file(s) in {data_dir}"
        return f"{len(self.files)} JPEG files in {len(self.classes)} class folders (ImageFolder layout) in {data_dir}"


def find_images(data_dir: str) -> ImageFiles:
    """The set under `data_dir` by engine.catalog.data_files's rules (the launcher checked them too)."""
    try:
        return ImageFiles(*image_listing(data_dir))
    except SpecError as exc:
        raise DatasetUnavailable(exc.message) from None


def split(items: list, held_out: bool) -> list:
    """The training (or held-out validation) share of a listing: every VALIDATION_EVERY-th item is held out."""
    return [x for i, x in enumerate(items) if (i % VALIDATION_EVERY == 0) == held_out]


def examples(images: ImageFiles, held_out: bool) -> list[tuple]:
    """One split's items: (JPEG path, class id) per file, or (TFRecord path, offset, length) per record — every
    10th record of each file held out, as tf.data holds them out. A truncated TFRecord is named here."""
    if images.layout == "folder":
        return split(list(zip(images.files, images.labels, strict=True)), held_out)
    items = []
    for path in images.files:
        try:
            offsets = tfrecord_read.record_offsets(path)
        except OSError as exc:
            raise DatasetUnavailable(f"cannot read the TFRecords in {path}: {exc}") from None
        items += [(path, o, n) for i, (o, n) in enumerate(offsets) if (i % VALIDATION_EVERY == 0) == held_out]
    return items


def training_split(data_dir: str, batch: int, validation: bool, cache: bool) -> tuple[ImageFiles, list, list]:
    """(the files, the training items, the held-out items repeated up to one full batch) for a run at global
    `batch` — what every file reader (torch's DataLoader, the NumPy/PIL pipeline) starts from; a set smaller than one
    batch, or a cache that cannot fit the memory cap, refused here."""
    images = find_images(data_dir.rstrip("/"))
    train_items = examples(images, False)
    if len(train_items) < batch:
        raise DatasetUnavailable(
            f"flowers has {len(train_items)} training examples, fewer than one global batch of {batch}; "
            "use a smaller --batch-size"
        )
    held_out = examples(images, True) if validation else []
    held_out *= -(-batch // len(held_out)) if held_out else 0  # repeated up to one full batch, as tf.data repeats
    if cache:
        check_cache_fits(len(train_items) + len(held_out))
    return images, train_items, held_out


def where(item: tuple) -> str:
    """An item as a person finds it: the JPEG's path, or the TFRecord's path and the record's byte offset."""
    return item[0] if len(item) == 2 else f"{item[0]} (the record at byte {item[1]:,})"


def read_item(item: tuple) -> tuple[bytes, int]:
    """(JPEG bytes, class id) of one item of `examples`; DataFileError naming the file where they cannot be read."""
    if len(item) == 2:
        try:
            return Path(item[0]).read_bytes(), int(item[1])
        except OSError as exc:
            raise undecodable(item, exc, None) from None
    try:
        return tfrecord_read.image_and_class(tfrecord_read.read_record(*item))
    except (OSError, ValueError, IndexError) as exc:  # the hand-written Example decoder's errors
        raise undecodable(item, exc, None) from None


def undecodable(item: tuple, exc: BaseException, data: bytes | None) -> DataFileError:
    """The reason an item did not read (`data` None) or did not decode as a JPEG (`data`: its bytes)."""
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    first = _GRAPH_WORDS.sub("", first).strip()[:200]  # TensorFlow's node and op names say nothing to a person
    if data is None:
        problem = f"cannot be read ({first})"
    else:
        problem = "empty (0 bytes), not a JPEG" if not data else f"not a readable JPEG ({first})"
    return DataFileError.of(where(item), problem)


def decode(item: tuple) -> tuple[np.ndarray, int]:
    """One item of `examples` as (HxWx3 uint8 image at the flowers size, class id): PIL decodes, converts to RGB
    and resizes (bilinear, as tf.image.resize); DataFileError naming the file where it cannot."""
    from PIL import Image  # imported by a run that reads files only

    height, width, _ = catalog.DATASETS["flowers"].input_shape
    data, label = read_item(item)
    try:
        with Image.open(io.BytesIO(data)) as opened:
            img = opened.convert("RGB")
    except (OSError, ValueError, SyntaxError) as exc:  # PIL's errors for a file that is not a whole JPEG
        raise undecodable(item, exc, data) from None
    if img.size != (width, height):
        img = img.resize((width, height), Image.Resampling.BILINEAR)
    return np.asarray(img, dtype=np.uint8), label


def check_cache_fits(images: int) -> None:
    """Before `--cache` keeps `images` decoded images (uint8 at the flowers size) under a host memory cap: refuse
    in one line, before the first step, when they do not fit in the room the cap leaves — filling the cache would
    fail the run later with the framework's own words (a graph error, a DataLoader worker's) and no cause."""
    room, cap = room_mb(), cap_mb()
    if room is None or cap is None:
        return
    height, width, channels = catalog.DATASETS["flowers"].input_shape
    need_mb = images * height * width * channels / 2**20
    if need_mb <= room:
        return
    raise CacheDoesNotFit(
        f"--cache keeps the decoded set in memory: {images:,} images of {height}x{width}x{channels} bytes = "
        f"{need_mb:,.0f} MB, more than the {max(room, 0):,.0f} MB the host memory cap leaves this run "
        f"(--host-memory-limit-mb {cap:.0f}) — drop --cache, or raise --host-memory-limit-mb to "
        f"{cap - room + need_mb:.0f} or more"
    )
