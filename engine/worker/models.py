"""The seed model zoo: registry name → Keras builder (worker/CLI only: imports TensorFlow).

Every builder takes the input shape and class count from the dataset (`catalog.resolve_dataset`),
so one architecture serves several datasets. The final softmax is a separate float32 layer so a
mixed-precision run computes its probabilities and loss in float32 (Keras's own advice), and the
parameter count is unchanged (an activation has no weights).

Sources:
  fashion_cnn, tiny_cnn   article 000 (the Colab TPU Fashion-MNIST notebook)
  flowers_cnn             article 001's "custom model, 78,263 params" — its layers are not published;
                          ours is a small VGG-style stack whose widths were chosen so that at
                          192×192×3 with 5 classes it has exactly 78,263 parameters (see _flowers_cnn)
  vgg19 … inceptionv3     keras.applications, weights=None, input_shape and classes from the dataset
  reuters_conv1d          article 002 (MirroredStrategy example)
  bilstm                  article 003 (RiseML: a bidirectional LSTM text classifier, 1024 hidden units)
  gpt2_small … bert_tiny  today's transformers (engine.worker.transformers)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402  (after the log-level default)
from keras import layers  # noqa: E402

from engine.catalog import catalog  # noqa: E402
from engine.worker import transformers  # noqa: E402

BILSTM_UNITS = 1024  # article 003
BILSTM_EMBEDDING_DIM = 128  # not given by the article; a common size for a 10k-word vocabulary
REUTERS_EMBEDDING_DIM = 7  # article 002


@dataclass(frozen=True)
class TrainingRecipe:
    """How a model is compiled: the optimizer its source used, and the metrics it reports.

    Attributes:
      optimizer: a zero-argument factory (a fresh optimizer per model, created inside the strategy scope).
      top5: also report top-5 accuracy (article 002 does; only meaningful with more than 5 classes).
      from_logits: the model ends in logits (a language model's vocabulary is too wide for a stored softmax).
    """

    optimizer: Callable[[], keras.optimizers.Optimizer]
    top5: bool = False
    from_logits: bool = False


def _softmax(x):
    # float32 whatever the global policy: a float16 softmax/log underflows and the loss goes inf/NaN.
    return layers.Activation("softmax", dtype="float32", name="probabilities")(x)


def _fashion_cnn(input_shape: tuple[int, ...], num_classes: int) -> keras.Model:
    inputs = keras.Input(shape=input_shape)
    x = inputs
    for filters in (64, 128, 256):
        x = layers.BatchNormalization()(x)
        x = layers.Conv2D(filters, 5, padding="same", activation="elu")(x)
        x = layers.MaxPooling2D(2)(x)
        x = layers.Dropout(0.25)(x)
    x = layers.Flatten()(x)
    x = layers.Dense(256, activation="elu")(x)
    x = layers.Dropout(0.5)(x)
    x = layers.Dense(num_classes)(x)
    return keras.Model(inputs, _softmax(x), name="fashion_cnn")


def _tiny_cnn(input_shape: tuple[int, ...], num_classes: int) -> keras.Model:
    inputs = keras.Input(shape=input_shape)
    x = layers.Conv2D(64, 3)(inputs)
    x = layers.MaxPooling2D(2)(x)
    x = layers.Activation("relu")(x)
    x = layers.Flatten()(x)
    x = layers.Dense(num_classes)(x)
    return keras.Model(inputs, _softmax(x), name="tiny_cnn")


def _flowers_cnn(input_shape: tuple[int, ...], num_classes: int) -> keras.Model:
    """3×3 convs of 16, 32 | 64 | 80 filters with 2×2 pooling between, a 1×1 conv of 99, global average
    pooling and the classifier. Parameters at 192×192×3, 5 classes:
    448 + 4,640 + 18,496 + 46,160 + 8,019 + 500 = 78,263 — the article's count, so its timings compare
    against a model of the same size. Global pooling keeps the count independent of the image size."""
    inputs = keras.Input(shape=input_shape)
    x = layers.Conv2D(16, 3, padding="same", activation="relu")(inputs)
    x = layers.Conv2D(32, 3, padding="same", activation="relu")(x)
    x = layers.MaxPooling2D(2)(x)
    x = layers.Conv2D(64, 3, padding="same", activation="relu")(x)
    x = layers.MaxPooling2D(2)(x)
    x = layers.Conv2D(80, 3, padding="same", activation="relu")(x)
    x = layers.MaxPooling2D(2)(x)
    x = layers.Conv2D(99, 1, activation="relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    x = layers.Dense(num_classes)(x)
    return keras.Model(inputs, _softmax(x), name="flowers_cnn")


def _application(name: str) -> Callable[[tuple[int, ...], int], keras.Model]:
    ctor = {
        "vgg19": keras.applications.VGG19,
        "xception": keras.applications.Xception,
        "resnet152v2": keras.applications.ResNet152V2,
        "resnet50": keras.applications.ResNet50,
        "inceptionv3": keras.applications.InceptionV3,
    }[name]

    def build(input_shape: tuple[int, ...], num_classes: int) -> keras.Model:
        # classifier_activation=None, then our float32 softmax: same weights and count as Keras's own model.
        base = ctor(weights=None, input_shape=input_shape, classes=num_classes, classifier_activation=None)
        return keras.Model(base.input, _softmax(base.output), name=name)

    return build


def _reuters_conv1d(input_shape: tuple[int, ...], num_classes: int) -> keras.Model:
    inputs = keras.Input(shape=input_shape, dtype="int32")
    x = layers.Embedding(catalog.TEXT_VOCAB_SIZE, REUTERS_EMBEDDING_DIM)(inputs)
    x = layers.Conv1D(64, 5, activation="relu")(x)
    x = layers.MaxPooling1D(2)(x)
    x = layers.Conv1D(32, 3, activation="relu")(x)
    x = layers.MaxPooling1D(2)(x)
    x = layers.Flatten()(x)
    x = layers.Dense(num_classes)(x)
    return keras.Model(inputs, _softmax(x), name="reuters_conv1d")


def _bilstm(input_shape: tuple[int, ...], num_classes: int, units: int = BILSTM_UNITS) -> keras.Model:
    inputs = keras.Input(shape=input_shape, dtype="int32")
    x = layers.Embedding(catalog.TEXT_VOCAB_SIZE, BILSTM_EMBEDDING_DIM)(inputs)
    x = layers.Bidirectional(layers.LSTM(units))(x)
    x = layers.Dense(num_classes)(x)
    return keras.Model(inputs, _softmax(x), name="bilstm")


BUILDERS: dict[str, Callable[..., keras.Model]] = {
    "fashion_cnn": _fashion_cnn,
    "tiny_cnn": _tiny_cnn,
    "flowers_cnn": _flowers_cnn,
    **{n: _application(n) for n in ("vgg19", "xception", "resnet152v2", "resnet50", "inceptionv3")},
    "reuters_conv1d": _reuters_conv1d,
    "bilstm": _bilstm,
    "gpt2_small": lambda shape, classes: transformers.gpt("gpt2_small", shape, classes),
    "gpt_tiny": lambda shape, classes: transformers.gpt("gpt_tiny", shape, classes),
    "bert_base": lambda shape, classes: transformers.bert("bert_base", shape, classes),
    "bert_tiny": lambda shape, classes: transformers.bert("bert_tiny", shape, classes),
}
assert set(BUILDERS) == set(catalog.MODEL_NAMES), "every catalog model needs a builder"


def _adam() -> keras.optimizers.Optimizer:
    return keras.optimizers.Adam(learning_rate=1e-3)


def _adamw() -> keras.optimizers.Optimizer:
    return keras.optimizers.AdamW(learning_rate=1e-4, weight_decay=0.01)


RECIPES: dict[str, TrainingRecipe] = {
    "fashion_cnn": TrainingRecipe(_adam),  # article 000: Adam 1e-3, sparse CE
    "tiny_cnn": TrainingRecipe(_adam),
    "flowers_cnn": TrainingRecipe(_adam),  # article 001 compiles with optimizer='adam'
    "vgg19": TrainingRecipe(_adam),
    "xception": TrainingRecipe(_adam),
    "resnet152v2": TrainingRecipe(_adam),
    # article 003 ran the tf_cnn_benchmarks ImageNet recipes: SGD with momentum
    "resnet50": TrainingRecipe(lambda: keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)),
    "inceptionv3": TrainingRecipe(lambda: keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)),
    "reuters_conv1d": TrainingRecipe(keras.optimizers.Nadam, top5=True),  # article 002
    "bilstm": TrainingRecipe(_adam),
    # the transformer recipes: AdamW, as GPT-2/BERT reproductions train (learning rate for a short timed run)
    **{m: TrainingRecipe(_adamw, from_logits=m.startswith("gpt")) for m in transformers.SHAPES},
}


def build_model(
    model: str,
    input_shape: tuple[int, ...],
    num_classes: int,
    precision: str = "float32",
    **overrides: int,
) -> keras.Model:
    """Build `model` for this input shape and class count under `precision`'s dtype policy.

    The global dtype policy is set only while the layers are created (they keep it), then put back,
    so building a float32 model after a mixed one in the same process stays float32.
    `overrides` are architecture knobs for tests and experiments (only `units` for bilstm).
    """
    if model not in BUILDERS:
        raise ValueError(f"unknown model {model!r}; known: {', '.join(BUILDERS)}")
    if overrides and not (model == "bilstm" and set(overrides) <= {"units"}):
        raise ValueError(f"{model} takes no overrides, got {sorted(overrides)}")
    previous = keras.mixed_precision.global_policy().name
    keras.mixed_precision.set_global_policy(precision)
    try:
        return BUILDERS[model](tuple(input_shape), num_classes, **overrides)
    finally:
        keras.mixed_precision.set_global_policy(previous)


def param_counts(dataset: str | None = None) -> list[dict]:
    """Every model that pairs with `dataset` (each model on its native dataset when None), with the
    parameter count Keras reports for that input shape and class count."""
    if dataset is None:
        pairs = [(m, catalog.MODELS[m].native_dataset) for m in catalog.MODEL_NAMES]
    else:
        pairs = [(m, dataset) for m in catalog.MODEL_NAMES if catalog.pairing_problem(m, dataset) is None]
    rows = []
    for model, ds in pairs:
        info = catalog.resolve_dataset(model, ds)
        built = build_model(model, info.input_shape, info.num_classes)
        rows.append(
            {
                "model": model,
                "dataset": info.name if ds != catalog.SYNTHETIC else catalog.SYNTHETIC,
                "input_shape": list(info.input_shape),
                "num_classes": info.num_classes,
                "params": int(built.count_params()),
            }
        )
        del built
        keras.backend.clear_session()  # the big applications would otherwise pile up in memory
    return rows
