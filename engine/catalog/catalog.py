"""What can be run: models, datasets and which pairings make sense. No TensorFlow here.

The builders live in `engine.worker.models` (imported only by the worker); this module holds the facts
the CLI and the pages need to validate a request and fill their pickers in milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DatasetInfo:
    """A dataset's shape facts.

    Attributes:
      name: registry key.
      kind: "image" or "text".
      input_shape: per-example shape (H, W, C) for images, (sequence_length,) for text.
      num_classes: label count.
      train_examples: size of the real training split (0 for synthetic).
      description: one line for pickers.
    """

    name: str
    kind: str
    input_shape: tuple[int, ...]
    num_classes: int
    train_examples: int
    description: str


@dataclass(frozen=True)
class ModelInfo:
    """A model's facts.

    Attributes:
      name: registry key.
      kind: "image" or "text" — which datasets it accepts.
      native_dataset: the dataset whose shape `synthetic` takes for this model.
      min_image_size: smallest H/W the architecture accepts (Keras applications have minimums).
      source: which seed article or library it comes from.
      description: one line for pickers.
      gpu_batch_size: the global batch it is usually trained at on one data-centre GPU (as TorchBench keeps
        per-device batch sizes beside each model), so a GPU preset or the reference pack is not CPU-sized.
    """

    name: str
    kind: str
    native_dataset: str
    min_image_size: int
    source: str
    description: str
    gpu_batch_size: int = 256


SEQUENCE_LENGTH = 300
TEXT_VOCAB_SIZE = 10_000

DATASETS: dict[str, DatasetInfo] = {
    d.name: d
    for d in (
        DatasetInfo("fashion_mnist", "image", (28, 28, 1), 10, 60_000, "Fashion-MNIST, 28×28 grey, 10 classes"),
        DatasetInfo("mnist", "image", (28, 28, 1), 10, 60_000, "MNIST digits, 28×28 grey, 10 classes"),
        DatasetInfo("cifar10", "image", (32, 32, 3), 10, 50_000, "CIFAR-10, 32×32 colour, 10 classes"),
        DatasetInfo("flowers", "image", (192, 192, 3), 5, 3_670, "Flowers TFRecords, 192×192 colour, 5 classes"),
        DatasetInfo(
            "imagenet_shape",
            "image",
            (224, 224, 3),
            1000,
            0,
            "ImageNet-shaped (224×224×3, 1000 classes), synthetic only",
        ),
        DatasetInfo(
            "reuters", "text", (SEQUENCE_LENGTH,), 46, 8_982, "Reuters newswire topics, padded to 300, 46 classes"
        ),
        DatasetInfo("imdb", "text", (SEQUENCE_LENGTH,), 2, 25_000, "IMDB reviews, padded to 300, 2 classes"),
        # synthetic-only shapes of today's transformer workloads: token ids in, the next token (language
        # modelling, kind "tokens": a label per position, num_classes = vocabulary) or a class out
        DatasetInfo("lm_gpt2", "tokens", (1024,), 50_257, 0, "GPT-2-shaped token ids, context 1024, vocab 50,257"),
        DatasetInfo("lm_tiny", "tokens", (128,), 1024, 0, "token ids, context 128, vocab 1,024 (CI-sized)"),
        DatasetInfo("seq128", "text", (128,), 2, 0, "BERT-shaped sequence classification, 128 tokens, 2 classes"),
    )
}

# `synthetic` is not a DatasetInfo: it takes the shape of the model's native dataset.
SYNTHETIC = "synthetic"
SYNTHETIC_ONLY = ("imagenet_shape", "lm_gpt2", "lm_tiny", "seq128")
DATASET_NAMES: tuple[str, ...] = (SYNTHETIC, *[n for n in DATASETS if n not in SYNTHETIC_ONLY])

MODELS: dict[str, ModelInfo] = {
    m.name: m
    for m in (
        ModelInfo(
            "fashion_cnn",
            "image",
            "fashion_mnist",
            4,
            "article 000",
            "5-layer CNN (BN, conv 64/128/256 5×5 ELU, dense 256)",
            gpu_batch_size=1024,
        ),
        ModelInfo(
            "tiny_cnn",
            "image",
            "fashion_mnist",
            3,
            "article 000",
            "conv 64 3×3 → pool → ReLU → dense (TPUStrategy example)",
            gpu_batch_size=1024,
        ),
        ModelInfo(
            "flowers_cnn", "image", "flowers", 16, "article 001", "small custom CNN for flowers (~78k parameters)"
        ),
        ModelInfo("vgg19", "image", "flowers", 32, "keras.applications", "VGG19, no pre-trained weights", 128),
        ModelInfo("xception", "image", "flowers", 71, "keras.applications", "Xception, no pre-trained weights", 128),
        ModelInfo(
            "resnet152v2", "image", "flowers", 32, "keras.applications", "ResNet152V2, no pre-trained weights", 128
        ),
        ModelInfo(
            "resnet50",
            "image",
            "imagenet_shape",
            32,
            "keras.applications / article 003",
            "ResNet-50, no pre-trained weights",
        ),
        ModelInfo(
            "inceptionv3",
            "image",
            "imagenet_shape",
            75,
            "keras.applications / article 003",
            "InceptionV3, no pre-trained weights",
        ),
        ModelInfo(
            "reuters_conv1d",
            "text",
            "reuters",
            0,
            "article 002",
            "embedding 7 → conv1d 64/5 → conv1d 32/3 → dense 46 (Nadam)",
        ),
        ModelInfo(
            "bilstm", "text", "imdb", 0, "article 003", "bidirectional LSTM text classifier, 1024 hidden units", 128
        ),
        ModelInfo(
            "gpt2_small", "tokens", "lm_gpt2", 0, "GPT-2 small shape (Radford et al. 2019)",
            "GPT-style decoder: 12 layers, d 768, 12 heads, context 1024, ~124 M parameters, causal LM", 32,
        ),
        ModelInfo(
            "gpt_tiny", "tokens", "lm_tiny", 0, "GPT-2's layout at CI size",
            "GPT-style decoder: 2 layers, d 128, 4 heads, context 128, causal LM", 256,
        ),
        ModelInfo(
            "bert_base", "text", "seq128", 0, "BERT-base shape (Devlin et al. 2018)",
            "BERT-style encoder: 12 layers, d 768, 12 heads, ~110 M parameters, classification head", 64,
        ),
        ModelInfo(
            "bert_tiny", "text", "seq128", 0, "BERT's layout at CI size",
            "BERT-style encoder: 2 layers, d 128, 2 heads, classification head", 256,
        ),
    )
}  # fmt: skip


def tokens_per_example(model: str, dataset: str) -> int | None:
    """Training tokens in one example of `model` on `dataset` (its sequence length) for a sequence model, else
    None: a transformer's rate is quoted in tokens/s (examples/s × this), as every LLM benchmark does."""
    if model not in MODELS or MODELS[model].kind not in ("tokens", "text"):
        return None
    info = resolve_dataset(model, dataset) if dataset in (*DATASETS, SYNTHETIC) else None
    return int(info.input_shape[0]) if info is not None and MODELS[model].name in TRANSFORMERS else None


