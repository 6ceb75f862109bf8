"""`--model-fn package.module:build`: import the user's module (from --model-path, else the working directory)
and find its function — the one reading of the flag that the Keras path (engine.worker.user_model) and the
native PyTorch path (engine.worker.torch_native.user_fn) share; each checks what the function returns.
No framework is imported here."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import sys
from collections.abc import Callable
from typing import Any

from engine.catalog.specs import TrainSpec


def digest(data: bytes) -> str:
    """The `model_hash` of a file or a function's module source."""
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def resolve(spec: TrainSpec, error: type[ValueError]) -> tuple[Callable[[], Any], str]:
    """(the build function, the hash of its module's source — of the flag's text where the source cannot be
    read). Raises `error` with what to do when the module cannot be imported or has no such function."""
    module_name, _, func_name = spec.model_fn.partition(":")
    if spec.model_path and spec.model_path not in sys.path:
        sys.path.insert(0, spec.model_path)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        where = spec.model_path or "the working directory"
        raise error(f"--model-fn {spec.model_fn}: cannot import {module_name} from {where} ({exc})") from None
    build = getattr(module, func_name, None)
    if not callable(build):
        raise error(f"--model-fn {spec.model_fn}: {module_name} has no function {func_name}")
    try:
        source = inspect.getsource(module).encode()
    except (OSError, TypeError):
        source = spec.model_fn.encode()
    return build, digest(source)
