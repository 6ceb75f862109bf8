"""The training step as PyTorch users write it: autocast for mixed precision (a GradScaler for float16),
a fused optimizer where the build has one, torch.compile of the model, and the TF32 setting made explicit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn

from engine.worker.torch_native.models import Recipe

AMP_DTYPES = {"float32": None, "mixed_bfloat16": torch.bfloat16, "mixed_float16": torch.float16}
StepFn = Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]]


@dataclass
class Trainer:
    """What trains: the module (compiled or not), its optimizer and the step.

    Attributes:
      module: the eager module (its parameters are the ones trained).
      model: what the step calls: torch.compile(module), or the module itself.
      optimizer: the recipe's optimizer. optimizer_note: fused, foreach or plain, as built.
      scaler: a GradScaler for float16, else None.
      amp_dtype: autocast's dtype (None: float32).
      device: where it runs.
    """

    module: nn.Module
    model: Callable[[torch.Tensor], torch.Tensor]
    optimizer: torch.optim.Optimizer
    optimizer_note: str
    scaler: torch.amp.GradScaler | None
    amp_dtype: torch.dtype | None
    device: torch.device

    def step(self, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """One training step; returns (loss, correct predictions) as device tensors (no host sync)."""
        with torch.autocast(
            self.device.type, dtype=self.amp_dtype or torch.float32, enabled=self.amp_dtype is not None
        ):
            logits = self.model(x)
        loss = loss_of(logits, y)
        # after the forward, not before it: backward then reuses the freed gradients' memory at once (on a CPU
        # freeing them before the forward cost 10 % a step; bench/gpu_peer.py, BENCHMARKS.md)
        self.optimizer.zero_grad(set_to_none=True)
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            loss.backward()
            self.optimizer.step()
        return loss.detach(), hits(logits.detach(), y)


def loss_of(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Cross-entropy in float32 (as Keras's mixed policy) over every label: a class per example, or a language
    model's next token per position — (N, T, vocab) logits against (N, T) labels, averaged over positions."""
    return nn.functional.cross_entropy(logits.flatten(0, -2).float(), y.flatten())


def hits(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Correct predictions counted per example (a language model's: its fraction of positions right), so
    hits / examples is the accuracy Keras reports for both."""
    return (logits.argmax(-1) == y).float().reshape(len(y), -1).mean(1).sum()


def make_optimizer(params, recipe: Recipe, device: torch.device) -> tuple[torch.optim.Optimizer, str]:
    """The recipe's optimizer, fused where this build and device have it (one kernel per step), else foreach."""
    params = list(params)
    ctor: Callable[..., torch.optim.Optimizer]
    kwargs: dict = {"lr": recipe.learning_rate}
    if recipe.optimizer == "sgd":
        ctor, kwargs["momentum"] = torch.optim.SGD, 0.9
    elif recipe.optimizer == "nadam":
        ctor = torch.optim.NAdam  # no fused NAdam in PyTorch
        return ctor(params, foreach=True, **kwargs), "NAdam (foreach; PyTorch has no fused NAdam)"
    elif recipe.optimizer == "adamw":
        ctor, kwargs["weight_decay"] = torch.optim.AdamW, 0.01
    else:
        ctor = torch.optim.Adam
    try:
        return ctor(params, fused=True, **kwargs), f"{ctor.__name__} (fused)"
    except (RuntimeError, TypeError, ValueError) as exc:  # an old build or a device without the fused kernel
        return ctor(params, foreach=True, **kwargs), f"{ctor.__name__} (foreach; fused unavailable: {str(exc)[:60]})"


def tf32_note(device: torch.device, precision: str) -> str:
    """Set and say the TF32 setting: float32 matmuls and convolutions on TF32 tensor cores on a GPU
    (torch.set_float32_matmul_precision('high'), what NGC's recipes do); not applicable on a CPU."""
    if device.type != "cuda":
        return "TF32: not applicable on a CPU (float32 is full float32)"
    torch.set_float32_matmul_precision("high")
    torch.backends.cudnn.allow_tf32 = True
    what = "float32 layers" if precision == "float32" else "float32 ops outside autocast"
    return f"TF32 on for {what} (torch.set_float32_matmul_precision('high'), cudnn.allow_tf32=True)"


def compiled(module: nn.Module, on: bool) -> tuple[Callable[[torch.Tensor], torch.Tensor], str]:
    """(what the step calls, a note): torch.compile(module) — compiled lazily, at the first step, so its
    time lands in time_to_first_step_s — or the eager module."""
    if not on:
        return module, "eager (--no-compile)"
    drop_torn_kernels()
    return torch.compile(module), "torch.compile (inductor, default mode; compile time is in time to first step)"


TORN_AGE_S = 600.0  # older than any one kernel's C++ compile, so a peer rank's build in progress is never touched


def drop_torn_kernels() -> int:
    """Remove empty `.so` files that a compile killed mid-build left in inductor's shared cache: without this,
    every later torch.compile on the machine fails with "ImportError: … .so: file too short". Returns how
    many were removed."""
    import time
    from pathlib import Path

    from torch._inductor.runtime.cache_dir_utils import cache_dir

    now, removed = time.time(), 0
    for so in Path(cache_dir()).rglob("*.so"):
        try:
            st = so.stat()
            if st.st_size == 0 and now - st.st_mtime > TORN_AGE_S:
                so.unlink()
                removed += 1
        except OSError:  # gone already, or another user's file
            continue
    return removed
