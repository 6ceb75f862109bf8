"""The Run page's "Your model (.keras)": upload a saved Keras 3 model (size-capped, refused in demo mode), read it
once in a subprocess (engine.runs.model_check: safe mode, no framework in this process) and show its name,
parameters, FLOPs and inputs before anything is launched. `--model-fn` stays on the CLI (it imports code)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import streamlit as st

from engine import settings
from engine.catalog import backends
from engine.catalog.fields import SpecError
from engine.catalog.specs import validate_train
from engine.runs.model_check import ModelCheckError, read_model

MAX_UPLOAD_MB = 100
ZOO, YOURS = "Zoo", "Your model (.keras)"


def upload_dir() -> Path:
    """Uploaded models live beside the per-run folders, named by their content hash."""
    return settings.runs_dir().parent / "uploads"


@st.cache_data(show_spinner="Reading your model (safe mode) …", max_entries=16)
def read_upload(path: str, digest: str, backend: str) -> dict[str, Any]:
    """What the saved model is, or {"error": …} — cached per file content, so a rerun never re-reads it."""
    try:
        return read_model(validate_train({"model_file": path, "backend": backend}))
    except (ModelCheckError, SpecError) as exc:
        return {"error": str(exc)}


def _reading_backend() -> str:
    return next((b for b in ("jax", "tensorflow") if backends.installed(b)), backends.DEFAULT_BACKEND)


def _facts_line(facts: dict[str, Any]) -> str:
    inputs = ", ".join(f"{name} {'×'.join(map(str, shape))} {dtype}" for name, shape, dtype in facts["inputs"])
    return (
        f"**{facts['name']}**: {facts['params']:,} parameters, {facts['train_flops_per_example'] / 1e6:,.1f} MFLOP "
        f"per training example (counted by layer); inputs {inputs}; trained on synthetic data shaped by them. "
        + (
            f"Its layers make it a {facts['model_kind']} model: Compare estimates other devices from figures of "
            f"{facts['model_kind']} models."
            if facts.get("model_kind")
            else "No attention, recurrent or convolution layer found: Compare's estimates treat it as a convnet."
        )
    )


def your_model(raw: dict[str, Any], demo: bool) -> bool:
    """The upload, its facts and the request fields it sets; False while no usable model is chosen."""
    if demo:
        st.info("Uploading a model is off in demo mode (it would run code-free but unvetted files on a shared box).")
        return False
    up = st.file_uploader(
        f"Your model (.keras from model.save, up to {MAX_UPLOAD_MB} MB)",
        type=["keras"],
        key="run_model_upload",
        help="Loaded in Keras's safe mode: a Lambda layer is refused (on the CLI, --unsafe-model-code allows it).",
    )
    if up is None:
        st.caption("Or on the CLI: `python -m engine run --model-file my.keras` or `--model-fn package.module:build`.")
        return False
    if up.size > MAX_UPLOAD_MB * 2**20:
        st.error(f"{up.name} is {up.size / 2**20:,.0f} MB, over the {MAX_UPLOAD_MB} MB limit; run it with the CLI.")
        return False
    data = up.getvalue()
    digest = hashlib.sha256(data).hexdigest()[:16]
    path = upload_dir() / f"{digest}.keras"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    facts = read_upload(str(path), digest, _reading_backend())
    if "error" in facts:
        st.error(f"{up.name}: {facts['error']}", icon=":material/block:")
        return False
    st.markdown(_facts_line(facts))
    raw.pop("model", None)
    raw["model_file"] = str(path)
    raw["dataset"] = "synthetic"
    return True
