"""Counted FLOPs: exact for hand-countable layers, and the published figures for the big networks."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import tensorflow as tf

from engine.worker import flops
from engine.worker.models import build_model

pytestmark = pytest.mark.usefixtures("fresh_keras")  # clear Keras state after each test


def test_hand_counted_layers():
    inputs = keras.Input((10, 10, 3))
    x = keras.layers.Conv2D(8, 3, padding="same")(inputs)  # 2·10·10·8·9·3
    x = keras.layers.Conv2D(4, 3, strides=2)(x)  # valid, stride 2 → 4×4 out: 2·4·4·4·9·8
    x = keras.layers.SeparableConv2D(6, 3, padding="same")(x)  # dw 2·16·4·9 + pw 2·16·4·6
    x = keras.layers.DepthwiseConv2D(3, padding="same", depth_multiplier=2)(x)  # 2·16·12·9
    x = keras.layers.Flatten()(x)
    x = keras.layers.Dense(5)(x)  # 2·192·5
    model = keras.Model(inputs, x)
    expected = 2 * 100 * 8 * 27 + 2 * 16 * 4 * 72 + (2 * 16 * 4 * 9 + 2 * 16 * 4 * 6) + 2 * 16 * 12 * 9 + 2 * 192 * 5
    assert flops.forward_flops(model) == expected
    # backward: two passes per layer, but the first conv reads the raw input, so no input gradient for it
    assert flops.train_flops(model) == 3 * expected - 2 * 100 * 8 * 27


def test_recurrent_layers_count_every_time_step_and_both_directions():
    inputs = keras.Input((20,), dtype="int32")
    x = keras.layers.Embedding(100, 16)(inputs)  # a look-up: no FLOPs
    x = keras.layers.Bidirectional(keras.layers.LSTM(32))(x)
    model = keras.Model(inputs, keras.layers.Dense(2)(x))
    lstm = 2 * 20 * 4 * (16 + 32) * 32
    assert flops.forward_flops(model) == 2 * lstm + 2 * 64 * 2


def test_fashion_cnn_matches_tensorflows_own_graph_count():
    """Cross-check against TF's profiler on the traced forward graph (it also counts bias adds etc.,
    which we leave out on purpose — they must be a small share)."""
    model = build_model("fashion_cnn", (28, 28, 1), 10)
    fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(tf.TensorSpec((1, 28, 28, 1)))
    opts = tf.compat.v1.profiler.ProfileOptionBuilder.float_operation()
    opts["output"] = "none"
    profiled = tf.compat.v1.profiler.profile(graph=fn.graph, options=opts).total_float_ops
    counted = flops.forward_flops(model)
    assert 0.97 * profiled <= counted <= profiled


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,shape,gflops",
    [
        ("resnet50", (224, 224, 3), 7.7),  # 3.86 G multiply-adds, the figure the ResNet paper's 3.8 G rounds
        ("vgg19", (224, 224, 3), 39.3),  # 19.6 G multiply-adds (Simonyan & Zisserman)
        ("inceptionv3", (299, 299, 3), 11.4),  # 5.7 G multiply-adds (Szegedy et al.)
    ],
)
def test_big_networks_match_published_multiply_add_counts(name, shape, gflops):
    model = build_model(name, shape, 1000)
    assert flops.forward_flops(model) / 1e9 == pytest.approx(gflops, rel=0.02)
