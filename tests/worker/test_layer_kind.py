"""A user model's kind is read from its layers' class names — real Keras and torch.nn models — and Compare's
estimate for it then borrows the figures of zoo models of that kind, not a convnet's by default."""

from __future__ import annotations

import json

import keras
import pytest
from keras import layers
from torch import nn

from engine.cli import main
from engine.results.schema import SCHEMA_VERSION
from engine.runs.store import Store
from engine.worker.layer_kind import keras_kind, kind_of_names, torch_kind

# a 1 GFLOP-per-example model of the user's at 50 ex/s on this CPU (batch 8): big enough that no cap applies
USER_RUN = {
    "schema_version": SCHEMA_VERSION, "created_at": "2026-11-25T10:00:00Z", "status": "ok", "source": "local",
    "kind": "train", "model": "my_net", "model_source": "function", "dataset": "synthetic", "precision": "float32",
    "dtype": "float32", "xla": False, "device": "cpu", "replicas": 1, "device_name": "AMD EPYC", "host_cores": 2,
    "strategy": "default", "epochs": 2, "steps_per_epoch": 5, "total_s": 20.0, "global_batch_size": 8,
    "per_replica_batch_size": 8, "examples_per_sec": 50.0, "step_time_ms_median": 160.0, "gflops": 50.0,
}  # fmt: skip


def test_attention_beats_recurrence_beats_convolution_and_an_mlp_says_nothing():
    assert kind_of_names(["Embedding", "Conv1D", "MultiHeadAttention"]) == "transformer"
    assert kind_of_names(["TransformerBlock", "Dense"]) == "transformer"  # a user's own block, by its name
    assert kind_of_names(["Bidirectional", "LSTM", "Dense"]) == "recurrent"
    assert kind_of_names(["Conv2d", "ReLU", "Linear"]) == "conv"
    assert kind_of_names(["Dense", "Dropout"]) is None
    assert kind_of_names(["ConvexHead"]) == "conv"  # a name that starts like a conv counts as one: said here


@pytest.mark.usefixtures("fresh_keras")
def test_real_keras_models_nested_layers_included():
    tokens = keras.Input(shape=(16,), dtype="int32")
    x = layers.Embedding(100, 32)(tokens)
    attn = layers.MultiHeadAttention(num_heads=2, key_dim=16)(x, x)
    transformer = keras.Model(tokens, layers.Dense(4)(layers.GlobalAveragePooling1D()(attn)))
    assert keras_kind(transformer) == "transformer"
    recurrent = keras.Sequential([keras.Input((16,)), layers.Embedding(100, 8), layers.Bidirectional(layers.LSTM(8))])
    assert keras_kind(recurrent) == "recurrent"
    conv = keras.Sequential([keras.Input((8, 8, 3)), layers.Conv2D(4, 3), layers.Flatten(), layers.Dense(2)])
    assert keras_kind(conv) == "conv"
    assert keras_kind(keras.Sequential([keras.Input((8,)), layers.Dense(4)])) is None


def test_real_torch_modules():
    assert torch_kind(nn.TransformerEncoderLayer(32, 2, batch_first=True)) == "transformer"
    assert torch_kind(nn.Sequential(nn.Embedding(10, 8), nn.LSTM(8, 8))) == "recurrent"
    assert torch_kind(nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten())) == "conv"
    assert torch_kind(nn.Linear(4, 2)) is None


@pytest.mark.parametrize(("kind", "band"), [("transformer", "of transformer models"), (None, "(conv) measured")])
def test_compares_estimate_for_a_user_model_uses_figures_of_its_kind(db, capsys, kind, band):
    """No table knows the model: it hangs from a zoo model of the kind its layers say, measured by AccelBench at the
    run's precision and converted by traced cost (issue 42 item 1; engine.compare.scale.converted) — a convnet from
    the pack's float32 convnets; no transformer was measured at float32, so a transformer takes the level its kind's
    figures show."""
    row = USER_RUN | {"model_kind": kind, "run_id": f"20261125-100000-{kind or 'none'}"}
    Store(db).insert_run(row)
    assert main(["compare", "--run", row["run_id"], "--device", "a100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["basis"] == "estimate" and band in out["headline"], out["headline"]
