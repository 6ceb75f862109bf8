"""Devices: what this machine has (CPU and its peak, GPUs, a TPU), what TensorFlow itself sees
(asked in a separate process), and the GPU settings from article 002 that the next runs will use.

Nothing here imports TensorFlow; the hardware facts come from /proc, NVML and environment variables.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # standalone runs put pages/ on the path, not the repo root
    sys.path.insert(0, str(ROOT))

from ui.frame import ensure_frame

ensure_frame(__file__)  # a deep link to a fresh server is routed through app.py (menu, wide layout)

from engine.runs import hardware
from engine.runs.tfprobe import PROBE_TIMEOUT_S, probe_tensorflow
from ui.common import demo_banner, fmt_num, page_link, plain, show_table

# Devices-page widget → the session key the Run page reads as its default.
SHARED = {
    "dev_visible_devices": "gpu_visible_devices",
    "dev_memory_growth": "gpu_memory_growth",
    "dev_memory_limit_mb": "gpu_memory_limit_mb",
    "dev_logical_devices": "logical_devices",
}
DEFAULTS = {"gpu_visible_devices": "", "gpu_memory_growth": False, "gpu_memory_limit_mb": 0, "logical_devices": 1}


@st.cache_data(ttl=600, max_entries=1, show_spinner=False)
def _probe() -> dict:
    """One TensorFlow start per 10 minutes at most, shared by every visitor (it takes seconds and memory)."""
    return probe_tensorflow()


def _copy_to_shared(widget_key: str) -> None:
    value = st.session_state[widget_key]
    if widget_key == "dev_visible_devices":
        value = ",".join(str(v) for v in value)
    st.session_state[SHARED[widget_key]] = value


st.title("Devices")
st.caption("What this machine has, found without starting TensorFlow — and the device settings your next runs use.")
demo_banner()

cpu = hardware.cpu_info()
acc = hardware.detect_accelerators()

st.subheader("CPU")
with st.container(border=True):
    # The model name gets a line of its own: a brand string never fits a quarter-width metric at 1366 px.
    st.markdown(f"**{plain(cpu.name or 'Unknown CPU')}**")
    c = st.columns(4)
    c[0].metric("Cores available", f"{cpu.cores}")
    c[1].metric("Clock (GHz)", fmt_num(cpu.clock_ghz, 2) if cpu.clock_ghz else "unknown", help=cpu.clock_basis or None)
    c[2].metric(
        "Peak, float32 (GFLOP/s)",
        fmt_num(cpu.peak_gflops_fp32, 1),
        delta="a floor (base clock)" if cpu.peak_is_floor else None,
        delta_color="off",
        delta_arrow="off",
    )
    c[3].metric("Memory (GB)", fmt_num(cpu.memory_gb, 1))
    st.markdown("**Vector extensions:** " + (" ".join(f"`{v}`" for v in cpu.vector_extensions) or "none reported"))
    st.caption(
        f"Peak = {cpu.cores} cores × {cpu.clock_ghz:g} GHz × {cpu.flops_per_cycle_fp32} FLOPs per cycle per core "
        "(vector width × 2 for fused multiply-add × FMA units). A run's *achieved* GFLOP/s is shown as a share "
        "of this. "
        + (
            f"The clock is the {cpu.clock_basis}, not the highest the cores reach: turbo runs above it, so this "
            "peak is a floor and a run's share of it an upper bound, shown as “≤ N %”."
            if cpu.peak_is_floor
            else "The clock is the highest the cores report (cpufreq maximum), so no run should pass 100 %."
        )
    )

st.subheader("GPUs")
if acc.gpus:
    show_table(
        pd.DataFrame(
            [{"index": g.index, "name": g.name, "memory_mb": g.memory_mb, "driver": g.driver_version} for g in acc.gpus]
        ),
        hide_index=True,
        key="dev_gpu_table",
        column_config={
            "index": st.column_config.NumberColumn("Index", format="%d"),
            "name": "Name",
            "memory_mb": st.column_config.NumberColumn("Memory (MB)", format="%,.0f"),
            "driver": "Driver",
        },
    )
else:
    why = f" ({'; '.join(acc.notes)})" if acc.notes else ""
    st.info(f"No GPU found on this machine{why}. Runs here use the CPU.", icon=":material/memory:")

st.subheader("TPU")
if acc.tpu:
    st.success(f"TPU attached: `{acc.tpu}`", icon=":material/check_circle:")
else:
    st.caption(
        "No TPU attached: no `TPU_NAME` or `COLAB_TPU_ADDR`, and no TPU VM device files (`/dev/accel*`). "
        "On Colab, pick a TPU runtime; on Cloud, give the TPU's name on the Run page."
    )

st.subheader("What TensorFlow sees")
st.caption(
    "Starts TensorFlow in a separate process (the dashboard itself never loads it) and lists its devices. "
    f"Takes 5–30 s; gives up after {PROBE_TIMEOUT_S:g} s; the answer is kept for 10 minutes."
)
cols = st.columns([1, 1, 4])
if cols[0].button("Ask TensorFlow", key="dev_probe", icon=":material/search:"):
    st.session_state["dev_probed"] = True
if cols[1].button("Ask again", key="dev_probe_again", disabled=not st.session_state.get("dev_probed")):
    _probe.clear()
if st.session_state.get("dev_probed"):
    with st.spinner("Starting TensorFlow in a separate process…"):
        result = _probe()
    if result["ok"]:
        st.success(
            f"TensorFlow {result['version']} sees {len(result['devices'])} device(s): "
            + ", ".join(f"`{d}`" for d in result["devices"])
            + f" (answered in {result['seconds']:.1f} s).",
            icon=":material/check_circle:",
        )
        if acc.gpus and not any("GPU" in d for d in result["devices"]):
            st.warning(
                "NVML lists a GPU but TensorFlow does not see it: the CUDA libraries TensorFlow needs are missing "
                "or do not match the driver. Runs on `gpu` will be refused until TensorFlow sees it."
            )
    else:
        st.error(f"Could not ask TensorFlow: {result['error']}", icon=":material/error:")

st.subheader("GPU settings for the next runs")
st.caption(
    "Article 002's settings. They are applied in each run's own process before TensorFlow starts (they cannot "
    "change afterwards), and the Run page uses them as its defaults."
)
for shared, default in DEFAULTS.items():
    st.session_state.setdefault(shared, default)
for widget, shared in SHARED.items():
    if widget not in st.session_state:
        value = st.session_state[shared]
        if widget == "dev_visible_devices":
            value = [int(v) for v in str(value).split(",") if v.strip().isdigit()]
        st.session_state[widget] = value

no_gpu = not acc.gpus
if no_gpu:
    st.info(
        "This machine has no GPU, so visible devices, memory growth and the memory limit have nothing to act on "
        "and are switched off. The logical split still works: it divides the **CPU** into several logical "
        "devices, which is how MirroredStrategy's multi-device path runs on one machine.",
        icon=":material/info:",
    )
left, right = st.columns(2)
with left:
    st.multiselect(
        "Visible GPUs",
        [g.index for g in acc.gpus],
        key="dev_visible_devices",
        on_change=_copy_to_shared,
        args=("dev_visible_devices",),
        disabled=no_gpu,
        format_func=lambda i: f"GPU {i}: {next(g.name for g in acc.gpus if g.index == i)}",
        help="Which GPUs TensorFlow may use (`tf.config.set_visible_devices`). Empty = all of them.",
    )
    st.toggle(
        "Memory growth",
        key="dev_memory_growth",
        on_change=_copy_to_shared,
        args=("dev_memory_growth",),
        disabled=no_gpu,
        help="Allocate GPU memory as needed instead of grabbing nearly all of it at start "
        "(`tf.config.experimental.set_memory_growth`). Lets several processes share a card.",
    )
with right:
    st.number_input(
        "Memory limit per GPU (MB, 0 = no limit)",
        min_value=0,
        max_value=1_000_000,
        step=512,
        key="dev_memory_limit_mb",
        on_change=_copy_to_shared,
        args=("dev_memory_limit_mb",),
        disabled=no_gpu,
        help="Cap TensorFlow's memory on each GPU (a logical device with `memory_limit`). "
        "Useful to mimic a smaller card or to leave room for another process.",
    )
    st.number_input(
        "Logical devices (split one device into K)",
        min_value=1,
        max_value=8,
        key="dev_logical_devices",
        on_change=_copy_to_shared,
        args=("dev_logical_devices",),
        help="Split one physical GPU — or, here, the CPU — into K logical devices so multi-device code "
        "(MirroredStrategy) can be tried on one machine. K > 1 makes the run use MirroredStrategy with K replicas; "
        "the global batch is divided between them.",
    )

if st.session_state["gpu_memory_growth"] and st.session_state["logical_devices"] > 1:
    st.warning(
        "Memory growth cannot be combined with a logical split (each logical GPU has a fixed memory limit); "
        "the Run page will refuse this pair. Turn one of them off."
    )
summary = [
    f"visible GPUs: **{st.session_state['gpu_visible_devices'] or 'all'}**",
    f"memory growth: **{'on' if st.session_state['gpu_memory_growth'] else 'off'}**",
    f"memory limit: **{st.session_state['gpu_memory_limit_mb'] or 'none'}{' MB' if st.session_state['gpu_memory_limit_mb'] else ''}**",
    f"logical devices: **{st.session_state['logical_devices']}**",
]
st.markdown("Next runs will use " + " · ".join(summary) + ".")
page_link("pages/run.py", "Go to the Run page", icon=":material/play_arrow:")
