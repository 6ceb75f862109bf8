"""Counted FLOPs of a Keras model, per example, from its layers (worker/CLI only).

Method: walk the model's layers and count the multiply-accumulates of the layers that do matrix work
— convolutions (incl. depthwise/separable/grouped), dense layers, recurrent cells (LSTM/GRU/
SimpleRNN, over every time step, both directions of a Bidirectional), self-attention (projections and the
two T×T products) and a tied language-model head — at 2 FLOPs per MAC.
Bias adds, activations, normalisation, pooling and embedding look-ups are left out: they are
element-wise, well under 2 % of the total for every model in the zoo, and counting them would make
the figure depend on how a backend fuses them. This is the convention of the published figures
(e.g. ResNet-50 ≈ 4.1 G MAC ≈ 8.2 GFLOP per 224×224 image) so achieved GFLOP/s are comparable.

Training ≈ 3 × forward: the backward pass computes a gradient for the activations and one for the
weights, each costing about one forward pass (Kaplan et al. 2020; the MLPerf/DAWNBench convention) — except
the activation gradient of a layer fed by the raw input, which no framework computes.
"""

from __future__ import annotations

import math

import keras

TRAIN_FLOPS_PER_FORWARD = 3


def _prod(dims) -> int:
    return math.prod(int(d) for d in dims)


def _shape(tensor) -> tuple:
    return tuple(tensor.shape)


def _rnn_flops(cell_layer, steps: int, input_dim: int) -> int:
    """One direction of a recurrent layer over `steps` time steps."""
    units = int(cell_layer.units)
    gates = {"LSTM": 4, "GRU": 3, "SimpleRNN": 1}.get(type(cell_layer).__name__, 4)
    # each gate: input kernel (input_dim × units) + recurrent kernel (units × units)
    return 2 * steps * gates * (input_dim + units) * units


def layer_flops(layer) -> int:
    """Forward FLOPs of one layer for one example (0 for layers without matrix work)."""
    name = type(layer).__name__
    if name in ("MultiHeadAttention", "TiedLogits"):  # called on several inputs / a shared weight: own rules
        from engine.worker import transformers

        seq = int(_shape(layer.output)[1])
        return (
            transformers.attention_flops(layer, seq)
            if name == "MultiHeadAttention"
            else transformers.lm_head_flops(layer, seq)
        )
    try:
        in_shape = _shape(layer.input)
        out_shape = _shape(layer.output)
    except (AttributeError, ValueError):
        return 0  # a layer never called (or called on several inputs): nothing countable
    if isinstance(layer, keras.layers.Bidirectional):
        steps, input_dim = int(in_shape[1]), int(in_shape[-1])
        return _rnn_flops(layer.forward_layer, steps, input_dim) + _rnn_flops(layer.backward_layer, steps, input_dim)
    if name in ("LSTM", "GRU", "SimpleRNN"):
        return _rnn_flops(layer, int(in_shape[1]), int(in_shape[-1]))
    if name == "Dense":
        # a Dense on (batch, ..., in) applies to every leading position
        return 2 * _prod(in_shape[1:-1]) * int(in_shape[-1]) * int(layer.units)
    if name in ("DepthwiseConv1D", "DepthwiseConv2D"):
        return 2 * _prod(out_shape[1:]) * _prod(layer.kernel_size)
    if name in ("SeparableConv1D", "SeparableConv2D"):
        in_channels, mult = int(in_shape[-1]), int(layer.depth_multiplier)
        spatial = _prod(out_shape[1:-1])
        depthwise = 2 * spatial * in_channels * mult * _prod(layer.kernel_size)
        pointwise = 2 * spatial * in_channels * mult * int(out_shape[-1])
        return depthwise + pointwise
    if name in ("Conv1D", "Conv2D", "Conv3D"):
        groups = int(getattr(layer, "groups", 1) or 1)
        in_channels = int(in_shape[-1])
        return 2 * _prod(out_shape[1:]) * _prod(layer.kernel_size) * in_channels // groups
    return 0


def _layers(model):
    for layer in model.layers:
        if isinstance(layer, keras.Model):  # a nested model: count its own layers
            yield from _layers(layer)
        else:
            yield layer


def forward_flops(model) -> int:
    """Forward FLOPs per example (2 per multiply-accumulate, matrix work only — see the module doc)."""
    return sum(layer_flops(layer) for layer in _layers(model))


def _reads_raw_input(layer, model) -> bool:
    """Whether `layer`'s input is a model input, directly or through layers without weights (padding,
    rescaling, reshaping): no gradient flows into it, so its backward pass computes no input gradient."""
    inputs = {id(t) for t in model.inputs}
    try:
        tensor = layer.input
    except (AttributeError, ValueError):
        return False
    while id(tensor) not in inputs:
        history = getattr(tensor, "_keras_history", None)
        if history is None:
            return False
        producer = history[0]
        if not isinstance(producer, keras.layers.Layer):  # an op (x[:, 0]): stop, count the gradient
            return False
        if producer.weights or isinstance(producer, keras.layers.InputLayer):
            return isinstance(producer, keras.layers.InputLayer)
        try:
            tensor = producer.input
        except (AttributeError, ValueError):
            return False
    return True


def train_flops(model) -> int:
    """Training FLOPs per example: forward + backward ≈ 3 × forward (a gradient for the activations and one for
    the weights), less the activation gradient of a layer fed by the raw input, which nothing needs — what the
    frameworks' own counters measure (torch's FlopCounterMode agrees within 1 % on the CNNs)."""
    total = TRAIN_FLOPS_PER_FORWARD * forward_flops(model)
    return total - sum(
        layer_flops(layer) for layer in _layers(model) if layer_flops(layer) and _reads_raw_input(layer, model)
    )


# Layers with weights but no matrix work (a look-up, a normalisation): counting nothing for them is right.
NO_MATRIX_WORK = ("Embedding", "BatchNormalization", "LayerNormalization", "GroupNormalization", "Normalization",
                  "PositionEmbedding", "UnitNormalization", "RMSNormalization")  # fmt: skip


def uncounted_layers(model) -> list[str]:
    """Layers with weights this counter has no rule for (a user's own layer): the count misses their work."""
    return [
        layer.name
        for layer in _layers(model)
        if layer.weights and not layer_flops(layer) and type(layer).__name__ not in NO_MATRIX_WORK
    ]
