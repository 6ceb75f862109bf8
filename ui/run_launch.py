"""The Run page's "Check and launch" box: the request is validated once per script run, and Launch
starts exactly the spec that was shown as ready (no second validation between the check and the click).
"""

from __future__ import annotations

from typing import Any

from engine.runs import jobs
from engine.runs.store import Store
from engine.spec.micro_presets import op_flops
from engine.spec.specs import MicroSpec, Spec, SpecError
from ui.common import demo_mode, own_run
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
        f"Ready: **{spec.model}** on {spec.dataset}, global batch {spec.batch_size}, {spec.epochs} epoch(s) × "
        f"{spec.steps_per_epoch} steps on **{spec.device.upper()}** ({spec.precision})."
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
