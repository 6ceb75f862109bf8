"""Per-op FLOPs and bytes of one training step per example at the other input shapes of the catalog's image pairings (a run on flowers JPEGs at 192×192, say), from XLA: bench/model_costs.py.

Written by:

    KERAS_BACKEND=jax JAX_PLATFORMS=cpu .venv/bin/python bench/model_costs.py --shapes > engine/compare/facts/model_costs_shaped.py && .venv/bin/ruff format engine/compare/facts/model_costs_shaped.py

on 2026-11-28 with Keras 3.15.1, JAX 0.10.2 (HLO traced on CPU; nothing runs).
Do not edit by hand; re-run the command."""

from __future__ import annotations

# model → (batch traced, {bin: (FLOPs, bytes)} of its convolutions and dots, bytes of the rest, XLA's whole-step
# FLOPs, how it was counted); all per training example
SHAPED_COSTS: dict[str, tuple[int, dict[int, tuple[float, float]], float, float, str]] = {
    "fashion_cnn@32x32x3": (
        1024,
        {
            5: (1.536e04, 3222),
            8: (2.949e07, 8.234e05),
            9: (6.291e06, 6.451e04),
            12: (3.146e08, 5.922e05),
            13: (3.146e08, 3.045e05),
        },
        1.787e07,
        6.649e08,
        "XLA, zoo model at 32×32×3 (cifar10), batch 1024",
    ),
    "fashion_cnn@192x192x3": (
        1024,
        {
            4: (7680, 3147),
            8: (1.062e09, 2.964e07),
            9: (2.265e08, 2.215e06),
            12: (1.132e10, 2.124e07),
            13: (1.132e10, 1.063e07),
        },
        6.408e08,
        2.394e10,
        "XLA, zoo model at 192×192×3 (flowers), batch 1024",
    ),
    "tiny_cnn@32x32x3": (
        1024,
        {5: (8.64e05, 1.746e05), 6: (6.221e06, 4.854e05)},
        5.561e06,
        7.778e06,
        "XLA, zoo model at 32×32×3 (cifar10), batch 1024",
    ),
    "tiny_cnn@192x192x3": (
        1024,
        {4: (1.733e07, 6.965e06), 6: (2.495e08, 1.937e07)},
        2.228e08,
        2.946e08,
        "XLA, zoo model at 192×192×3 (flowers), batch 1024",
    ),
    "flowers_cnn@28x28x1": (
        256,
        {
            5: (4.575e05, 1.08e05),
            7: (4.277e05, 1.97e04),
            8: (2.168e07, 4.518e05),
            9: (2.168e07, 2.267e05),
            10: (1.355e07, 8.683e04),
        },
        4.984e06,
        5.778e07,
        "XLA, zoo model at 28×28×1 (fashion_mnist), batch 256",
    ),
    "flowers_cnn@32x32x3": (
        256,
        {
            5: (5940, 1354),
            6: (1.769e06, 1.557e05),
            7: (7.603e05, 3.474e04),
            8: (2.831e07, 5.9e05),
            9: (2.831e07, 2.958e05),
            10: (1.769e07, 1.128e05),
        },
        6.568e06,
        7.685e07,
        "XLA, zoo model at 32×32×3 (cifar10), batch 256",
    ),
    "vgg19@32x32x3": (
        128,
        {
            5: (2.458e05, 5.311e04),
            6: (7.078e06, 5.49e05),
            8: (1.132e08, 1.923e06),
            10: (5.662e08, 3.254e06),
            11: (1.132e09, 2.726e06),
            12: (6.795e08, 1.253e06),
        },
        3.473e07,
        2.499e09,
        "XLA, zoo model at 32×32×3 (cifar10), batch 128",
    ),
    "resnet152v2@32x32x3": (
        128,
        {
            5: (1.229e05, 2.662e04),
            6: (1.573e06, 9.869e04),
            7: (3.303e07, 1.299e06),
            8: (1.866e08, 3.821e06),
            9: (8.179e08, 9.249e06),
            10: (8.818e07, 5.544e05),
            11: (8.729e08, 1.888e06),
            12: (1.887e07, 3.584e04),
        },
        1.07e08,
        2.019e09,
        "XLA, zoo model at 32×32×3 (cifar10), batch 128",
    ),
    "resnet50@32x32x3": (
        256,
        {
            5: (1.229e05, 2.566e04),
            6: (3.67e06, 2.47e05),
            7: (3.985e07, 1.557e06),
            8: (6.835e07, 1.376e06),
            9: (1.641e08, 1.847e06),
            10: (1.201e08, 6.513e05),
            11: (1.185e08, 4.28e05),
        },
        2.992e07,
        5.146e08,
        "XLA, zoo model at 32×32×3 (cifar10), batch 256",
    ),
    "resnet50@192x192x3": (
        256,
        {
            4: (6.144e04, 2.512e04),
            6: (1.321e08, 8.849e06),
            7: (1.434e09, 5.575e07),
            8: (2.461e09, 4.773e07),
            9: (2.944e09, 2.935e07),
            10: (3.718e09, 2.245e07),
            11: (2.642e09, 8.883e06),
            12: (5.19e09, 8.051e06),
        },
        9.534e08,
        1.852e10,
        "XLA, zoo model at 192×192×3 (flowers), batch 256",
    ),
    "inceptionv3@192x192x3": (
        256,
        {
            4: (6.144e04, 2.512e04),
            6: (4.745e07, 4.381e06),
            7: (5.486e08, 2.356e07),
            8: (1.18e08, 2.16e06),
            9: (2.953e09, 3.681e07),
            10: (3.293e09, 1.581e07),
            11: (4.487e09, 1.495e07),
            12: (3.636e08, 5.589e05),
            13: (9.885e08, 7.831e05),
        },
        4.512e08,
        1.28e10,
        "XLA, zoo model at 192×192×3 (flowers), batch 256",
    ),
}
