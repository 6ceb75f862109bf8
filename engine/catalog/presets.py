"""One-click presets for the seed articles' experiments (the Home page), as plain dicts of spec fields.

Each request goes through `engine.runs.jobs.prepare` like any other, so validation and demo caps apply
unchanged. The microbenchmark shapes come from engine.catalog.micro_presets (the Run page's presets), so the
two pages can never disagree about what "article 002's matmul" is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.catalog.micro_presets import preset_fields


@dataclass(frozen=True)
class Preset:
    """A seed experiment.

    Attributes:
      key: stable id (widget keys, tests).
      title: what it is, in a few words.
      source: which article it reproduces.
      what: the workload in one line.
      expect: how long it takes on a CPU, so nobody is surprised.
      request: spec fields for engine.runs.jobs.prepare (device is filled in by `request_for`).
      gpu_batch: the article's batch on an accelerator, when it differs from the CPU-friendly one.
      gpu_request: other fields on a GPU (a full-size model where the CPU gets its CI-sized twin).
      per_backend: Home offers one button per installed backend (the same model on each, side by side).
    """

    key: str
    title: str
    source: str
    what: str
    expect: str
    request: dict[str, Any] = field(default_factory=dict)
    gpu_batch: int | None = None
    gpu_request: dict[str, Any] = field(default_factory=dict)
    per_backend: bool = False


PRESETS: tuple[Preset, ...] = (
    Preset(
        "quick_matmul",
        "Quick check",
        "AccelBench",
        "matmul (512×512) @ (512×512), 20 timed repeats",
        "a few seconds",
        {"kind": "matmul", **preset_fields("matmul_512")},
    ),
    Preset(
        "quick_train",
        "Quick training check",
        "AccelBench",
        "Reuters Conv1D text classifier, batch 64, 2 epochs × 10 steps on synthetic data — answers Compare's "
        "*Which device?* (how much faster each GPU and TPU would train it)",
        "about 20 seconds on a CPU",
        {"kind": "train", "model": "reuters_conv1d", "dataset": "synthetic", "batch_size": 64, "epochs": 2,
         "steps_per_epoch": 10},  # fmt: skip
    ),
    Preset(
        "article000_conv",
        "Conv microbenchmark",
        "Article 000 (Colab TPU tutorial)",
        "128 random 256×256×3 images convolved with 256 5×5 filters",
        "tens of seconds on a CPU (article: 2.44 s CPU, 0.28 s K80)",
        {"kind": "conv2d", **preset_fields("article000_conv")},
    ),
    Preset(
        "article002_matmul",
        "Matmul CPU vs GPU",
        "Article 002 (GPU settings)",
        "(10000×100) @ (100×100000), a 4 GB result computed in blocks",
        "tens of seconds on a CPU",
        {"kind": "matmul", **preset_fields("article002_matmul")},
    ),
    Preset(
        "article000_fashion",
        "Fashion-MNIST CNN",
        "Article 000 (Colab TPU tutorial)",
        "5-layer CNN, batch 1024, 5 epochs × 100 steps, synthetic data shaped like Fashion-MNIST",
        "many minutes on a CPU (article: ≈40 s TPU, >2 min GPU)",
        {
            "kind": "train",
            "model": "fashion_cnn",
            "dataset": "synthetic",
            "batch_size": 1024,
            "epochs": 5,
            "steps_per_epoch": 100,
        },
    ),
    Preset(
        "article002_reuters",
        "Reuters under MirroredStrategy",
        "Article 002 (GPU settings)",
        "conv1d text classifier, batch 32 split over 2 logical CPU devices (the one-machine multi-device trick)",
        "about a minute on a CPU",
        {
            "kind": "train",
            "model": "reuters_conv1d",
            "dataset": "synthetic",
            "batch_size": 32,
            "epochs": 3,
            "steps_per_epoch": 50,
            "strategy": "mirrored",
            "logical_devices": 2,
        },
    ),
    Preset(
        "article003_resnet50",
        "ResNet-50 throughput",
        "Article 003 (RiseML TPU vs GPU)",
        "ResNet-50 on synthetic ImageNet-shaped data (224×224×3, 1000 classes)",
        "a few minutes on a CPU (article: batch 128 on GPUs, 1024 on a TPU)",
        {
            "kind": "train",
            "model": "resnet50",
            "dataset": "synthetic",
            "batch_size": 32,
            "epochs": 2,
            "steps_per_epoch": 10,
        },
        gpu_batch=128,
    ),
    Preset(
        "gpt_decoder",
        "GPT-style decoder",
        "Today's transformers (GPT-2's layout)",
        "gpt_tiny: 2 layers, d 128, context 128, causal LM on synthetic tokens, in tokens/s (GPU: GPT-2 small, 124 M)",
        "under a minute on a CPU per backend",
        {
            "kind": "train",
            "model": "gpt_tiny",
            "dataset": "synthetic",
            "batch_size": 16,
            "epochs": 2,
            "steps_per_epoch": 10,
        },
        gpu_request={"model": "gpt2_small", "batch_size": 16, "precision": "mixed_bfloat16", "steps_per_epoch": 20},
        per_backend=True,
    ),
)
BY_KEY: dict[str, Preset] = {p.key: p for p in PRESETS}
# The preset every "no training run yet" screen offers: the shortest training run, which "Which device?" answers.
QUICK_TRAIN = "quick_train"


def every_backend(key: str, installed: list[str], device: str = "cpu") -> list[dict[str, Any]]:
    """Preset `key` once per installed backend, to chart the same model side by side on Compare."""
    return [request_for(key, device, backend=b) for b in installed]


def request_for(key: str, device: str = "cpu", demo: bool = False, backend: str = "tensorflow") -> dict[str, Any]:
    """The spec fields to launch preset `key` on `device` (cpu or gpu).

    On a GPU the ResNet-50 preset uses the article's batch; the Reuters preset keeps its two
    logical devices, which on one GPU is the article's "split one card in two" (002). In demo mode
    the timeout is the demo's (the default would be refused); the sizes are not shrunk, so a
    preset over the demo's caps is refused with the cap named rather than silently changed.
    """
    preset = BY_KEY[key]
    request = dict(preset.request)
    request["device"] = device
    request["backend"] = backend  # a preset runs on any installed Keras 3 backend
    if device == "gpu" and preset.gpu_batch:
        request["batch_size"] = preset.gpu_batch
    if device == "gpu":
        request.update(preset.gpu_request)
    if demo:
        from engine.catalog.demo import DEMO_TIMEOUT_S

        request["timeout_s"] = DEMO_TIMEOUT_S
    return request


# Flags in engine.catalog.specs's messages → words on the page.
_FIELD_WORDS = {
    "--m/--n/--k": "Matrix size",
    "--m/--k": "Matrix size",
    "--k/--n": "Matrix size",
    "--m/--n": "Matrix size",
    "--batch-size": "Batch size",
    "--steps-per-epoch": "Steps",
    "--epochs": "Epochs",
    "--model": "Model",
    "--dataset": "Dataset",
    "--device": "Device",
    "--backend": "Backend",
    "--strategy": "Strategy",
    "--logical-devices": "Logical devices",
    "--timeout-s": "Time limit",
    "--repeats": "Repeats",
    "--precision": "Precision",
    "--memory-growth": "Memory growth",
    "--memory-limit-mb": "Memory limit",
    "--visible-devices": "Visible GPUs",
    "run": "One run at a time",
}


def explain(exc: Exception) -> str:
    """A SpecError in plain words: 'Matrix size — demo mode allows sizes up to 2048, got 100000.'"""
    import re

    field_name = getattr(exc, "field", "")
    message = getattr(exc, "message", str(exc))
    message = re.sub(
        r"--[a-z][a-z-]*(?:/--[a-z][a-z-]*)*", lambda m: _FIELD_WORDS.get(m.group(0), m.group(0)).lower(), message
    )
    label = _FIELD_WORDS.get(field_name, field_name.lstrip("-").replace("-", " ").capitalize() or "Request")
    return f"{label} — {message.rstrip('.')}."
