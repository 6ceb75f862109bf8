"""The Run page's training form: model, dataset, GLOBAL batch (per-replica shown beside it), device,
strategy, numeric and GPU-memory settings. Validation stays in engine.catalog.specs; this only draws widgets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import streamlit as st

from engine.catalog import catalog
from engine.catalog import specs as spec
from engine.catalog.replicas import planned_replicas
from engine.catalog.user_model_spec import PENDING_UPLOAD
from ui.run_fields import spec_number
from ui.run_form_user_model import YOURS, ZOO, your_model

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator


def train_form(device_select: Callable[[], str], gpu_count: int, demo: bool = False) -> dict[str, Any]:
    """Model, data, batch, device and numeric settings → a TrainSpec request.

    `device_select` draws the device picker shared with the microbenchmark form.
    """
    raw: dict[str, Any] = {"kind": "train"}
    source = st.segmented_control(
        "Model from",
        (ZOO, YOURS),
        key="run_model_source",
        default=ZOO,
        help="The zoo's models, or your own saved model.",
    )
    if source == YOURS:
        if not your_model(raw, demo):
            raw.update(model_file=PENDING_UPLOAD, dataset="synthetic")  # the check says what is missing
    else:
        _model_and_data(raw)
    raw["device"] = device_select()
    _strategy_and_precision(raw)
    _batch_and_length(raw, gpu_count)
    _accelerator_settings(raw)
    return raw


def _model_and_data(raw: dict[str, Any]) -> None:
    """Model and dataset pickers, which datasets the model trains on, and the flowers data folder."""
    cols: tuple[DeltaGenerator, ...] = st.columns(2)  # rows below have other widths
    with cols[0]:
        raw["model"] = st.selectbox(
            "Model",
            catalog.MODEL_NAMES,
            key="run_model",
            format_func=lambda m: f"{m} — {catalog.MODELS[m].description}",
        )
    with cols[1]:
        raw["dataset"] = st.selectbox(
            "Dataset",
            catalog.DATASET_NAMES,
            key="run_dataset",
            format_func=lambda d: (
                "synthetic — random data in the model's native shape"
                if d == catalog.SYNTHETIC
                else f"{d} — {catalog.DATASETS[d].description}"
            ),
        )
    fits = [d for d in catalog.DATASET_NAMES if catalog.pairing_problem(raw["model"], d) is None]
    st.caption(f"{raw['model']} trains on: {', '.join(fits)}.")
    if raw["dataset"] == "flowers":
        raw["data_dir"] = st.text_input("Data folder (flowers TFRecords, local path or gs://)", key="run_data_dir")


def _strategy_and_precision(raw: dict[str, Any]) -> None:
    """Strategy, logical devices and precision."""
    cols = st.columns(3)
    with cols[0]:
        raw["strategy"] = st.selectbox(
            "Strategy",
            spec.STRATEGIES,
            key="run_strategy",
            help="auto: one device → default; several (logical) devices → mirrored; TPU → tpu.",
        )
    with cols[1]:
        raw["logical_devices"] = int(
            spec_number(
                "Logical devices",
                "run_logical_devices",
                spec.TRAIN_BOUNDS,
                "logical_devices",
                help="Split the CPU or the one GPU into K devices (article 002's way to try MirroredStrategy on one device).",
            )
        )
    with cols[2]:
        raw["precision"] = st.selectbox("Precision", spec.PRECISIONS, key="run_precision")


def _batch_and_length(raw: dict[str, Any], gpu_count: int) -> None:
    """Global batch (and what each replica gets), XLA, epochs, steps and validation steps."""
    cols = st.columns(3, vertical_alignment="bottom")
    with cols[0]:
        raw["batch_size"] = int(
            spec_number(
                "Batch size (global)",
                "run_batch_size",
                spec.TRAIN_BOUNDS,
                "batch_size",
                help="The GLOBAL batch: it is split evenly across the replicas.",
            )
        )
    with cols[1]:
        st.markdown(f"**Per replica:** {_per_replica_text(raw, gpu_count)}")
    with cols[2]:
        raw["xla"] = st.checkbox("XLA (jit_compile)", key="run_xla", help="Compile the train step with XLA.")
    cols = st.columns(3)
    with cols[0]:
        raw["epochs"] = int(
            spec_number(
                "Epochs",
                "run_epochs",
                spec.TRAIN_BOUNDS,
                "epochs",
                help="The first epoch (with compile) is reported apart.",
            )
        )
    with cols[1]:
        raw["steps_per_epoch"] = int(
            spec_number("Steps per epoch", "run_steps_per_epoch", spec.TRAIN_BOUNDS, "steps_per_epoch")
        )
    with cols[2]:
        raw["validation_steps"] = int(
            spec_number(
                "Validation steps",
                "run_validation_steps",
                spec.TRAIN_BOUNDS,
                "validation_steps",
                help="Validation batches at the end of each epoch (0 = none).",
            )
        )


def _accelerator_settings(raw: dict[str, Any]) -> None:
    """The TPU address and, for GPU runs, visible devices and memory settings."""
    if raw["device"] == "tpu":
        raw["tpu"] = st.text_input(
            "TPU address (name or grpc://host:port; empty = TPU_NAME / COLAB_TPU_ADDR / this TPU VM)", key="run_tpu"
        )
    with st.expander("GPU memory settings", expanded=raw["device"] == "gpu"):
        st.caption(
            "Defaults come from the Devices page. They apply to GPU runs only and are set before TensorFlow starts."
        )
        gpu = raw["device"] == "gpu"
        visible = st.text_input(
            "Visible GPUs (indices, e.g. 0 or 0,1; empty = all)", key="run_visible_devices", disabled=not gpu
        )
        growth = st.checkbox("Memory growth (allocate as needed)", key="run_memory_growth", disabled=not gpu)
        limit = int(
            spec_number(
                "Memory limit per logical GPU (MB, 0 = none)",
                "run_memory_limit_mb",
                spec.TRAIN_BOUNDS,
                "memory_limit_mb",
                step=256,
                disabled=not gpu,
            )
        )
        if gpu:
            raw.update(visible_devices=visible, memory_growth=growth, memory_limit_mb=limit)


def _per_replica_text(raw: dict[str, Any], gpu_count: int) -> str:
    """'128 × 2 replicas' — what each replica gets from the global batch, when it can be known before the run."""
    try:
        planned = planned_replicas(
            spec.TrainSpec(device=raw["device"], strategy=raw["strategy"], logical_devices=raw["logical_devices"]),
            gpu_count,
        )
    except Exception:  # an impossible combination; the form's error says why
        return "—"
    if not planned:
        return "set by the TPU's cores when it starts (e.g. ÷ 8 on a v2-8)"
    per, rest = divmod(raw["batch_size"], planned)
    if rest:
        return f"does not divide across {planned} replicas"
    return f"{per:,} × {planned} replica{'s' if planned > 1 else ''}"
