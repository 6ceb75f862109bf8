"""Per-op FLOPs and bytes of one training step per example (float32), from XLA: bench/model_costs.py.

Written by:

    KERAS_BACKEND=jax JAX_PLATFORMS=cpu .venv/bin/python bench/model_costs.py > engine/compare/facts/model_costs.py && .venv/bin/ruff format engine/compare/facts/model_costs.py

on 2026-11-25 with Keras 3.15.1, JAX 0.10.2 (HLO traced on CPU; nothing runs).
Do not edit by hand; re-run the command."""

from __future__ import annotations

# intensity bin edges (FLOPs per byte): a bin k holds the convolutions and dots with EDGES[k-1] ≤ intensity < EDGES[k]
EDGES = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0]

# model → (batch traced, {bin: (FLOPs, bytes)} of its convolutions and dots, bytes of the rest, XLA's whole-step
# FLOPs, how it was counted); all per training example
COSTS: dict[str, tuple[int, dict[int, tuple[float, float]], float, float, str]] = {
    "fashion_cnn": (
        1024,
        {5: (1.536e04, 3222), 6: (7.526e06, 6.115e05), 9: (3.539e06, 3.763e04), 12: (4.817e08, 6.894e05)},
        1.35e07,
        4.928e08,
        "XLA, zoo model at 28×28×1, batch 1024",
    ),
    "tiny_cnn": (1024, {5: (2.206e06, 4.836e05)}, 4.165e06, 2.727e06, "XLA, zoo model at 28×28×1, batch 1024"),
    "flowers_cnn": (
        256,
        {
            4: (2970, 1271),
            6: (6.37e07, 5.603e06),
            7: (2.737e07, 1.238e06),
            8: (1.019e09, 2.123e07),
            9: (1.019e09, 1.062e07),
            10: (6.37e08, 3.983e06),
        },
        2.358e08,
        2.767e09,
        "XLA, zoo model at 192×192×3, batch 256",
    ),
    "vgg19": (
        128,
        {
            4: (1.229e05, 5.113e04),
            6: (2.548e08, 1.976e07),
            8: (5.536e08, 9.019e06),
            10: (1.223e10, 7.787e07),
            11: (1.223e10, 3.897e07),
            12: (2.854e10, 4.805e07),
            13: (3.261e10, 2.986e07),
        },
        7.751e08,
        8.642e10,
        "XLA, zoo model at 192×192×3, batch 128",
    ),
    "xception": (
        128,
        {
            4: (3.183e08, 1.415e08),
            6: (1.036e08, 9.886e06),
            7: (1.351e09, 4.994e07),
            8: (1.552e09, 2.914e07),
            9: (1.867e09, 1.983e07),
            10: (1.414e10, 7.837e07),
            11: (1.234e09, 3.687e06),
        },
        1.093e09,
        6.596e10,
        "XLA, zoo model at 192×192×3, batch 128",
    ),
    "resnet152v2": (
        128,
        {
            4: (6.144e04, 2.56e04),
            6: (5.662e07, 3.539e06),
            7: (1.189e09, 4.646e07),
            8: (3.773e09, 7.302e07),
            9: (1.656e10, 1.646e08),
            10: (3.016e09, 1.812e07),
            11: (1.632e10, 4.117e07),
            12: (9.343e09, 1.476e07),
            13: (9.06e08, 8.356e05),
        },
        3.001e09,
        5.116e10,
        "XLA, zoo model at 192×192×3, batch 128",
    ),
    "resnet50": (
        256,
        {
            6: (1.798e08, 1.204e07),
            7: (1.952e09, 7.587e07),
            8: (3.349e09, 6.494e07),
            9: (4.02e09, 4.003e07),
            10: (5.061e09, 3.043e07),
            11: (3.597e09, 1.208e07),
            12: (7.065e09, 1.077e07),
        },
        1.297e09,
        2.522e10,
        "XLA, zoo model at 224×224×3, batch 256",
    ),
    "inceptionv3": (
        256,
        {
            6: (6.562e07, 6.039e06),
            7: (7.75e08, 3.325e07),
            8: (1.699e08, 3.106e06),
            9: (4.183e09, 5.205e07),
            10: (4.223e09, 2.063e07),
            11: (6.941e09, 2.325e07),
            12: (5.6e08, 7.793e05),
            13: (1.403e09, 1.108e06),
        },
        6.36e08,
        1.832e10,
        "XLA, zoo model at 224×224×3, batch 256",
    ),
    "reuters_conv1d": (
        256,
        {6: (3.996e06, 2.526e05), 7: (4.233e06, 1.47e05), 8: (1.819e06, 5.667e04)},
        2.788e06,
        1.031e07,
        "XLA, zoo model at 300, batch 256",
    ),
    "bilstm": (
        128,
        {2: (2.458e04, 2.498e04), 7: (1.887e09, 5.99e07), 8: (1.51e10, 2.728e08)},
        0,
        1.699e10,
        "XLA, zoo model at 300, batch 128; the LSTM loop's matmuls × 300 steps, its element-wise gate bytes not counted",
    ),
    "gpt2_small": (
        32,
        {7: (1.16e11, 4.077e09), 10: (1.739e11, 9.166e08), 11: (5.85e11, 1.795e09)},
        1.841e10,
        8.819e11,
        "XLA, zoo model at 1024, batch 32",
    ),
    "gpt_tiny": (
        256,
        {6: (5.033e07, 4.719e06), 7: (1.007e08, 3.152e06), 8: (3.02e08, 5.72e06)},
        3.755e07,
        4.704e08,
        "XLA, zoo model at 128, batch 256",
    ),
    "bert_base": (
        64,
        {2: (9216, 9528), 7: (1.815e09, 1.134e08), 10: (2.174e10, 1.186e08), 11: (4.349e10, 1.522e08)},
        9.643e08,
        6.757e10,
        "XLA, zoo model at 128, batch 64",
    ),
    "bert_tiny": (
        256,
        {2: (1536, 1572), 7: (1.511e08, 6.301e06), 8: (2.013e08, 3.944e06)},
        2.736e07,
        3.67e08,
        "XLA, zoo model at 128, batch 256",
    ),
    "bert_base@384": (
        32,
        {
            2: (9216, 9816),
            6: (3.539e06, 2.396e05),
            7: (1.631e10, 6.795e08),
            10: (6.523e10, 3.504e08),
            11: (1.305e11, 4.459e08),
        },
        3.787e09,
        2.137e11,
        "XLA at 1 and 2 blocks, extrapolated to 12 (d 768, seq 384), batch 32",
    ),
    "bert_base@512": (
        32,
        {
            2: (9216, 9816),
            6: (3.539e06, 2.396e05),
            7: (2.899e10, 1.132e09),
            10: (8.697e10, 4.636e08),
            11: (1.739e11, 5.875e08),
        },
        5.583e09,
        2.923e11,
        "XLA at 1 and 2 blocks, extrapolated to 12 (d 768, seq 512), batch 32",
    ),
    "bert_large@128": (
        32,
        {
            2: (1.229e04, 1.308e04),
            6: (6.291e06, 4.178e05),
            7: (4.832e09, 3.02e08),
            10: (7.731e10, 3.397e08),
            11: (1.546e11, 4.53e08),
        },
        2.899e09,
        2.382e11,
        "XLA at 1 and 2 blocks, extrapolated to 24 (d 1024, seq 128), batch 32",
    ),
    "bert_large@384": (
        16,
        {
            2: (1.229e04, 1.385e04),
            5: (6.291e06, 8.11e05),
            7: (4.349e10, 1.812e09),
            10: (2.319e11, 9.815e08),
            11: (4.639e11, 1.283e09),
        },
        1.062e10,
        7.44e11,
        "XLA at 1 and 2 blocks, extrapolated to 24 (d 1024, seq 384), batch 16",
    ),
    "bert_large@512": (
        16,
        {
            2: (1.229e04, 1.385e04),
            5: (6.291e06, 8.11e05),
            7: (7.731e10, 3.02e09),
            10: (3.092e11, 1.283e09),
            11: (6.185e11, 1.661e09),
        },
        1.543e10,
        1.012e12,
        "XLA at 1 and 2 blocks, extrapolated to 24 (d 1024, seq 512), batch 16",
    ),
    "gpt2_xl@1024": (
        8,
        {7: (9.664e11, 3.397e10), 11: (3.02e12, 8.287e09), 12: (6.534e12, 1.167e10)},
        1.417e11,
        1.058e13,
        "XLA at 1 and 2 blocks, extrapolated to 48 (d 1600, seq 1024), batch 8",
    ),
}

# published-only models without a builder: the zoo model whose op mix stands in for theirs
PROXIES: dict[str, str] = {
    "resnet152": "resnet152v2",
    "ssd": "resnet50",
    "waveglow": "resnet50",
    "gnmt": "bilstm",
    "tacotron2": "bilstm",
}
