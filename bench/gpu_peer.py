"""An independent plain-PyTorch timing (no AccelBench code) to hold the engine's GPU numbers against.

    python bench/gpu_peer.py [--smoke] [--device cuda|cpu]

Prints one JSON line per measurement:
  matmul   torch.matmul 8192³ in bfloat16, timed with CUDA events over 20 calls after 3 warm-ups.
  fashion  article 000's Fashion-MNIST CNN written directly in torch.nn (BatchNorm, 3 × [5×5 conv 64/128/256,
           ELU, 2×2 max-pool, dropout .25], dense 256 ELU, dropout .5, dense 10), channels_last, fused Adam
           1e-3 (foreach where the build has no fused kernel), cross-entropy,
           batch 1024 of one synthetic batch, float32; 10 warm-up steps, then 100 steps with a sync only at the
           end — the same steady-state definition as the engine's windowed figure.
"""

from __future__ import annotations

import argparse
import json
import time

import torch
from torch import nn


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def matmul(n: int, device: str, dtype=torch.bfloat16, repeats: int = 20) -> dict:
    a = torch.rand((n, n), device=device).to(dtype)
    b = torch.rand((n, n), device=device).to(dtype)
    for _ in range(3):
        torch.matmul(a, b)
    _sync(device)
    t0 = time.perf_counter()
    for _ in range(repeats):
        torch.matmul(a, b)
    _sync(device)
    dt = (time.perf_counter() - t0) / repeats
    return {"peer": "torch.matmul", "n": n, "dtype": str(dtype), "ms": dt * 1e3, "tflops": 2 * n**3 / dt / 1e12}


def fashion_cnn() -> nn.Module:
    blocks: list[nn.Module] = []
    channels = 1
    for filters in (64, 128, 256):
        blocks += [nn.BatchNorm2d(channels), nn.Conv2d(channels, filters, 5, padding="same"), nn.ELU()]
        blocks += [nn.MaxPool2d(2), nn.Dropout(0.25)]
        channels = filters
    head = [nn.Flatten(), nn.Linear(256 * 3 * 3, 256), nn.ELU(), nn.Dropout(0.5), nn.Linear(256, 10)]
    return nn.Sequential(*blocks, *head)


def train(device: str, batch: int, steps: int, warmup: int = 10) -> dict:
    torch.manual_seed(0)
    # what a PyTorch user writes for a convnet: channels_last memory and the fused Adam (one kernel per step)
    model = fashion_cnn().to(device, memory_format=torch.channels_last)
    try:
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    except (RuntimeError, TypeError, ValueError):  # an old build or a device without it
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, foreach=True)
    loss_fn = nn.CrossEntropyLoss()
    x = torch.rand((batch, 1, 28, 28), device=device).contiguous(memory_format=torch.channels_last)
    y = torch.randint(0, 10, (batch,), device=device)

    def step() -> torch.Tensor:
        loss = loss_fn(model(x), y)
        # the engine's order (engine/worker/torch_native/step.py): last step's gradients are freed after the
        # forward, right before backward allocates the same sizes again; freeing them before the forward made
        # this loop 10 % slower on a CPU (653 vs 725 ex/s, fashion_cnn b64; BENCHMARKS.md), glibc's allocator
        # handing the memory back and forth; a CUDA caching allocator does not care
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss

    for _ in range(warmup):
        step()
    _sync(device)
    t0 = time.perf_counter()
    for _ in range(steps):
        loss = step()
    _sync(device)
    dt = time.perf_counter() - t0
    return {
        "peer": "torch.nn fashion_cnn",
        "batch": batch,
        "steps": steps,
        "examples_per_sec": steps * batch / dt,
        "loss": float(loss.detach()),
    }


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--smoke", action="store_true")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    a = p.parse_args()
    n, batch, steps = (256, 32, 5) if a.smoke else (8192, 1024, 100)
    print(json.dumps(matmul(n, a.device)), flush=True)
    print(json.dumps(train(a.device, batch, steps)), flush=True)


if __name__ == "__main__":
    main()
