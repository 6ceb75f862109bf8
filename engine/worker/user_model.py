"""The user's own Keras model (worker only): loaded from a `.keras` file or built by `module:function`, fed
synthetic data shaped by its own input specs (or the user's `.npz` of x/y), compiled with a loss and optimizer
from flags with a sensible default.

Loading a file uses Keras's safe mode: a Lambda layer (arbitrary Python in the file) is refused unless the
user passed --unsafe-model-code. A function is the user's own code: importing it runs it, as any import does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import keras
import numpy as np

from engine.catalog import catalog
from engine.catalog.specs import TrainSpec
from engine.worker import layer_kind, model_fn

DEFAULT_TOKEN_VOCAB = 1000  # integer inputs not feeding an Embedding: ids below this
OPTIMIZERS = {"adam": keras.optimizers.Adam, "adamw": keras.optimizers.AdamW, "sgd": keras.optimizers.SGD}


class UserModelError(ValueError):
    """The user's model cannot be loaded, fed or compiled; the message says why and what to do."""


@dataclass(frozen=True)
class UserModel:
    """A loaded user model and what the run needs from it.

    Attributes:
      model: the Keras model (uncompiled); name: its own name (the run's `model` column).
      source: "file" or "function"; digest: sha256 of the file, or of the function's module source.
      tokens_per_example: the sequence length when every input is integer token ids (else None).
    """

    model: keras.Model
    name: str
    source: str
    digest: str
    tokens_per_example: int | None


def _from_file(spec: TrainSpec) -> UserModel:
    path = Path(spec.model_file)
    try:
        model = keras.saving.load_model(path, compile=False, safe_mode=not spec.unsafe_model_code)
    except ValueError as exc:
        text = str(exc)
        if "unsafe" in text.lower() or "lambda" in text.lower():
            raise UserModelError(
                f"--model-file {path.name}: it holds a Lambda layer (arbitrary Python code), which safe mode "
                "refuses to load; if you trust the file, add --unsafe-model-code"
            ) from None
        raise UserModelError(f"--model-file {path.name}: Keras could not load it: {text.splitlines()[0]}") from None
    except (OSError, TypeError) as exc:
        raise UserModelError(f"--model-file {path.name}: not a Keras 3 .keras file ({exc})") from None
    return UserModel(model, model.name, "file", model_fn.digest(path.read_bytes()), _tokens(model))


def _from_function(spec: TrainSpec) -> UserModel:
    build, source_hash = model_fn.resolve(spec, UserModelError)
    previous = keras.mixed_precision.global_policy().name
    keras.mixed_precision.set_global_policy(spec.precision)
    try:
        model = build()
    finally:
        keras.mixed_precision.set_global_policy(previous)
    if not isinstance(model, keras.Model):
        raise UserModelError(
            f"--model-fn {spec.model_fn}: returned {type(model).__name__}, not a keras.Model "
            "(a torch.nn.Module runs with --backend torch, the native PyTorch path)"
        )
    return UserModel(model, model.name, "function", source_hash, _tokens(model))


def load(spec: TrainSpec) -> UserModel:
    """The user's model for `spec` (exactly one of model_file / model_fn is set)."""
    got = _from_file(spec) if spec.model_file else _from_function(spec)
    if any(None in tuple(t.shape)[1:] for t in got.model.inputs):
        raise UserModelError(
            f"{got.name}: every input needs a fixed shape to time it (got "
            f"{', '.join(str(tuple(t.shape)) for t in got.model.inputs)}); give keras.Input a full shape"
        )
    return got


def _tokens(model: keras.Model) -> int | None:
    """The sequence length when every input is a 1-D sequence of integer ids."""
    shapes = [tuple(t.shape) for t in model.inputs]
    ints = all("int" in str(t.dtype) for t in model.inputs)
    return int(shapes[0][1]) if ints and all(len(s) == 2 for s in shapes) and shapes[0][1] else None


def _vocab_of(model: keras.Model, tensor) -> int:
    """The input_dim of the Embedding that reads `tensor`, so synthetic ids stay in range."""
    for layer in model.layers:
        if isinstance(layer, keras.layers.Embedding):
            try:
                if layer.input is tensor or layer.input.name == tensor.name:
                    return int(layer.input_dim)
            except (AttributeError, ValueError):
                continue
    return DEFAULT_TOKEN_VOCAB


