"""The native PyTorch zoo: registry name → builder, imported only when asked for (torch.nn modules).

The architectures follow engine/worker/models.py's Keras ones layer for layer (same widths, kernels and
parameter counts where the layers are the same), so a native row and a Keras-torch row of one model are the
same workload. torchvision is not used: its PyPI wheel is built against CUDA PyTorch and does not load on
the CPU build this project pins (torch 2.13.0+cpu), so ResNet-50 and VGG19 are compact torch.nn versions of
the same architectures (vision.py), InceptionV3 is torchvision's written out (inception.py), and the
transformers (transformer.py) attend through scaled_dot_product_attention. Models not listed here are
refused before a run starts (engine.catalog.backend_rules.NATIVE_TORCH_MODELS): xception and resnet152v2 have
no torchvision model to follow (torchvision's ResNet-152 is v1, not the pre-activation v2), so they run on
Keras only for now (issue 23).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import torch
from torch import nn

from engine.catalog.backend_rules import NATIVE_TORCH_MODELS

# name → "module:function" inside this package
BUILDERS: dict[str, str] = {
    "fashion_cnn": "small:fashion_cnn",
    "tiny_cnn": "small:tiny_cnn",
    "flowers_cnn": "small:flowers_cnn",
    "reuters_conv1d": "small:reuters_conv1d",
    "bilstm": "small:bilstm",
    "resnet50": "vision:resnet50",
    "vgg19": "vision:vgg19",
    "inceptionv3": "inception:inceptionv3",
    "gpt2_small": "transformer:gpt2_small",
    "gpt_tiny": "transformer:gpt_tiny",
    "bert_base": "transformer:bert_base",
    "bert_tiny": "transformer:bert_tiny",
}
assert tuple(BUILDERS) == NATIVE_TORCH_MODELS, "the spec refuses exactly the models without a builder"
CONVNETS = ("fashion_cnn", "tiny_cnn", "flowers_cnn", "resnet50", "vgg19", "inceptionv3")
TRANSFORMERS = ("gpt2_small", "gpt_tiny", "bert_base", "bert_tiny")  # attention through SDPA


@dataclass(frozen=True)
class Recipe:
    """How a model trains, as its Keras twin does (engine.worker.models.RECIPES).

    Attributes:
      optimizer: adam, sgd (momentum 0.9), nadam or adamw.
      learning_rate: the optimizer's step size.
    """

    optimizer: str = "adam"
    learning_rate: float = 1e-3


RECIPES: dict[str, Recipe] = {
    "resnet50": Recipe("sgd", 0.01),  # article 003's tf_cnn_benchmarks recipe
    "inceptionv3": Recipe("sgd", 0.01),
    "reuters_conv1d": Recipe("nadam", 2e-3),  # Keras's Nadam default
    # AdamW 1e-4, weight decay 0.01, as the Keras transformer recipe (engine.worker.models.RECIPES)
    **{m: Recipe("adamw", 1e-4) for m in TRANSFORMERS},
}


def build(name: str, input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    """`name` for Keras-style `input_shape` (H, W, C for images; (length,) for text) and `num_classes`.
    Lazy layers are materialised here with one example, so the module has all its parameters."""
    module, fn = BUILDERS[name].split(":")
    model: nn.Module = getattr(importlib.import_module(f"engine.worker.torch_native.{module}"), fn)(
        tuple(input_shape), num_classes
    )
    with torch.no_grad():
        model.eval()(example(input_shape))
    return model.train()


def example(input_shape: tuple[int, ...]) -> torch.Tensor:
    """One zero example in the module's layout (NCHW images, int64 token ids)."""
    if len(input_shape) == 3:
        h, w, c = input_shape
        return torch.zeros(1, c, h, w)
    return torch.zeros(1, *input_shape, dtype=torch.long)


def recipe(name: str) -> Recipe:
    return RECIPES.get(name, Recipe())
