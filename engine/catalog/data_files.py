"""Where a file-backed image set's examples are (issue 38), and what is wrong with a `--data-dir` (issue 45).

Pure Python (no framework): the launcher refuses a missing, empty or class-less folder before a worker starts
(engine.runs.jobs.prepare, exit 2), and the worker's readers (engine.worker.image_files) list the same files by
the same rules. A gs:// path is listed by TensorFlow in the worker: only tf.data reads object storage.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.catalog.fields import SpecError

TFRECORD_EXTS = (".tfrec", ".tfrecord")
IMAGE_EXTS = (".jpg", ".jpeg", ".JPG", ".JPEG")
SAMPLE_HINT = "write a small set with: engine data sample flowers --out DIR --examples 512"


def image_listing(data_dir: str) -> tuple[str, list[str], list[int], list[str]]:
    """(layout, files, labels, classes) under `data_dir`: "tfrecord" — TFRecord files directly in it (no labels,
    no classes) — else "folder": class sub-folders of JPEGs, one class id per file. SpecError("--data-dir", …)
    names what is wrong and what to do."""
    if not data_dir:
        raise SpecError(
            "--data-dir",
            "flowers needs --data-dir: a folder of *.tfrec / *.tfrecord files or of class folders of JPEGs",
        )
    root = Path(data_dir)
    if not root.is_dir():
        what = "does not exist" if not root.exists() else "is not a folder"
        raise SpecError("--data-dir", f"{data_dir} {what} (flowers needs TFRecords or class folders of JPEGs)")
    records = sorted(str(p) for p in root.iterdir() if p.suffix in TFRECORD_EXTS and p.is_file())
    if records:
        return "tfrecord", records, [], []
    classes = sorted(p.name for p in root.iterdir() if p.is_dir())
    files: list[str] = []
    labels: list[int] = []
    for label, name in enumerate(classes):
        found = sorted(str(p) for p in (root / name).iterdir() if p.suffix in IMAGE_EXTS and p.is_file())
        files += found
        labels += [label] * len(found)
    if files:
        return "folder", files, labels, classes
    loose = sum(1 for p in root.iterdir() if p.suffix in IMAGE_EXTS)
    if loose:
        raise SpecError(
            "--data-dir",
            f"{data_dir} has {loose} JPEG(s) but no class folders: put each class's JPEGs in its own folder "
            f"({data_dir}/CLASS/*.jpg), or {SAMPLE_HINT}",
        )
    empty = "" if any(root.iterdir()) else " (an empty folder)"
    raise SpecError(
        "--data-dir",
        f"no *.tfrec or *.tfrecord files in {data_dir}{empty}, and no class folders of JPEGs ({SAMPLE_HINT})",
    )


def check_data_dir(spec: Any) -> None:
    """Refuse a local `--data-dir` that holds no readable set before a worker starts (a gs:// path: the worker)."""
    data_dir = getattr(spec, "data_dir", "")
    if getattr(spec, "dataset", "") == "flowers" and not data_dir.startswith("gs://"):
        image_listing(data_dir.rstrip("/") or data_dir)