def synthetic_batch(model: keras.Model, batch: int, seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """One global batch for `model`'s own inputs (floats in [0, 1), token ids within the embedding's range) and
    labels for its outputs (class ids over the last axis; targets in [0, 1) for a single-unit output)."""
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    for t in model.inputs:
        shape = (batch, *(int(d) for d in tuple(t.shape)[1:]))
        if "int" in str(t.dtype):
            xs.append(rng.integers(0, _vocab_of(model, t), size=shape, dtype=np.int32))
        else:
            xs.append(rng.random(shape, dtype=np.float32))
    ys: list[np.ndarray] = []
    for t in model.outputs:
        dims = tuple(int(d) for d in tuple(t.shape)[1:])
        if dims and dims[-1] > 1:
            ys.append(rng.integers(0, dims[-1], size=(batch, *dims[:-1]), dtype=np.int32))
        else:
            ys.append(rng.random((batch, *dims), dtype=np.float32))
    return xs, ys


def npz_batch(path: str, batch: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The first global batch of the user's `.npz` (arrays `x`/`y`, or `x0`, `x1`, … / `y0`, … for several)."""
    with np.load(path) as data:
        keys = set(data.files)
        xs = [data["x"]] if "x" in keys else [data[k] for k in sorted(keys) if k.startswith("x")]
        ys = [data["y"]] if "y" in keys else [data[k] for k in sorted(keys) if k.startswith("y")]
    if not xs or not ys:
        raise UserModelError(f"--data-npz {Path(path).name}: needs arrays x and y (or x0, x1 … and y0 …)")
    n = min(len(a) for a in [*xs, *ys])
    if n < batch:
        raise UserModelError(f"--data-npz {Path(path).name}: {n} examples, fewer than one batch of {batch}")
    return [a[:batch] for a in xs], [a[:batch] for a in ys]


def batch_for(user: UserModel, spec: TrainSpec, seed: int):
    """(x, y) of one global batch as Keras's fit takes them: a single array when the model has one input/output."""
    xs, ys = (
        npz_batch(spec.data_npz, spec.batch_size)
        if spec.data_npz
        else synthetic_batch(user.model, spec.batch_size, seed)
    )
    return (xs[0] if len(xs) == 1 else tuple(xs)), (ys[0] if len(ys) == 1 else tuple(ys))


def loss_for(model: keras.Model, choice: str):
    """The loss from --loss, or by the output: class scores → sparse cross-entropy (from logits unless the last
    layer is a softmax), one unit → mean squared error."""
    if choice != "auto":
        return choice
    dims = [tuple(t.shape)[1:] for t in model.outputs]
    if all(d and int(d[-1]) > 1 for d in dims):
        last = model.layers[-1]
        softmax = getattr(getattr(last, "activation", None), "__name__", "") == "softmax"
        return keras.losses.SparseCategoricalCrossentropy(from_logits=not softmax)
    return "mse"


def compile_user(model: keras.Model, spec: TrainSpec, xla: bool | str) -> None:
    """Compile with the --loss/--optimizer choice (defaults: by the output; Adam at 1e-3)."""
    try:
        model.compile(
            optimizer=OPTIMIZERS[spec.optimizer](learning_rate=1e-3), loss=loss_for(model, spec.loss), jit_compile=xla
        )
    except (ValueError, TypeError) as exc:
        raise UserModelError(f"cannot compile {model.name} with --loss {spec.loss}: {exc}") from None


def dataset_info(user: UserModel, spec: TrainSpec) -> catalog.DatasetInfo:
    """A DatasetInfo for the report and notes: the model's first input shape, data from where it came."""
    first = tuple(int(d) for d in tuple(user.model.inputs[0].shape)[1:])
    outputs = [tuple(t.shape)[1:] for t in user.model.outputs]
    classes = int(outputs[0][-1]) if outputs and outputs[0] else 1
    what = f"your .npz ({Path(spec.data_npz).name})" if spec.data_npz else "synthetic, from the model's input specs"
    return catalog.DatasetInfo("user", "user", first, classes, 0, what)


def facts(user: UserModel | None) -> dict:
    """The model_columns keywords of a user model ({} for a zoo model)."""
    if user is None:
        return {}
    return {
        "model_source": user.source,
        "model_hash": user.digest,
        "tokens": user.tokens_per_example,
        "model_kind": layer_kind.keras_kind(user.model),
    }
