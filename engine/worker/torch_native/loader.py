"""The flowers files through torch's DataLoader, as PyTorch's tutorials write it (issue 38).

A map-style Dataset over the same files tf.data reads (engine.worker.image_files): JPEGs in the ImageFolder
layout, or the records of TFRecord files (engine.worker.tfrecord_read, no TensorFlow). Each item is decoded by
PIL and resized to 192×192 (image_files.decode, bilinear as tf.image.resize) in the loader's worker processes
(`num_workers` = --input-workers, AUTOTUNE = the host's cores), `prefetch_factor` batches ahead per worker
(--prefetch, AUTOTUNE = torch's default 2), `pin_memory` on a GPU, shuffled each epoch, full batches only;
--cache keeps the decoded images after the first pass (`_cached`).
Batches are NHWC float32 in [0, 1] like every backend's; the run moves them to the device. The held-out
validation examples are the same as tf.data's. torchvision is not needed (not installed beside torch 2.13 here).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.worker.arrays import ArrayPipeline, shuffled_batches
from engine.worker.image_files import decode, training_split

TORCH_DEFAULT_PREFETCH = 2


class FlowerImages(Dataset):
    """(HxWx3 uint8 image, class id) per item: a JPEG file, or a record at (file, offset, length)."""

    def __init__(self, items: list):
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        return decode(self.items[i])  # names its file (errors.DataFileError): the run sees only its text


class _Numbered(FlowerImages):
    """(index, image, class id): --cache's first pass keeps each image at its place."""

    def __getitem__(self, i: int):
        return (i, *decode(self.items[i]))


def _collate(items):
    x = torch.from_numpy(np.stack([im for im, _ in items])).float().div_(255.0)
    return x, torch.tensor([label for _, label in items], dtype=torch.int32)


def _collate_numbered(items):
    images = torch.from_numpy(np.stack([im for _, im, _ in items]))
    return torch.tensor([i for i, _, _ in items]), images, torch.tensor([y for _, _, y in items], dtype=torch.int32)


def _endless(loader: DataLoader) -> Iterator:
    while True:
        yield from loader


def loader(items: list, batch: int, settings: InputSettings, shuffle: bool, device_type: str, seed=0, first=False):
    """The DataLoader over `items`; `first`: --cache's one pass, every item once (numbered), then its workers end."""
    workers = settings.workers or len(os.sched_getaffinity(0))
    return DataLoader(
        _Numbered(items) if first else FlowerImages(items),
        batch_size=batch,
        shuffle=shuffle,
        drop_last=not first,
        num_workers=workers,
        prefetch_factor=settings.prefetch or TORCH_DEFAULT_PREFETCH,
        persistent_workers=not first,
        pin_memory=device_type == "cuda",
        collate_fn=_collate_numbered if first else _collate,
        generator=torch.Generator().manual_seed(seed),
    )


def _cached(items: list, batch: int, settings: InputSettings, shuffle: bool, device_type: str, seed=0) -> Iterator:
    """--cache, as tf.data's cache() before its shuffle: the first pass decodes in the DataLoader's workers and
    keeps every image, uint8, in one array allocated up front (so a set too big for memory fails before a step);
    later passes are batches of that array (arrays.shuffled_batches), reshuffled each pass, with no worker."""
    first_pass = iter(loader(items, batch, settings, shuffle, device_type, seed, first=True))  # forks the workers
    kept_x = np.empty((len(items), *catalog.DATASETS["flowers"].input_shape), np.uint8)  # after: not in their space
    kept_y = np.empty(len(items), np.int32)
    for at, x, y in first_pass:
        kept_x[at.numpy()], kept_y[at.numpy()] = x.numpy(), y.numpy()
        if len(at) == batch:  # full batches only, as on every pass
            yield x.float().div_(255.0), y
    yield from shuffled_batches(kept_x, kept_y, batch, "image", shuffle, seed)


def _batches(items: list, batch: int, settings: InputSettings, shuffle: bool, device_type: str) -> Iterator:
    if settings.cache:
        return _cached(items, batch, settings, shuffle, device_type)
    return _endless(loader(items, batch, settings, shuffle, device_type))


def flowers(data_dir: str, batch: int, validation: bool, settings: InputSettings, device_type: str) -> ArrayPipeline:
    """The run's pipeline: endless training (and validation) batches from DataLoaders."""
    images, train_items, held_out = training_split(data_dir, batch, validation, settings.cache)
    train = _batches(train_items, batch, settings, True, device_type)
    val = _batches(held_out, batch, settings, False, device_type) if held_out else None
    source = (
        f"flowers: {images.describe(data_dir)}, {len(train_items)} training examples; torch DataLoader, "
        f"{settings.describe()}, pin_memory {device_type == 'cuda'}"
    )
    info = catalog.DATASETS["flowers"]
    return ArrayPipeline(train, val, info, source, len(train_items))
