"""Backends a run can use, and whether each is installed — without importing any of them.

`tensorflow`, `jax` and `keras-torch` run the zoo's Keras 3 models on that framework; `torch` is native
PyTorch (torch.nn models, a plain training loop, torch.compile: engine/worker/torch_native/), what a
PyTorch user runs. Rows stored before schema_version 2 said `torch` for Keras-torch: `stored_name` reads
them so (engine/runs/migrations 0006 rewrites a database's rows; CSV/JSON exports are mapped as read).

One run = one worker process, so a run's backend is fixed before Keras is imported (KERAS_BACKEND).
`find_spec` answers "is it installed?" from the file system alone: the dashboard and the CLI stay
free of TensorFlow, JAX and PyTorch imports.
"""

from __future__ import annotations

import importlib.machinery
from dataclasses import dataclass

from engine.catalog.framework_support import install_command, keras_install_command

BACKENDS = ("tensorflow", "jax", "torch", "keras-torch")
DEFAULT_BACKEND = "tensorflow"  # a stored row that names none ran on it; a new run gets `default_backend()`
# A run that names no backend gets the first installed of these (issue 37: a JAX-only Colab runtime runs on JAX).
DEFAULT_ORDER = ("tensorflow", "jax", "torch")


@dataclass(frozen=True)
class BackendInfo:
    """One backend: the module whose presence means installed, and the one command that installs it."""

    name: str
    module: str
    install: str
    label: str


# The install command: the suite's pin in a checkout, `pip install "accelbench[EXTRA]"` for an installed
# wheel (engine.catalog.framework_support). PyTorch stays optional: its default PyPI wheel carries GBs of CUDA
# libraries, so a checkout names the CPU build.
INFO: dict[str, BackendInfo] = {
    "tensorflow": BackendInfo("tensorflow", "tensorflow", install_command("tensorflow"), "TensorFlow"),
    "jax": BackendInfo("jax", "jax", install_command("jax"), "JAX"),
    "torch": BackendInfo("torch", "torch", install_command("torch"), "PyTorch"),
    "keras-torch": BackendInfo("keras-torch", "torch", install_command("keras-torch"), "Keras-torch"),
}
# The KERAS_BACKEND a Keras run sets; native PyTorch (`torch`) has none: it never imports Keras.
KERAS_BACKEND_OF = {"tensorflow": "tensorflow", "jax": "jax", "keras-torch": "torch"}
NATIVE = ("torch",)
# Before schema_version 2 a row's "torch" meant Keras on the torch backend.
NAMES_BEFORE_V2 = {"torch": "keras-torch"}
FIRST_VERSION_WITH_NATIVE_TORCH = 2


# How a run's backend is named beside references: TensorFlow runs are tf.keras-like ("tensorflow"); JAX and
# Keras-torch run Keras 3 on that framework, which is not the framework's own idiom (a PyTorch reference row
# is plain PyTorch), so the grade must see them as different; native `torch` is plain PyTorch ("pytorch").
FRAMEWORK_OF = {"tensorflow": "tensorflow", "jax": "keras-jax", "torch": "pytorch", "keras-torch": "keras-torch"}
SHORT = {"tensorflow": "TF", "jax": "JAX", "torch": "PyTorch", "keras-torch": "Keras-torch"}


def short_label(name: str | None) -> str:
    """'TF', 'JAX', 'PyTorch', 'Keras-torch' — the backend in a run's one-line label."""
    return SHORT.get(name or DEFAULT_BACKEND, str(name))


def stored_name(name: str | None, schema_version: int | None) -> str | None:
    """A stored row's backend as this code names it: before schema_version 2, "torch" was Keras-torch."""
    if not isinstance(name, str):  # a missing cell (None, NaN, pd.NA)
        return None
    try:
        # numpy and pandas scalars convert too; None or NA fall to the except
        version = float(schema_version)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return name
    return NAMES_BEFORE_V2.get(name, name) if version < FIRST_VERSION_WITH_NATIVE_TORCH else name


def _on_disk(module: str) -> bool:
    return importlib.machinery.PathFinder.find_spec(module) is not None


def installed(name: str) -> bool:
    """Whether the backend's package is on sys.path, and Keras too for a Keras backend (its run imports it).
    PathFinder looks at the disk only, not at sys.modules, so a process that has blocked or not yet imported
    the module gets the same answer."""
    return _on_disk(INFO[name].module) and (name not in KERAS_BACKEND_OF or _on_disk("keras"))


def framework_installed(name: str) -> bool:
    """Whether the backend's framework alone is on sys.path: what a microbenchmark needs (a matmul or a
    convolution is the framework's own op; only training imports Keras)."""
    return _on_disk(INFO[name].module)


def pillow_installed() -> bool:
    """Whether Pillow (PIL) is on sys.path: it decodes the flowers JPEGs everywhere but in tf.data."""
    return _on_disk("PIL")


def default_backend(needs_keras: bool = True) -> str:
    """The backend of a run that names none: TensorFlow if installed, then JAX, then native PyTorch; with
    none installed TensorFlow, whose refusal names the one command that installs it. `needs_keras` False (a
    microbenchmark): the framework alone counts, so JAX without Keras runs a matmul."""
    present = installed if needs_keras else framework_installed
    return next((b for b in DEFAULT_ORDER if present(b)), DEFAULT_BACKEND)


def installed_backends() -> list[str]:
    return [b for b in BACKENDS if installed(b)]


def not_installed_reason(name: str, needs_keras: bool = True) -> str | None:
    """None when `name` can run here, else one line with the install command. `needs_keras` False: a
    microbenchmark, which runs on the framework alone."""
    if installed(name) or (not needs_keras and framework_installed(name)):
        return None
    if name in KERAS_BACKEND_OF and _on_disk(INFO[name].module) and not _on_disk("keras"):
        return f"{INFO[name].label} runs Keras 3, which is not installed here; install it with: {keras_install_command(name)}"
    return f"{INFO[name].label} is not installed here; install it with: {INFO[name].install}"
