"""Where a file-backed image set's examples are (issue 38): TFRecord files, or JPEGs in the ImageFolder layout.

Pure Python (no framework): tf.data and torch's DataLoader read the same list, so both backends see the same
files. A gs:// path is listed by TensorFlow (engine.worker.flowers_tf) — only tf.data reads object storage.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.worker.keras_files import DatasetUnavailable

TFRECORD_EXTS = (".tfrec", ".tfrecord")
IMAGE_EXTS = (".jpg", ".jpeg", ".JPG", ".JPEG")
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
    """The set under `data_dir`: TFRecord files directly in it, else class sub-folders of JPEGs."""
    if not data_dir:
        raise DatasetUnavailable(
            "flowers needs --data-dir: a folder of *.tfrec / *.tfrecord files or of class folders of JPEGs"
        )
    root = Path(data_dir)
    if not root.is_dir():
        raise DatasetUnavailable(f"{data_dir} is not a folder (flowers needs TFRecords or class folders of JPEGs)")
    records = sorted(str(p) for p in root.iterdir() if p.suffix in TFRECORD_EXTS and p.is_file())
    if records:
        return ImageFiles("tfrecord", records, [], [])
    classes = sorted(p.name for p in root.iterdir() if p.is_dir())
    files: list[str] = []
    labels: list[int] = []
    for label, name in enumerate(classes):
        found = sorted(str(p) for p in (root / name).iterdir() if p.suffix in IMAGE_EXTS)
        files += found
        labels += [label] * len(found)
    if not files:
        raise DatasetUnavailable(
            f"no *.tfrec or *.tfrecord files in {data_dir}, and no class folders of JPEGs "
            "(write a small set with: engine data sample flowers --out DIR --examples 512)"
        )
    return ImageFiles("folder", files, labels, classes)


def split(items: list, held_out: bool) -> list:
    """The training (or held-out validation) share of a listing: every VALIDATION_EVERY-th item is held out."""
    return [x for i, x in enumerate(items) if (i % VALIDATION_EVERY == 0) == held_out]
