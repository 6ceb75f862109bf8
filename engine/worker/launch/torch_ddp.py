"""What a PyTorch rank changes in the ordinary native run (engine.worker.torch_native.run): its device, the
model wrapped in DistributedDataParallel (gradients all-reduced, averaged over ranks, in buckets overlapped with
the backward), its shard of each global batch, and the epoch's loss and accuracy summed over every rank."""

from __future__ import annotations

from types import ModuleType

import torch
import torch.distributed as dist
from torch import nn

from engine.worker.launch.ranks import Rank


def device_of(rank: Rank | None, ops: ModuleType, device: str) -> torch.device:
    """One process per GPU (its local rank); a CPU process is one CPU device."""
    if rank is not None and device == "gpu":
        torch.cuda.set_device(rank.local_rank)
        return torch.device("cuda", rank.local_rank)
    return ops.devices(device)[0]


def wrap(module: nn.Module, rank: Rank | None, device: torch.device) -> nn.Module:
    """DDP around the module on a rank (its parameters are still the module's); the module itself otherwise."""
    if rank is None:
        return module
    from torch.nn.parallel import DistributedDataParallel

    return DistributedDataParallel(module, device_ids=[device.index] if device.type == "cuda" else None)


def epoch_totals(loss_sum: torch.Tensor, correct: torch.Tensor, rank: Rank | None) -> tuple[float, float, int]:
    """(loss summed over steps, averaged over ranks; correct predictions over every rank; ranks): one all-reduce
    per epoch, outside the timed windows' steps."""
    if rank is None or not dist.is_initialized():
        return float(loss_sum), float(correct), 1
    both = torch.stack([loss_sum.float(), correct.float()])
    dist.all_reduce(both)
    return float(both[0]) / rank.world, float(both[1]), rank.world
