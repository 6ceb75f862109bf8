"""InceptionV3 in torch.nn: torchvision's `inception_v3(weights=None, aux_logits=False)` written out (its wheel
does not load on the CPU build pinned here, models.py), the same blocks as keras.applications.InceptionV3 (both
follow Szegedy et al. 2015 / TF-slim).

Parameters: 23,834,568 at 1000 classes, torchvision's count. Keras's count_params() says 23,851,784: its
BatchNormalization has no scale (gamma) and Keras counts the moving mean and variance, 3 numbers per channel
against torchvision's 2 trainable ones (gamma, beta; running statistics are buffers) over 17,216 channels.
torchvision's 0.5 dropout before the classifier is kept (Keras has none: no FLOP or parameter changes).
The input is the dataset's (the zoo's synthetic imagenet_shape is 224×224, as the Keras rows; 299 is the
paper's); global average pooling takes any size from 75×75.
"""

from __future__ import annotations

import torch
from torch import nn


class _Conv(nn.Sequential):
    """torchvision's BasicConv2d: conv without bias → BatchNorm (eps 0.001) → ReLU."""

    def __init__(self, cin: int, cout: int, k: int | tuple[int, int], stride: int = 1, padding=0):
        super().__init__(
            nn.Conv2d(cin, cout, k, stride, padding, bias=False), nn.BatchNorm2d(cout, eps=0.001), nn.ReLU(inplace=True)
        )


def _factorised(cin: int, widths: tuple[int, ...], first_wide: bool) -> nn.Sequential:
    """1×1 to widths[0], then alternating 1×7 / 7×1 convs through widths[1:] (starting with 1×7 if first_wide)."""
    layers: list[nn.Module] = [_Conv(cin, widths[0], 1)]
    wide = first_wide
    for a, b in zip(widths, widths[1:], strict=False):
        layers.append(_Conv(a, b, (1, 7), padding=(0, 3)) if wide else _Conv(a, b, (7, 1), padding=(3, 0)))
        wide = not wide
    return nn.Sequential(*layers)


def _pool_branch(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.AvgPool2d(3, 1, 1), _Conv(cin, cout, 1))


class _Concat(nn.Module):
    def __init__(self, *branches: nn.Module):
        super().__init__()
        self.branches = nn.ModuleList(branches)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([b(x) for b in self.branches], 1)


def _a(cin: int, pool: int) -> nn.Module:  # Mixed_5b–5d: 35×35
    five = nn.Sequential(_Conv(cin, 48, 1), _Conv(48, 64, 5, padding=2))
    double = nn.Sequential(_Conv(cin, 64, 1), _Conv(64, 96, 3, padding=1), _Conv(96, 96, 3, padding=1))
    return _Concat(_Conv(cin, 64, 1), five, double, _pool_branch(cin, pool))


def _b(cin: int) -> nn.Module:  # Mixed_6a: 35 → 17
    double = nn.Sequential(_Conv(cin, 64, 1), _Conv(64, 96, 3, padding=1), _Conv(96, 96, 3, stride=2))
    return _Concat(_Conv(cin, 384, 3, stride=2), double, nn.MaxPool2d(3, 2))


def _c(cin: int, c7: int) -> nn.Module:  # Mixed_6b–6e: 17×17, factorised 7×7
    return _Concat(
        _Conv(cin, 192, 1),
        _factorised(cin, (c7, c7, 192), first_wide=True),
        _factorised(cin, (c7, c7, c7, c7, 192), first_wide=False),
        _pool_branch(cin, 192),
    )


def _d(cin: int) -> nn.Module:  # Mixed_7a: 17 → 8
    three = nn.Sequential(_Conv(cin, 192, 1), _Conv(192, 320, 3, stride=2))
    seven = nn.Sequential(*_factorised(cin, (192, 192, 192), first_wide=True), _Conv(192, 192, 3, stride=2))
    return _Concat(three, seven, nn.MaxPool2d(3, 2))


class _Split(nn.Module):
    """A stem, then 1×3 and 3×1 convs side by side (InceptionE's expanded branches)."""

    def __init__(self, stem: nn.Module):
        super().__init__()
        self.stem = stem
        self.wide, self.tall = _Conv(384, 384, (1, 3), padding=(0, 1)), _Conv(384, 384, (3, 1), padding=(1, 0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        return torch.cat([self.wide(x), self.tall(x)], 1)


def _e(cin: int) -> nn.Module:  # Mixed_7b–7c: 8×8
    double = nn.Sequential(_Conv(cin, 448, 1), _Conv(448, 384, 3, padding=1))
    return _Concat(_Conv(cin, 320, 1), _Split(_Conv(cin, 384, 1)), _Split(double), _pool_branch(cin, 192))


def inceptionv3(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    stem = [_Conv(input_shape[-1], 32, 3, stride=2), _Conv(32, 32, 3), _Conv(32, 64, 3, padding=1), nn.MaxPool2d(3, 2)]
    stem += [_Conv(64, 80, 1), _Conv(80, 192, 3), nn.MaxPool2d(3, 2)]
    mixed = [_a(192, 32), _a(256, 64), _a(288, 64), _b(288), _c(768, 128), _c(768, 160), _c(768, 160), _c(768, 192)]
    mixed += [_d(768), _e(1280), _e(2048)]
    head = [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.5), nn.Linear(2048, num_classes)]
    model = nn.Sequential(*stem, *mixed, *head)
    for m in model.modules():  # torchvision's init_weights: truncated normal convs and linears, std 0.1
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.trunc_normal_(m.weight, std=0.1, a=-2, b=2)
    return model
