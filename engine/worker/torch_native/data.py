"""NumPy batches (engine.worker.arrays, the same data as every backend) as device tensors.

Images arrive NHWC (Keras's layout); `permute(0, 3, 1, 2)` gives PyTorch's NCHW shape whose memory is still
NHWC — channels_last — which is what a convnet trained with channels_last wants, at no copy. Synthetic data
is one cached batch: it is moved to the device once, so the input cost per step is ~0, as on other backends.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import torch

from engine.worker.arrays import Batch


def to_tensors(
    batch: Batch, device: torch.device, channels_last: bool, keras_layout: bool = True
) -> tuple[torch.Tensor, torch.Tensor]:
    """`keras_layout`: images come NHWC (the zoo's data); a user's module gets its own layout as given."""
    x_np, y_np = batch  # NumPy, or host tensors from a DataLoader (engine.worker.torch_native.loader)
    x = x_np if isinstance(x_np, torch.Tensor) else torch.from_numpy(np.ascontiguousarray(x_np))
    if x.ndim == 4:
        if keras_layout:
            x = x.permute(0, 3, 1, 2)  # NHWC memory, NCHW shape: channels_last
        x = x.contiguous(memory_format=torch.channels_last if channels_last else torch.contiguous_format)
    elif x.dtype != torch.float32:
        x = x.long()  # token ids index an Embedding
    y = (y_np if isinstance(y_np, torch.Tensor) else torch.from_numpy(np.ascontiguousarray(y_np))).long()
    return x.to(device, non_blocking=True), y.to(device, non_blocking=True)


def device_batches(
    source: Iterator[Batch], device: torch.device, channels_last: bool, cached: bool, keras_layout: bool = True
) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Endless device batches; `cached`: the source repeats one batch, converted once."""
    if cached:
        one = to_tensors(next(source), device, channels_last, keras_layout)
        while True:
            yield one
    for batch in source:
        yield to_tensors(batch, device, channels_last, keras_layout)
