"""The Run page's "Check and launch" box: the request is validated once per script run, and Launch
starts exactly the spec that was shown as ready (no second validation between the check and the click).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.catalog.estimate import Estimate, estimate
from engine.catalog.memory import fmt_bytes
from engine.catalog.micro_presets import op_flops
from engine.catalog.specs import MicroSpec, Spec, SpecError
from engine.results.status import RunStatus
from engine.runs import hardware, jobs
from engine.runs.store import Store
from ui.common import demo_mode, fmt_seconds, own_run
from ui.run_form import plain_error

_SHAPE_FIELDS = ("m", "n", "k", "batch_size", "height", "width", "channels", "filters", "kernel_size")


def check(raw: dict[str, Any], demo: bool) -> tuple[Spec | None, str | None]:
    """(the validated spec, None) or (None, what is wrong in plain words)."""
    try:
        return jobs.prepare(raw, demo=demo), None
    except SpecError as exc:
        return None, plain_error(exc)


def ready_text(spec: Spec) -> str:
    """One line saying what Launch will run."""
    if isinstance(spec, MicroSpec):
        gflop = op_flops(spec.bench, **{k: getattr(spec, k) for k in _SHAPE_FIELDS}) / 1e9
        return (
            f"Ready: **{spec.bench}** {jobs.micro_shape(spec)} in {spec.dtype} on **{spec.device.upper()}** — "
            f"{gflop:,.2f} GFLOP per repeat, {spec.warmup} warm-up + {spec.repeats} timed repeats."
        )
    return (
        f"Ready: **{spec.model or 'your model'}** on {spec.dataset}, global batch {spec.batch_size}, {spec.epochs} epoch(s) × "
        f"{spec.steps_per_epoch} steps on **{spec.device.upper()}** ({spec.precision})."
    )


def _peak_gflops(spec: Spec) -> float | None:
    dtype = spec.dtype if isinstance(spec, MicroSpec) else "float32"
    if spec.device == "cpu":
        return hardware.cpu_peak_gflops(dtype)
    gpus = hardware.detect_accelerators().gpus
    if spec.device == "gpu" and gpus:
        return hardware.accelerator_peak_gflops(gpus[0].name, dtype)
    return None


def ready_estimate(spec: Spec, db: Store) -> Estimate:
    """The duration and memory estimate from this host's recent finished runs (engine.catalog.estimate)."""
    return estimate(spec, db.list_runs(statuses=[RunStatus.OK], limit=200), _peak_gflops(spec))


def ready_box(spec: Spec, db: Store) -> None:
    """The green "Ready" box with the estimate, and a warning when the run cannot finish before its timeout
    (one that cannot fit in memory is refused by jobs.prepare, so it never reaches this box)."""
    est = ready_estimate(spec, db)
    parts = []
    if est.seconds is not None:
        parts.append(f"about **{fmt_seconds(est.seconds)}**")
    parts.append(f"**{fmt_bytes(est.memory_bytes)}** of host memory")
    line = f"Estimate: {' and '.join(parts)} ({est.basis})." if parts else f"No estimate: {est.basis}."
    st.success(f"{ready_text(spec)}\n\n{line}", icon=":material/check:")
    if est.over_timeout and est.seconds is not None:
        st.warning(
            f"**Longer than the timeout.** The estimate ({fmt_seconds(est.seconds)}) is past the "
            f"{fmt_seconds(spec.timeout_s)} timeout, so the run would be stopped before it finishes: "
            "make the work smaller or raise the timeout.",
            icon=":material/timer_off:",
        )


def launch(spec: Spec, db: Store) -> tuple[str | None, str | None]:
    """(run_id, None) once the worker has started, or (None, why it could not start)."""
    try:
        run_id = jobs.launch(spec, db, demo=demo_mode())
    except SpecError as exc:  # demo mode: another run got in first (checked and inserted in one transaction)
        return None, plain_error(exc)
    except OSError as exc:
        return None, f"The worker could not be started: {exc}"
    own_run(run_id)
    return run_id, None
