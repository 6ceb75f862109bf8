"""The Run page's form: a microbenchmark or a training request, built as the plain dict engine.runs.jobs.prepare takes.

Widgets only; every rule about what is valid lives in engine.catalog.specs / engine.runs.jobs.prepare, and its
SpecError is shown here in the form's own words before anything can be launched.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING, Any

import streamlit as st

from engine.catalog import backends, catalog
from engine.catalog import specs as spec
from engine.catalog.demo import DEMO_TIMEOUT_S
from engine.catalog.micro_presets import MICRO_PRESETS, SHAPE_FIELDS, preset_fields
from engine.runs import hardware
from ui.run_fields import spec_number
from ui.run_form_backend import backend_select
from ui.run_form_train import train_form

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

CUSTOM = "custom"
# Form labels for the CLI flags a SpecError names, so the message speaks the form's language.
FIELD_LABELS = {
    "run": "One run at a time",
    "--bench": "Operation",
    "--m": "M",
    "--n": "N",
    "--k": "K",
    "--m/--k": "M × K",
    "--k/--n": "K × N",
    "--m/--n": "M × N",
    "--m/--n/--k": "M, N, K",
    "--batch-size": "Batch size",
    "--height": "Height",
    "--width": "Width",
    "--channels": "Channels",
    "--filters": "Filters",
    "--kernel-size": "Kernel size",
    "--dtype": "Data type",
    "--xla": "XLA",
    "--repeats": "Timed repeats",
    "--warmup": "Warm-up repeats",
    "--device": "Device",
    "--backend": "Backend",
    "--model": "Model",
    "--model-file": "Your model",
    "--dataset": "Dataset",
    "--data-dir": "Data folder",
    "--epochs": "Epochs",
    "--steps-per-epoch": "Steps per epoch",
    "--validation-steps": "Validation steps",
    "--strategy": "Strategy",
    "--logical-devices": "Logical devices",
    "--precision": "Precision",
    "--memory-growth": "GPU memory growth",
    "--memory-limit-mb": "GPU memory limit (MB)",
    "--visible-devices": "Visible GPUs",
    "--tpu": "TPU address",
    "--price-per-hour-usd": "Price per hour",
    "--timeout-s": "Timeout",
}
# Devices-page session keys → this form's widget keys (the Devices page owns the former).
DEVICE_DEFAULTS = {
    "gpu_visible_devices": "run_visible_devices",
    "gpu_memory_growth": "run_memory_growth",
    "gpu_memory_limit_mb": "run_memory_limit_mb",
    "logical_devices": "run_logical_devices",
}
_TRAIN_FIELDS: tuple[str, ...] = ("batch_size", "strategy", "precision", "epochs", "steps_per_epoch", "tpu")
_TRAIN_FIELDS += ("validation_steps", "logical_devices", "visible_devices", "memory_growth", "memory_limit_mb")
_DEFAULTS: dict[str, Any] = {
    "run_workload": "Microbenchmark",
    "run_preset": "matmul_512",
    "run_bench": "matmul",
    "run_dtype": "float32",
    "run_xla": False,
    "run_device": "cpu",
    "run_price": 0.0,
    "run_model": "fashion_cnn",
    "run_dataset": "synthetic",
    "run_data_dir": "",
    # a training run's fields start at the spec's own defaults (the form never retypes them)
    **{f"run_{f}": getattr(spec.TrainSpec(), f) for f in _TRAIN_FIELDS},
}


# A flag, optionally followed by a value it is set to ("--device cpu", "--logical-devices 2").
_VALUES = "|".join(
    sorted(
        {*spec.DEVICES, *spec.STRATEGIES, *spec.PRECISIONS, *spec.DTYPES, *spec.BENCHES, *catalog.DATASET_NAMES}
        | set(backends.BACKENDS),
        key=len,
        reverse=True,
    )
)
_FLAG_RE = re.compile(rf"(--[a-z][a-z-]*(?:/--[a-z][a-z-]*)*)(?: (\d+|(?:{_VALUES})\b))?")


def plain_error(exc: spec.SpecError) -> str:
    """'**Batch size** — the global batch 255 does not divide …', flags replaced by form labels."""

    def label(flag: str) -> str:
        return f"“{FIELD_LABELS[flag]}”" if flag in FIELD_LABELS else flag

    def replace(m: re.Match) -> str:
        return label(m.group(1)) + (f" = {m.group(2)}" if m.group(2) else "")

    message = _FLAG_RE.sub(replace, exc.message)
    return f"**{FIELD_LABELS.get(exc.field, exc.field)}** — {message}"


def cli_command(raw: dict[str, Any]) -> str:
    """The equivalent `python -m engine run …` line, for running the same thing headless."""
    parts = ["python", "-m", "engine", "run"]
    for key, value in raw.items():
        if key == "kind" or value in (None, "", False, 0) and key not in ("warmup",):
            continue
        flag = "--price-per-hour" if key == "price_per_hour_usd" else "--" + key.replace("_", "-")
        parts += [flag] if value is True else [flag, str(value)]
    return shlex.join(parts)


def _init_state() -> None:
    for key, value in _DEFAULTS.items():
        st.session_state.setdefault(key, value)
    if "run_m" not in st.session_state:
        _apply_preset(st.session_state["run_preset"])
    # Follow the Devices page's GPU settings whenever they change there (and only then, so an edit here sticks).
    for dev_key, run_key in DEVICE_DEFAULTS.items():
        if dev_key in st.session_state and st.session_state[dev_key] != st.session_state.get(f"run_seen_{dev_key}"):
            value = st.session_state[dev_key]
            st.session_state[f"run_seen_{dev_key}"] = value
            if run_key == "run_visible_devices" and isinstance(value, (list, tuple)):
                value = ",".join(str(v) for v in value)
            default = _DEFAULTS[run_key]
            try:
                st.session_state[run_key] = type(default)(value) if value is not None else default
            except (TypeError, ValueError):
                st.session_state[run_key] = default


def _apply_preset(name: str | None = None) -> None:
    name = name or st.session_state.get("run_preset", CUSTOM)
    if name == CUSTOM or name not in MICRO_PRESETS:
        return
    fields = preset_fields(name)
    st.session_state["run_bench"] = fields["bench"]
    for key, value in fields.items():
        if key == "bench":
            continue
        st.session_state["run_conv_batch" if key == "batch_size" else f"run_{key}"] = value
    for op, names in SHAPE_FIELDS.items():  # keep the other op's fields filled so switching stays valid
        for f in names:
            st.session_state.setdefault(
                "run_conv_batch" if f == "batch_size" else f"run_{f}",
                MICRO_PRESETS["conv_small" if op == "conv2d" else "matmul_512"][f],
            )


def _mark_custom() -> None:
    st.session_state["run_preset"] = CUSTOM


def _int_input(label: str, key: str, field: str) -> int:
    return int(spec_number(label, key, spec.MICRO_BOUNDS, field, on_change=_mark_custom))


def _device_label(acc: hardware.Accelerators) -> dict[str, str]:
    cpu = hardware.cpu_info()
    return {
        "cpu": f"CPU — {cpu.name}, {cpu.cores} cores",
        "gpu": f"GPU — {len(acc.gpus)} found ({acc.gpus[0].name})" if acc.gpus else "GPU — none found on this machine",
        "tpu": "TPU — " + (acc.tpu if acc.tpu else "none found (give an address below)"),
    }


def micro_form(acc: hardware.Accelerators) -> dict[str, Any]:
    """matmul / conv2d fields → a MicroSpec request."""
    st.selectbox(
        "Preset",
        [CUSTOM, *MICRO_PRESETS],
        key="run_preset",
        format_func=lambda n: "Custom shape" if n == CUSTOM else MICRO_PRESETS[n]["label"],
        on_change=_apply_preset,
        help="The article presets repeat the seed articles' exact operations, so the chart below compares like with like.",
    )
    bench = st.radio("Operation", spec.BENCHES, key="run_bench", horizontal=True, on_change=_mark_custom)
    raw: dict[str, Any] = {"kind": bench, "bench": bench}
    if bench == "matmul":
        st.caption("(M × K) @ (K × N), float operands generated on the device.")
        cols: tuple[DeltaGenerator, ...] = st.columns(3)  # rows below have other widths
        for col, f in zip(cols, ("m", "k", "n"), strict=True):
            with col:
                raw[f] = _int_input(f.upper(), f"run_{f}", f)
    else:
        st.caption("A batch of random images convolved with random kernels (SAME padding, stride 1).")
        cols = st.columns(3)
        with cols[0]:
            raw["batch_size"] = _int_input("Batch size (images)", "run_conv_batch", "batch_size")
            raw["channels"] = _int_input("Channels", "run_channels", "channels")
        with cols[1]:
            raw["height"] = _int_input("Height (px)", "run_height", "height")
            raw["filters"] = _int_input("Filters", "run_filters", "filters")
        with cols[2]:
            raw["width"] = _int_input("Width (px)", "run_width", "width")
            raw["kernel_size"] = _int_input("Kernel size (px)", "run_kernel_size", "kernel_size")
    cols = st.columns(2, vertical_alignment="bottom")
    with cols[0]:
        raw["dtype"] = st.selectbox("Data type", spec.DTYPES, key="run_dtype")
    with cols[1]:
        raw["xla"] = st.checkbox("XLA (jit_compile)", key="run_xla", help="Compile the op with XLA.")
    cols = st.columns(2)
    with cols[0]:
        raw["repeats"] = int(
            spec_number(
                "Timed repeats",
                "run_repeats",
                spec.MICRO_BOUNDS,
                "repeats",
                help="The median and p10–p90 come from these.",
            )
        )
    with cols[1]:
        raw["warmup"] = int(
            spec_number(
                "Warm-up repeats",
                "run_warmup",
                spec.MICRO_BOUNDS,
                "warmup",
                help="Untimed; the first one (trace + compile) is reported apart.",
            )
        )
    raw["device"] = _device_select(acc)
    return raw


def _device_select(acc: hardware.Accelerators) -> str:
    labels = _device_label(acc)
    return st.selectbox(
        "Device",
        spec.DEVICES,
        key="run_device",
        format_func=labels.__getitem__,
        help="Placement is verified: a run that asked for a GPU/TPU and ran on the CPU fails with the reason.",
    )


def common_fields(raw: dict[str, Any], is_train: bool, demo: bool) -> dict[str, Any]:
    # Separate keys: a training run's sensible timeout is far longer than a microbenchmark's.
    timeout_key = "run_timeout_train_s" if is_train else "run_timeout_micro_s"
    default_s = float((spec.TrainSpec() if is_train else spec.MicroSpec()).timeout_s)
    bounds = spec.TRAIN_BOUNDS if is_train else spec.MICRO_BOUNDS
    st.session_state.setdefault(timeout_key, min(default_s, DEMO_TIMEOUT_S) if demo else default_s)
    cols = st.columns(2)
    with cols[0]:
        raw["price_per_hour_usd"] = float(
            spec_number(
                "Price (USD per hour)",
                "run_price",
                bounds,
                "price_per_hour_usd",
                step=0.1,
                fmt="%.2f",
                help="0 = free or unknown. Used to compute the run's cost.",
            )
        )
    with cols[1]:
        raw["timeout_s"] = float(
            spec_number(
                "Timeout (s)",
                timeout_key,
                bounds,
                "timeout_s",
                step=60.0,
                help="The run is stopped and recorded as timeout past this.",
            )
        )
    return raw


def run_form(demo: bool = False) -> dict[str, Any]:
    """Draw the whole form; returns the request dict (not yet validated)."""
    _init_state()
    acc = hardware.detect_accelerators()
    workload = st.radio("Workload", ("Microbenchmark", "Training"), key="run_workload", horizontal=True)
    if workload == "Microbenchmark":
        raw = micro_form(acc)
    else:
        raw = train_form(lambda: _device_select(acc), len(acc.gpus), demo)
    raw["backend"] = backend_select()
    return common_fields(raw, workload == "Training", demo)
