"""Microbenchmark presets for the Run page: the seed articles' exact operations plus quick shapes.

Plain dicts of MicroSpec fields (engine.catalog.specs validates them like any other request). The two
article presets carry `reference_op`, the operation whose published times the Run page charts
next to a run; `REFERENCE_SHAPES` says what shape those published times were measured at, so a run
of another shape can be scaled to it by FLOPs (and labelled an estimate).
"""

from __future__ import annotations

from typing import Any

# Fields a preset may set; everything else on the form keeps the user's value.
SHAPE_FIELDS: dict[str, tuple[str, ...]] = {
    "matmul": ("m", "n", "k"),
    "conv2d": ("batch_size", "height", "width", "channels", "filters", "kernel_size"),
}

MICRO_PRESETS: dict[str, dict[str, Any]] = {
    "matmul_512": {
        "label": "Quick matmul 512³ (seconds)",
        "bench": "matmul",
        "m": 512,
        "n": 512,
        "k": 512,
        "repeats": 20,
        "warmup": 2,
    },
    "matmul_2048": {
        "label": "Matmul 2048³ (compute-bound; compare with the CPU peak)",
        "bench": "matmul",
        "m": 2048,
        "n": 2048,
        "k": 2048,
        "repeats": 10,
        "warmup": 2,
    },
    "conv_small": {
        "label": "Quick conv2d 4×64×64×3, 32 3×3 filters (seconds)",
        "bench": "conv2d",
        "batch_size": 4,
        "height": 64,
        "width": 64,
        "channels": 3,
        "filters": 32,
        "kernel_size": 3,
        "repeats": 20,
        "warmup": 2,
    },
    "article000_conv": {
        "label": "Article 000: conv 128×256×256×3 images, 256 5×5 kernels (CPU: tens of seconds)",
        "bench": "conv2d",
        "batch_size": 128,
        "height": 256,
        "width": 256,
        "channels": 3,
        "filters": 256,
        "kernel_size": 5,
        "repeats": 3,  # ~300 GFLOP a repeat: a few repeats already take a while on a CPU
        "warmup": 1,
        "reference_op": "conv2d",
    },
    "article002_matmul": {
        "label": "Article 002: matmul (10000×100) @ (100×100000) (CPU: tens of seconds)",
        "bench": "matmul",
        "m": 10000,
        "n": 100000,
        "k": 100,
        "repeats": 3,  # a 4 GB result: computed in blocks, seconds per repeat on a CPU
        "warmup": 1,
        "reference_op": "matmul",
    },
}

# The shape each seed article measured, per operation (what the reference rows' times are for).
REFERENCE_SHAPES: dict[str, dict[str, int]] = {
    op: {f: MICRO_PRESETS[name][f] for f in SHAPE_FIELDS[op]}
    for op, name in (("conv2d", "article000_conv"), ("matmul", "article002_matmul"))
}


def preset_fields(name: str) -> dict[str, Any]:
    """The MicroSpec fields a preset sets (its label and reference tag removed)."""
    return {k: v for k, v in MICRO_PRESETS[name].items() if k not in ("label", "reference_op")}


def matching_preset(request: dict[str, Any]) -> str | None:
    """The preset whose operation and shape equal `request`'s, if any (repeats may differ)."""
    bench = request.get("bench")
    for name, preset in MICRO_PRESETS.items():
        if preset["bench"] == bench and all(request.get(f) == preset[f] for f in SHAPE_FIELDS[bench]):
            return name
    return None


def op_flops(bench: str, **shape: int) -> float:
    """FLOPs of one matmul (2·m·n·k) or one SAME-padded stride-1 conv2d (2·B·H·W·k²·C·F).

    Kept free of TensorFlow so the pages can scale and label numbers; engine.worker.micro counts the same way.
    """
    if bench == "matmul":
        return 2.0 * shape["m"] * shape["n"] * shape["k"]
    if bench == "conv2d":
        return (
            2.0
            * shape["batch_size"]
            * shape["height"]
            * shape["width"]
            * shape["kernel_size"] ** 2
            * shape["channels"]
            * shape["filters"]
        )
    raise ValueError(f"unknown bench {bench!r}")


def same_shape_as_reference(bench: str, request: dict[str, Any]) -> bool:
    ref = REFERENCE_SHAPES.get(bench)
    if not ref:
        return False
    return all(request.get(f) == v for f, v in ref.items())
