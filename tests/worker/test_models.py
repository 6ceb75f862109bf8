"""The model zoo: architectures, parameter counts, dtype policies, and a run over every valid pairing."""

from __future__ import annotations

import math
import os

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras

from engine.catalog import catalog
from engine.runs.progress import Reporter
from engine.worker.datasets import make_dataset
from engine.worker.models import BILSTM_UNITS, build_model, param_counts
from engine.worker.train import StepClock, compile_model

BIG_APPLICATIONS = ("vgg19", "xception", "resnet152v2", "resnet50", "inceptionv3")


pytestmark = pytest.mark.usefixtures("fresh_keras")  # clear Keras state after each test


def test_fashion_cnn_is_article_000s_network():
    model = build_model("fashion_cnn", (28, 28, 1), 10)
    kinds = [type(layer).__name__ for layer in model.layers[1:]]
    block = ["BatchNormalization", "Conv2D", "MaxPooling2D", "Dropout"]
    assert kinds == block * 3 + ["Flatten", "Dense", "Dropout", "Dense", "Activation"]
    convs = [layer for layer in model.layers if isinstance(layer, keras.layers.Conv2D)]
    assert [c.filters for c in convs] == [64, 128, 256]
    assert all(c.kernel_size == (5, 5) and c.activation.__name__ == "elu" for c in convs)
    assert [d.rate for d in model.layers if isinstance(d, keras.layers.Dropout)] == [0.25, 0.25, 0.25, 0.5]
    # 4 + 1,664 | 256 + 204,928 | 512 + 819,456 | 590,080 + 2,570, counted by hand
    assert model.count_params() == 1_619_470


def test_small_models_have_hand_counted_parameters():
    assert build_model("tiny_cnn", (28, 28, 1), 10).count_params() == 640 + 13 * 13 * 64 * 10 + 10
    # embedding 10,000×7; conv1d 7·5·64+64; conv1d 64·3·32+32; 300→296→148→146→73 steps × 32 → dense 46
    reuters = build_model("reuters_conv1d", (300,), 46)
    assert reuters.count_params() == 70_000 + 2_304 + 6_176 + (73 * 32 * 46 + 46)
    assert build_model("flowers_cnn", (192, 192, 3), 5).count_params() == 78_263  # article 001's custom model


def test_bilstm_defaults_to_1024_units_and_takes_a_units_override():
    model = build_model("bilstm", (300,), 2)
    bi = next(layer for layer in model.layers if isinstance(layer, keras.layers.Bidirectional))
    assert bi.forward_layer.units == BILSTM_UNITS == 1024
    lstm = 4 * ((128 + 1024) * 1024 + 1024)
    assert model.count_params() == 10_000 * 128 + 2 * lstm + 2 * 1024 * 2 + 2
    small = build_model("bilstm", (300,), 2, units=8)
    assert next(ly for ly in small.layers if isinstance(ly, keras.layers.Bidirectional)).forward_layer.units == 8
    with pytest.raises(ValueError, match="takes no overrides"):
        build_model("fashion_cnn", (28, 28, 1), 10, units=8)


@pytest.mark.parametrize("precision,compute", [("mixed_float16", "float16"), ("mixed_bfloat16", "bfloat16")])
def test_mixed_precision_computes_low_and_keeps_the_softmax_float32(precision, compute):
    model = build_model("fashion_cnn", (28, 28, 1), 10, precision=precision)
    conv = next(layer for layer in model.layers if isinstance(layer, keras.layers.Conv2D))
    assert conv.compute_dtype == compute and conv.variable_dtype == "float32"
    assert model.layers[-1].compute_dtype == "float32"
    assert model.output.dtype == "float32"
    assert keras.mixed_precision.global_policy().name == "float32"  # put back after building


def test_param_counts_for_a_dataset_lists_exactly_its_pairings():
    rows = param_counts("reuters")
    assert [r["model"] for r in rows] == ["reuters_conv1d", "bilstm", "bert_base", "bert_tiny"]
    assert {r["dataset"] for r in rows} == {"reuters"} and all(r["num_classes"] == 46 for r in rows)
    assert rows[0]["input_shape"] == [300] and rows[0]["params"] == 70_000 + 2_304 + 6_176 + (73 * 32 * 46 + 46)
    assert set(rows[0]) == {"model", "dataset", "input_shape", "num_classes", "params"}


@pytest.mark.slow
def test_imagenet_shaped_applications_match_keras_reference_counts():
    # Keras's published counts for the ImageNet-shaped (224×224×3, 1000 classes) models
    assert build_model("resnet50", (224, 224, 3), 1000).count_params() == 25_636_712
    keras.backend.clear_session()
    assert build_model("inceptionv3", (224, 224, 3), 1000).count_params() == 23_851_784


def _test_shape(model: str, info: catalog.DatasetInfo) -> tuple[int, ...]:
    """The dataset's shape, except a big application runs at its smallest input (the layers and their
    parameter counts outside the classifier do not depend on the image size; CPU time does)."""
    if model in BIG_APPLICATIONS:
        side = max(32, catalog.MODELS[model].min_image_size)
        return (side, side, info.input_shape[2])
    return info.input_shape


_RESULTS: dict[tuple, float] = {}


# the full-size transformers (124 M / 110 M parameters) share every layer with their CI-sized twins, which run
# here; their own sizes are checked in test_transformer_zoo.py
FULL_SIZE_TRANSFORMERS = ("gpt2_small", "bert_base")


@pytest.mark.parametrize("model,dataset", [p for p in catalog.valid_pairings() if p[0] not in FULL_SIZE_TRANSFORMERS])
def test_every_valid_pairing_builds_and_trains_on_synthetic_data_of_its_shape(model, dataset, tmp_path):
    info = catalog.resolve_dataset(model, dataset)
    shape = _test_shape(model, info)
    key = (model, shape, info.num_classes)
    if key not in _RESULTS:  # pairings that reduce to the same test shape share one run
        overrides = {"units": 8} if model == "bilstm" else {}  # 1024 units is the default; tested above
        built = build_model(model, shape, info.num_classes, **overrides)
        assert tuple(built.input_shape[1:]) == tuple(shape)
        per_token = info.kind == "tokens"  # a language model scores the vocabulary at every position
        assert tuple(built.output_shape) == (
            (None, *shape, info.num_classes) if per_token else (None, info.num_classes)
        )
        assert built.count_params() > 0
        compile_model(built, model, xla=False, num_classes=info.num_classes)
        big = model in BIG_APPLICATIONS
        if big:
            built.run_eagerly = True  # one eager step: tracing a 150-layer graph costs a minute on 2 cores
        like = catalog.DatasetInfo(info.name, info.kind, shape, info.num_classes, 0, "")
        batch, steps = (2, 1) if big else (2 if len(shape) == 3 and shape[0] > 100 else 4, 2)
        data = make_dataset("synthetic", model, batch, info=like)
        clock = StepClock(Reporter(tmp_path), batch, steps, 1, t_fit_start=0.0)
        history = built.fit(data.train, epochs=1, steps_per_epoch=steps, callbacks=[clock], verbose=0, shuffle=False)
        assert len(clock.step_s[0]) == steps
        _RESULTS[key] = history.history["loss"][-1]
    assert math.isfinite(_RESULTS[key]) and _RESULTS[key] > 0
