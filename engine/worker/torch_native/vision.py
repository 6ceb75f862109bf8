"""ResNet-50 and VGG19 in torch.nn, the torchvision / keras.applications architectures built from config
(no weights): the same layers and parameter counts, written out because torchvision's wheel does not load
on the CPU build of PyTorch pinned here (see models.py)."""

from __future__ import annotations

import torch
from torch import nn

RESNET50_STAGES = ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2))  # (width, blocks, first stride)
VGG19_CONFIG = (64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M")


def _conv_bn(cin: int, cout: int, k: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout))


class _Bottleneck(nn.Module):
    def __init__(self, cin: int, width: int, stride: int):
        super().__init__()
        cout = width * 4
        self.body = nn.Sequential(
            _conv_bn(cin, width, 1),
            nn.ReLU(inplace=True),
            _conv_bn(width, width, 3, stride),  # the stride on the 3×3, as torchvision's ResNet v1.5
            nn.ReLU(inplace=True),
            _conv_bn(width, cout, 1),
        )
        self.skip = _conv_bn(cin, cout, 1, stride) if stride != 1 or cin != cout else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.body(x) + self.skip(x))


def resnet50(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    layers: list[nn.Module] = [_conv_bn(input_shape[-1], 64, 7, 2), nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for width, blocks, stride in RESNET50_STAGES:
        for i in range(blocks):
            layers.append(_Bottleneck(cin, width, stride if i == 0 else 1))
            cin = width * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, num_classes)]
    return nn.Sequential(*layers)


def vgg19(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    layers: list[nn.Module] = []
    cin = input_shape[-1]
    for v in VGG19_CONFIG:
        if v == "M":
            layers.append(nn.MaxPool2d(2))
        else:
            layers += [nn.Conv2d(cin, int(v), 3, padding=1), nn.ReLU(inplace=True)]
            cin = int(v)
    # keras.applications' top: flatten → 4096 → 4096 → classes
    layers += [nn.Flatten(), nn.LazyLinear(4096), nn.ReLU(inplace=True), nn.Linear(4096, 4096), nn.ReLU(inplace=True)]
    layers.append(nn.Linear(4096, num_classes))
    return nn.Sequential(*layers)
