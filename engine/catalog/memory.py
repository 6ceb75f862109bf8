"""How many bytes a run needs, roughly — estimated from the spec alone, before anything starts.

`engine.runs.jobs.prepare` refuses a run whose estimate does not fit the host's available memory (or
the GPU's), naming both numbers; a worker that still dies of memory is recorded `failed: out of
memory` with this estimate in its reason. The figures are deliberately rough (±50 %): their job is to
stop a request that cannot fit, not to predict a peak.

A `--processes N` run (issue 30) is N ranks, each with its own framework runtime, a full model replica with
its optimizer state and its share of the global batch: on one host they share its memory (the host check
takes all N), while on a GPU host each rank has a GPU of its own (the GPU check takes one rank).
"""

from __future__ import annotations

from dataclasses import replace

from engine.catalog.specs import MicroSpec, Spec, SpecError, TrainSpec

DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}
TF_RUNTIME_BYTES = 512 * 2**20  # TensorFlow's own host footprint once imported (each rank of a run has one)
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


def processes_of(spec: Spec) -> int:
    """How many processes (ranks) the run starts: a microbenchmark is one."""
    return max(1, spec.processes) if isinstance(spec, TrainSpec) else 1


def estimate_bytes(spec: Spec) -> int:
    """Host bytes the whole run needs on one host: every process's (processes × estimate_bytes_per_process)."""
    return processes_of(spec) * estimate_bytes_per_process(spec)


def estimate_bytes_per_process(spec: Spec) -> int:
    """Host bytes one process needs: operands + outputs (blocked) for a microbenchmark; parameters ×4
    (weights, gradients, two Adam moments) per replica + activations × its share of the global batch
    (batch ÷ processes) for training; plus the framework's runtime."""
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
    batch = spec.batch_size // processes_of(spec)  # the rank's share (the global batch splits evenly)
    return TF_RUNTIME_BYTES + params * 4 * 4 * replicas + batch * acts * act_bytes


def fmt_bytes(n: float) -> str:
    return f"{n / 2**30:,.1f} GB" if n >= 2**30 else f"{n / 2**20:,.0f} MB"


def memory_problem(
    spec: Spec, available_bytes: float, gpu_memory_mb: float = 0.0, processes_on_host: int | None = None
) -> SpecError | None:
    """Why the run cannot fit (the estimate and the limit, named), or None: the host's available memory
    (all the run's processes share it — or `processes_on_host` of them, for a run spread over several
    hosts), and for a GPU run the GPU's memory (or its --memory-limit-mb), which each process has to itself."""
    n = processes_of(spec) if processes_on_host is None else processes_on_host
    each = estimate_bytes_per_process(spec)
    need = n * each
    field = "--batch-size" if isinstance(spec, TrainSpec) or spec.bench == "conv2d" else "--m/--n/--k"
    if need > available_bytes:
        split, fix = "", "use a smaller batch or shape"
        if n > 1 and isinstance(spec, TrainSpec):  # each process adds a runtime and a replica: does one fit?
            split = f": {n} processes × about {fmt_bytes(each)} each"
            if estimate_bytes(replace(spec, processes=1)) <= available_bytes:
                field, fix = "--processes", "use fewer processes or a smaller batch"
        return SpecError(
            field,
            f"this run needs about {fmt_bytes(need)} of memory (estimate{split}) but the machine has "
            f"{fmt_bytes(available_bytes)} available; {fix}",
        )
    limit_mb = getattr(spec, "memory_limit_mb", 0) or gpu_memory_mb
    on_gpu = each - TF_RUNTIME_BYTES  # one process's replica and batch share, on its own GPU
    if spec.device == "gpu" and limit_mb and on_gpu > limit_mb * 2**20:
        who, gpu = (f"each of its {n} processes needs", "each GPU has") if n > 1 else ("this run needs", "the GPU has")
        return SpecError(
            field,
            f"{who} about {fmt_bytes(on_gpu)} of GPU memory (estimate) but {gpu} "
            f"{fmt_bytes(limit_mb * 2**20)}; use a smaller batch or shape",
        )
    return None
