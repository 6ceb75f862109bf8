"""The flowers files through torch's DataLoader, as PyTorch's tutorials write it (issue 38).

A map-style Dataset over the same files tf.data reads (engine.worker.image_files): JPEGs in the ImageFolder
layout, or the records of TFRecord files (engine.worker.tfrecord_read, no TensorFlow). Each item is decoded by
PIL and resized to 192×192 (bilinear, as tf.image.resize) in the loader's worker processes
(`num_workers` = --input-workers, AUTOTUNE = the host's cores), `prefetch_factor` batches ahead per worker
(--prefetch, AUTOTUNE = torch's default 2), `pin_memory` on a GPU, shuffled each epoch, full batches only.
Batches are NHWC float32 in [0, 1] like every backend's; the run moves them to the device. The held-out
validation examples are the same as tf.data's. torchvision is not needed (not installed beside torch 2.13 here).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.worker.arrays import ArrayPipeline
from engine.worker.image_files import examples, find_images, read_item, undecodable
from engine.worker.keras_files import DatasetUnavailable

TORCH_DEFAULT_PREFETCH = 2


class FlowerImages(Dataset):
    """(HxWx3 uint8 image, class id) per item: a JPEG file, or a record at (file, offset, length)."""

    def __init__(self, items: list):
        self.items = items
        self.height, self.width, _ = catalog.DATASETS["flowers"].input_shape

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        from PIL import Image

        data, label = read_item(self.items[i])  # names its file (errors.DataFileError): the run sees only its text
        try:
            img = Image.open(io.BytesIO(data)).convert("RGB")
        except (OSError, ValueError, SyntaxError) as exc:  # PIL's errors for a file that is not a whole JPEG
            raise undecodable(self.items[i], exc, data) from None
        if img.size != (self.width, self.height):
            img = img.resize((self.width, self.height), Image.Resampling.BILINEAR)
        return np.asarray(img, dtype=np.uint8), int(label)


def _collate(items):
    x = torch.from_numpy(np.stack([im for im, _ in items])).float().div_(255.0)
    return x, torch.tensor([label for _, label in items], dtype=torch.int32)


def _endless(loader: DataLoader) -> Iterator:
    while True:
        yield from loader


def loader(items: list, batch: int, settings: InputSettings, shuffle: bool, device_type: str, seed=0):
    workers = settings.workers or len(os.sched_getaffinity(0))
    return DataLoader(
        FlowerImages(items),
        batch_size=batch,
        shuffle=shuffle,
        drop_last=True,
        num_workers=workers,
        prefetch_factor=settings.prefetch or TORCH_DEFAULT_PREFETCH,
        persistent_workers=True,
        pin_memory=device_type == "cuda",
        collate_fn=_collate,
        generator=torch.Generator().manual_seed(seed),
    )


def flowers(data_dir: str, batch: int, validation: bool, settings: InputSettings, device_type: str) -> ArrayPipeline:
    """The run's pipeline: endless training (and validation) batches from DataLoaders."""
    images = find_images(data_dir.rstrip("/"))
    train_items = examples(images, False)
    if len(train_items) < batch:
        raise DatasetUnavailable(
            f"flowers has {len(train_items)} training examples, fewer than one global batch of {batch}; "
            "use a smaller --batch-size"
        )
    train = _endless(loader(train_items, batch, settings, True, device_type))
    val = None
    held_out = examples(images, True) if validation else []
    if held_out:  # repeated up to one full batch, as tf.data repeats before batching
        held_out = held_out * -(-batch // len(held_out))
        val = _endless(loader(held_out, batch, settings, False, device_type))
    source = (
        f"flowers: {images.describe(data_dir)}, {len(train_items)} training examples; torch DataLoader, "
        f"{settings.describe()}, pin_memory {device_type == 'cuda'}"
    )
    info = catalog.DATASETS["flowers"]
    return ArrayPipeline(train, val, info, source, len(train_items))
