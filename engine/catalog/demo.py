"""Demo-mode caps for a public hosted copy: enforced in the engine, so no page can bypass them."""

from __future__ import annotations

from engine.catalog.specs import MicroSpec, Spec, SpecError, TrainSpec

DEMO_MAX_MATMUL_DIM = 2048
DEMO_MAX_CONV_ELEMENTS = 16 * 256 * 256 * 64
DEMO_MODELS = ("fashion_cnn", "tiny_cnn", "reuters_conv1d", "flowers_cnn")
DEMO_MAX_STEPS = 200  # epochs × steps_per_epoch
DEMO_MAX_BATCH = 512
DEMO_TIMEOUT_S = 120.0
DEMO_MAX_UPLOAD_MB = 25  # per CSV on the History page; uploads stay in the browser session
DEMO_MAX_REPEATS = 50
DEMO_MAX_WARMUP = 10
DEMO_MAX_VALIDATION_STEPS = 20
DEMO_MAX_LOGICAL_DEVICES = 4


def check_demo_caps(spec: Spec) -> None:
    """Refuse what a public demo must not run (SpecError names the field and the cap).

    Pure checks on the spec; the one-run-at-a-time rule needs the store and lives in
    engine.runs.jobs.check_one_at_a_time.
    """
    # Nothing that reaches outside the box: a TPU address or name opens gRPC connections to any host
    # (or calls a cloud API with the server's credentials); a data path reads the server's disk or a bucket.
    if spec.device == "tpu":
        raise SpecError("--device", "demo mode runs on this machine's CPU or GPU only, not a TPU")
    if isinstance(spec, TrainSpec):
        if spec.tpu:
            raise SpecError("--tpu", "demo mode does not connect to a TPU; leave the TPU name/address empty")
        if spec.data_dir:
            raise SpecError("--data-dir", "demo mode reads no folders or remote paths (gs://…); use synthetic data")
    if spec.timeout_s > DEMO_TIMEOUT_S:
        raise SpecError("--timeout-s", f"demo mode allows at most {DEMO_TIMEOUT_S:g} s")
    if isinstance(spec, MicroSpec):
        if spec.bench == "matmul":
            big = max(spec.m, spec.n, spec.k)
            if big > DEMO_MAX_MATMUL_DIM:
                raise SpecError("--m/--n/--k", f"demo mode allows sizes up to {DEMO_MAX_MATMUL_DIM}, got {big}")
        elif spec.batch_size * spec.height * spec.width * max(spec.channels, spec.filters) > DEMO_MAX_CONV_ELEMENTS:
            raise SpecError("--batch-size", f"demo mode allows conv tensors up to {DEMO_MAX_CONV_ELEMENTS:,} elements")
        if spec.repeats > DEMO_MAX_REPEATS:
            raise SpecError("--repeats", f"demo mode allows at most {DEMO_MAX_REPEATS} repeats")
        if spec.warmup > DEMO_MAX_WARMUP:
            raise SpecError("--warmup", f"demo mode allows at most {DEMO_MAX_WARMUP} warm-up repeats")
    elif isinstance(spec, TrainSpec):
        if spec.model not in DEMO_MODELS:
            raise SpecError("--model", f"demo mode allows {', '.join(DEMO_MODELS)}; got {spec.model}")
        if spec.epochs * spec.steps_per_epoch > DEMO_MAX_STEPS:
            raise SpecError(
                "--steps-per-epoch", f"demo mode allows at most {DEMO_MAX_STEPS} steps in all (epochs × steps)"
            )
        if spec.batch_size > DEMO_MAX_BATCH:
            raise SpecError("--batch-size", f"demo mode allows batches up to {DEMO_MAX_BATCH}")
        if spec.validation_steps > DEMO_MAX_VALIDATION_STEPS:
            raise SpecError(
                "--validation-steps", f"demo mode allows at most {DEMO_MAX_VALIDATION_STEPS} validation steps"
            )
        if spec.logical_devices > DEMO_MAX_LOGICAL_DEVICES:
            raise SpecError("--logical-devices", f"demo mode allows at most {DEMO_MAX_LOGICAL_DEVICES} logical devices")
        if spec.dataset != "synthetic":
            raise SpecError("--dataset", "demo mode runs on synthetic data only")
