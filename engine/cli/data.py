"""`data sample flowers --out DIR --examples N [--layout tfrecord|folder] [--size WxH]`: a small real image set.

Real JPEG bytes in the seed's flowers layouts (engine.worker.sample_data), so a user or a test can run the file
pipeline (`engine run --dataset flowers --data-dir DIR`) without a download. The folder layout needs Pillow only
(every backend reads it, TensorFlow or not); TFRecords need TensorFlow's writer, and are the default where it is
installed. A write that fails (a read-only or full disk) is one line, and what it had written is removed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from pathlib import Path

from engine.catalog.backends import INFO, installed, pillow_installed
from engine.catalog.framework_support import pillow_install_command
from engine.cli.common import EXIT_FAILED, EXIT_OK, fail, prog

MAX_EXAMPLES = 1_000_000
MAX_SIDE = 8192


def add_parser(sub) -> None:
    d = sub.add_parser("data", help="write a small real dataset to try the file input pipeline")
    dsub = d.add_subparsers(dest="action", required=True)
    s = dsub.add_parser("sample", help="write a flowers-style set of real JPEGs (TFRecords or a class-folder tree)")
    s.add_argument("dataset", choices=("flowers",))
    s.add_argument("--out", required=True, help="the folder to write (created; must be empty if it exists)")
    s.add_argument("--examples", required=True, help=f"how many pictures, 1 to {MAX_EXAMPLES:,}")
    s.add_argument(
        "--layout",
        choices=("tfrecord", "folder"),
        help="tfrecord (the seed's; needs TensorFlow, the default where it is installed) or folder (ImageFolder)",
    )
    s.add_argument("--size", default="192x192", help="picture size WxH in pixels (default 192x192, the seed's)")
    s.add_argument("--json", action="store_true")


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not m:
        fail(f"--size: must be WIDTHxHEIGHT in pixels like 500x375, got {text!r}")
    width, height = int(m.group(1)), int(m.group(2))
    if not (8 <= width <= MAX_SIDE and 8 <= height <= MAX_SIDE):
        fail(f"--size: each side must be from 8 to {MAX_SIDE} pixels, got {width}x{height}")
    return width, height


def _examples(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= MAX_EXAMPLES:
        fail(f"--examples: must be a whole number from 1 to {MAX_EXAMPLES:,}, got {text!r}")
    return int(text)


def _layout(asked: str | None) -> str:
    """The layout to write: as asked, else TFRecords where TensorFlow can write them, else the folder layout."""
    if not pillow_installed():
        fail(f"writing JPEGs needs Pillow, which is not installed here; install it with: {pillow_install_command()}")
    if asked == "tfrecord" and not installed("tensorflow"):
        fail(
            "--layout tfrecord: writing TFRecords needs TensorFlow; use --layout folder (every backend reads it), "
            f"or install it with: {INFO['tensorflow'].install}"
        )
    if asked:
        return asked
    if installed("tensorflow"):
        return "tfrecord"
    print("accelbench: TensorFlow is not installed here: writing the folder layout (--layout picks)", file=sys.stderr)
    return "folder"


def _first_missing(out: Path) -> Path | None:
    """The outermost folder of `out` (itself included) that does not exist yet: what a failed write removes."""
    missing = None
    for folder in (out, *out.parents):
        if folder.exists():
            return missing
        missing = folder
    return missing


def _write(out: Path, n: int, layout: str, width: int, height: int):
    """write_sample, or one line (exit 1) after removing what it wrote: the folders it made, or the files in
    the empty folder it was given."""
    from engine.worker.sample_data import write_sample

    created = _first_missing(out)
    try:
        return write_sample(str(out), n, layout, width, height)
    except BaseException as exc:  # a full disk, a read-only folder, Ctrl-C: nothing half-written stays
        if created is not None:
            shutil.rmtree(created, ignore_errors=True)
        else:
            for child in out.iterdir():
                shutil.rmtree(child, ignore_errors=True) if child.is_dir() else child.unlink(missing_ok=True)
        if not isinstance(exc, OSError):
            raise
        reason = exc.strerror or str(exc).strip().splitlines()[0]
        where = f" ({exc.filename})" if exc.filename else ""
        fail(
            f"--out: cannot write {out}: {reason}{where}; nothing was left there — name a writable folder with room",
            EXIT_FAILED,
        )


def cmd_data(args: argparse.Namespace) -> int:
    n, (width, height) = _examples(args.examples), _size(args.size)
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        fail(f"--out: {out} exists and is not an empty folder; name a new folder")
    layout = _layout(args.layout)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TensorFlow writes TFRecords: keep its start-up logs quiet
    written = _write(out, n, layout, width, height)
    if args.json:
        print(json.dumps(written.__dict__))
    else:
        print(
            f"wrote {written.examples} JPEGs ({width}x{height}, {written.jpeg_bytes / 1e6:.1f} MB) as "
            f"{written.files} {'TFRecord file(s)' if layout == 'tfrecord' else 'files in class folders'} "
            f"in {out}\ntry: {prog()} run --model flowers_cnn --dataset flowers --data-dir {out}"
        )
    return EXIT_OK
