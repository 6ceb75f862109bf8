"""How many bytes a run needs, roughly — estimated from the spec alone, before anything starts.

`engine.runs.jobs.prepare` refuses a run whose estimate does not fit the host's available memory (or
the GPU's), naming both numbers; a worker that still dies of memory is recorded `failed: out of
memory` with this estimate in its reason. The figures are deliberately rough (±50 %): their job is to
stop a request that cannot fit, not to predict a peak.
"""

from __future__ import annotations

from engine.spec.specs import MicroSpec, Spec, SpecError, TrainSpec

DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}
TF_RUNTIME_BYTES = 512 * 2**20  # TensorFlow's own host footprint once imported
MAX_BLOCK_BYTES = 2 * 2**30  # the worker computes outputs in blocks of at most this (engine.worker.micro)

# parameters, and activation values kept per example for the backward pass (rough, float32, native input)
MODEL_SIZES: dict[str, tuple[int, int]] = {
    "fashion_cnn": (3_500_000, 1_000_000),
    "tiny_cnn": (120_000, 150_000),
    "flowers_cnn": (78_000, 2_400_000),
    "vgg19": (20_100_000, 12_000_000),
    "xception": (20_900_000, 22_000_000),
    "resnet152v2": (58_300_000, 44_000_000),
    "resnet50": (25_600_000, 25_000_000),
    "inceptionv3": (23_900_000, 30_000_000),
    "reuters_conv1d": (80_000, 60_000),
    "bilstm": (10_500_000, 5_000_000),
    # transformers: ~34·d + 5·heads·T values per token and layer (Korthikanti et al. 2022) × T × layers, plus
    # the logits of a language model; fused attention keeps fewer, so these err high
    "gpt2_small": (124_400_000, 400_000_000),
    "gpt_tiny": (544_000, 2_000_000),
    "bert_base": (109_500_000, 50_000_000),
    "bert_tiny": (4_400_000, 1_500_000),
}
# a user's own model is read only after this check (engine.runs.model_check): a small model is assumed
USER_MODEL_SIZE = (5_000_000, 2_000_000)


def estimate_bytes(spec: Spec) -> int:
    """Host bytes the run needs: operands + outputs (blocked) for a microbenchmark; parameters ×4
    (weights, gradients, two Adam moments) per replica + activations × global batch for training;
    plus the TensorFlow runtime."""
    if isinstance(spec, MicroSpec):
        size = DTYPE_BYTES.get(spec.dtype, 4)
        if spec.bench == "matmul":
            operands, output = spec.m * spec.k + spec.k * spec.n, spec.m * spec.n
        else:
            operands = spec.batch_size * spec.height * spec.width * spec.channels
            operands += spec.kernel_size**2 * spec.channels * spec.filters
            output = spec.batch_size * spec.height * spec.width * spec.filters
        return TF_RUNTIME_BYTES + operands * size + min(output * size, MAX_BLOCK_BYTES)
    assert isinstance(spec, TrainSpec)
    params, acts = USER_MODEL_SIZE if spec.user_model else MODEL_SIZES.get(spec.model, (25_000_000, 25_000_000))
    act_bytes = 2 if spec.precision != "float32" else 4
    replicas = max(1, spec.logical_devices)
    return TF_RUNTIME_BYTES + params * 4 * 4 * replicas + spec.batch_size * acts * act_bytes


def fmt_bytes(n: float) -> str:
    return f"{n / 2**30:,.1f} GB" if n >= 2**30 else f"{n / 2**20:,.0f} MB"


def memory_problem(spec: Spec, available_bytes: float, gpu_memory_mb: float = 0.0) -> SpecError | None:
    """Why the run cannot fit (the estimate and the limit, named), or None: the host's available memory,
    and for a GPU run the GPU's memory (or its --memory-limit-mb)."""
    need = estimate_bytes(spec)
    field = "--batch-size" if isinstance(spec, TrainSpec) or spec.bench == "conv2d" else "--m/--n/--k"
    if need > available_bytes:
        return SpecError(
            field,
            f"this run needs about {fmt_bytes(need)} of memory (estimate) but the machine has "
            f"{fmt_bytes(available_bytes)} available; use a smaller batch or shape",
        )
    limit_mb = getattr(spec, "memory_limit_mb", 0) or gpu_memory_mb
    if spec.device == "gpu" and limit_mb and need - TF_RUNTIME_BYTES > limit_mb * 2**20:
        return SpecError(
            field,
            f"this run needs about {fmt_bytes(need - TF_RUNTIME_BYTES)} of GPU memory (estimate) but the GPU has "
            f"{fmt_bytes(limit_mb * 2**20)}; use a smaller batch or shape",
        )
    return None
