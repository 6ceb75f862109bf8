"""The seed models in torch.nn, as engine/worker/models.py builds them in Keras (softmax left to the loss)."""

from __future__ import annotations

import torch
from torch import nn

TEXT_VOCAB_SIZE = 10_000  # engine.catalog.catalog.TEXT_VOCAB_SIZE
REUTERS_EMBEDDING_DIM = 7
BILSTM_UNITS = 1024
BILSTM_EMBEDDING_DIM = 128


def fashion_cnn(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    layers: list[nn.Module] = []
    channels = input_shape[-1]
    for filters in (64, 128, 256):
        layers += [
            nn.BatchNorm2d(channels, eps=1e-3, momentum=0.01),  # Keras's BatchNormalization defaults
            nn.Conv2d(channels, filters, 5, padding="same"),
            nn.ELU(),
            nn.MaxPool2d(2),
            nn.Dropout(0.25),
        ]
        channels = filters
    layers += [nn.Flatten(), nn.LazyLinear(256), nn.ELU(), nn.Dropout(0.5), nn.Linear(256, num_classes)]
    return nn.Sequential(*layers)


def tiny_cnn(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(input_shape[-1], 64, 3), nn.MaxPool2d(2), nn.ReLU(), nn.Flatten(), nn.LazyLinear(num_classes)
    )


def flowers_cnn(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    def conv(cin: int, cout: int, k: int = 3) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, k, padding="same"), nn.ReLU()]

    return nn.Sequential(
        *conv(input_shape[-1], 16),
        *conv(16, 32),
        nn.MaxPool2d(2),
        *conv(32, 64),
        nn.MaxPool2d(2),
        *conv(64, 80),
        nn.MaxPool2d(2),
        *conv(80, 99, 1),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(99, num_classes),
    )


class _Conv1dText(nn.Module):
    """Embedding → conv1d 64/5 → pool → conv1d 32/3 → pool → dense (article 002)."""

    def __init__(self, num_classes: int):
        super().__init__()
        self.embed = nn.Embedding(TEXT_VOCAB_SIZE, REUTERS_EMBEDDING_DIM)
        self.body = nn.Sequential(
            nn.Conv1d(REUTERS_EMBEDDING_DIM, 64, 5),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(64, 32, 3),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Flatten(),
            nn.LazyLinear(num_classes),
        )

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.body(self.embed(ids).transpose(1, 2))  # (N, L, E) → (N, E, L): PyTorch's conv layout


def reuters_conv1d(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return _Conv1dText(num_classes)


class _BiLSTM(nn.Module):
    """Embedding → bidirectional LSTM (last states of both directions) → dense (article 003)."""

    def __init__(self, num_classes: int, units: int = BILSTM_UNITS):
        super().__init__()
        self.embed = nn.Embedding(TEXT_VOCAB_SIZE, BILSTM_EMBEDDING_DIM)
        self.lstm = nn.LSTM(BILSTM_EMBEDDING_DIM, units, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * units, num_classes)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        _, (h, _) = self.lstm(self.embed(ids))
        return self.head(torch.cat([h[-2], h[-1]], dim=1))


def bilstm(input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    return _BiLSTM(num_classes)
