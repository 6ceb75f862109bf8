"""Demo-mode caps for a public hosted copy: enforced in the engine, so no page can bypass them."""

from __future__ import annotations

from engine.spec import MicroSpec, Spec, SpecError, TrainSpec

DEMO_MAX_MATMUL_DIM = 2048
DEMO_MAX_CONV_ELEMENTS = 16 * 256 * 256 * 64
DEMO_MODELS = ("fashion_cnn", "tiny_cnn", "reuters_conv1d", "flowers_cnn")
DEMO_MAX_STEPS = 200  # epochs × steps_per_epoch
DEMO_MAX_BATCH = 512
DEMO_TIMEOUT_S = 120.0
DEMO_MAX_UPLOAD_MB = 25  # per CSV on the History page; uploads stay in the browser session


def check_one_at_a_time() -> None:
    """Refuse a new run while another is queued or running: a public demo shares one small machine.

    Stale rows (a worker that died) are reconciled first, so a crash cannot block the demo forever.
    Two launches in the same instant can both pass; the worker's own timeout still bounds them.
    """
    from engine import jobs  # jobs imports this module lazily; importing it here avoids a cycle
    from engine.schema import ACTIVE_STATUSES
    from engine.store import Store

    store = Store()
    jobs.refresh(store)
    active = store.list_runs(statuses=ACTIVE_STATUSES, limit=1)
    if active:
        run = active[0]
        raise SpecError(
            "run",
            f"demo mode runs one benchmark at a time and run {run['run_id']} ({run.get('model') or run['kind']}) "
            "is still going; wait for it to finish (it is capped at "
            f"{DEMO_TIMEOUT_S:g} s) and try again",
        )


def check_demo_caps(spec: Spec) -> None:
    """Refuse what a public demo must not run (SpecError names the field and the cap), and refuse
    any run while another is active (one at a time)."""
    if spec.timeout_s > DEMO_TIMEOUT_S:
        raise SpecError("--timeout-s", f"demo mode allows at most {DEMO_TIMEOUT_S:g} s")
    if isinstance(spec, MicroSpec):
        if spec.bench == "matmul":
            big = max(spec.m, spec.n, spec.k)
            if big > DEMO_MAX_MATMUL_DIM:
                raise SpecError("--m/--n/--k", f"demo mode allows sizes up to {DEMO_MAX_MATMUL_DIM}, got {big}")
        elif spec.batch_size * spec.height * spec.width * max(spec.channels, spec.filters) > DEMO_MAX_CONV_ELEMENTS:
            raise SpecError("--batch-size", f"demo mode allows conv tensors up to {DEMO_MAX_CONV_ELEMENTS:,} elements")
        if spec.repeats > 50:
            raise SpecError("--repeats", "demo mode allows at most 50 repeats")
    elif isinstance(spec, TrainSpec):
        if spec.model not in DEMO_MODELS:
            raise SpecError("--model", f"demo mode allows {', '.join(DEMO_MODELS)}; got {spec.model}")
        if spec.epochs * spec.steps_per_epoch > DEMO_MAX_STEPS:
            raise SpecError(
                "--steps-per-epoch", f"demo mode allows at most {DEMO_MAX_STEPS} steps in all (epochs × steps)"
            )
        if spec.batch_size > DEMO_MAX_BATCH:
            raise SpecError("--batch-size", f"demo mode allows batches up to {DEMO_MAX_BATCH}")
        if spec.dataset != "synthetic":
            raise SpecError("--dataset", "demo mode runs on synthetic data only")
    check_one_at_a_time()
