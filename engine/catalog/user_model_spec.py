"""The checks of a run on the user's own Keras model (issue 20): `--model-file`, `--model-fn` and their options.
Pure (no framework import): the CLI and the Run page refuse a bad request before any worker starts.

  model_file / model_fn: a saved `.keras` file, or `package.module:function` returning an uncompiled keras.Model
    (CLI only), imported from model_path (else the CLI's working directory); the run's `model` is then the
    model's own name, filled in by the worker.
  unsafe_model_code: load a file's Lambda layers (arbitrary code); off, Keras's safe mode refuses them.
  loss, optimizer: "auto" = sparse cross-entropy for class scores, MSE for one unit; adam, adamw or sgd.
  data_npz: the user's `.npz` of x/y instead of synthetic data from the model's input specs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.catalog import catalog
from engine.catalog.fields import SpecError, boolean, choice, flag

PENDING_UPLOAD = "<upload pending>"  # the Run page's "Your model" before a file is chosen or readable
USER_LOSSES = ("auto", "sparse_categorical_crossentropy", "categorical_crossentropy", "binary_crossentropy", "mse")
USER_OPTIMIZERS = ("adam", "adamw", "sgd")
_MODEL_FN = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def user_model_fields(d: dict[str, Any]) -> dict[str, Any]:
    """The user-model fields, checked; {} for a zoo run. The file must exist here: a typo fails before a worker."""
    for key in ("model_file", "model_fn", "model_path", "data_npz", "loss", "optimizer"):
        if not isinstance(d[key], str):
            raise SpecError(flag(key), f"must be text, got {d[key]!r}")
    file, fn = d["model_file"].strip(), d["model_fn"].strip()
    if not file and not fn:
        return {}
    if file and fn:
        raise SpecError("--model-file", "give --model-file or --model-fn, not both")
    if d.get("model_given"):
        raise SpecError("--model", "give a zoo --model or your own --model-file/--model-fn, not both")
    if file == PENDING_UPLOAD:
        raise SpecError("--model-file", "upload a saved .keras model first (or pick a zoo model)")
    if file and (not file.endswith(".keras") or not Path(file).is_file()):
        raise SpecError("--model-file", f"must be an existing Keras 3 .keras file, got {file!r}")
    if fn and not _MODEL_FN.match(fn):
        raise SpecError("--model-fn", f"must look like package.module:function, got {fn!r}")
    if file and d["precision"] != "float32":
        raise SpecError("--precision", "a saved .keras file carries its own dtype policy; leave --precision at float32")
    npz = d["data_npz"].strip()
    if npz and (not npz.endswith(".npz") or not Path(npz).is_file()):
        raise SpecError("--data-npz", f"must be an existing .npz file of x and y arrays, got {npz!r}")
    if d["dataset"] != catalog.SYNTHETIC:
        raise SpecError("--dataset", "your own model trains on synthetic data from its input specs, or --data-npz")
    return {
        "model": "",
        "model_file": str(Path(file).resolve()) if file else "",
        "model_fn": fn,
        "model_path": str(Path(d["model_path"] or ".").resolve()) if fn else "",
        "unsafe_model_code": boolean(d, "unsafe_model_code"),
        "loss": choice(d, "loss", USER_LOSSES),
        "optimizer": choice(d, "optimizer", USER_OPTIMIZERS),
        "data_npz": str(Path(npz).resolve()) if npz else "",
    }