TRANSFORMERS = ("gpt2_small", "gpt_tiny", "bert_base", "bert_tiny")
MODEL_NAMES: tuple[str, ...] = tuple(MODELS)


def resolve_dataset(model: str, dataset: str) -> DatasetInfo:
    """The shape facts a run of `model` on `dataset` uses (synthetic takes the model's native shape)."""
    return DATASETS[MODELS[model].native_dataset if dataset == SYNTHETIC else dataset]


def pairing_problem(model: str, dataset: str) -> str | None:
    """Why `model` cannot train on `dataset`, or None when the pairing makes sense."""
    m = MODELS[model]
    if dataset == SYNTHETIC:
        return None
    d = DATASETS[dataset]
    if m.kind != d.kind:
        return f"{model} is a{'n' if m.kind == 'image' else ''} {m.kind} model and {dataset} is a {d.kind} dataset"
    if m.kind == "image" and min(d.input_shape[:2]) < m.min_image_size:
        return f"{model} needs images of at least {m.min_image_size}×{m.min_image_size}; {dataset} has {d.input_shape[0]}×{d.input_shape[1]}"
    return None


def valid_pairings() -> list[tuple[str, str]]:
    """Every (model, dataset) pairing that makes sense, synthetic included."""
    return [(m, d) for m in MODELS for d in DATASET_NAMES if pairing_problem(m, d) is None]
