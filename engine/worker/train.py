"""Timed training runs: `run_training(spec, report) -> dict` of result columns (worker only).

How the clock is read (design §4):
  * One `model.fit` call does the whole run, so what is timed is what a Keras user runs. Keras 3's
    `steps_per_execution` is left at 1, so each train-step call is one batch and the batch callbacks
    bracket exactly one step.
  * `StepClock` (a Keras callback) reads `time.perf_counter()` in on_train_batch_begin and
    on_train_batch_end, calling `tfenv.sync()` first at both edges: GPU/TPU work is asynchronous and a
    clock read before the device finishes would time the dispatch, not the step. Because the callback
    overrides on_train_batch_end, Keras also runs it synchronously and converts the step's logs to
    Python numbers — a read-back of the step's loss, so on every device the step has finished.
  * time_to_first_step_s: from the `fit` call to the end of the first step — iterator set-up,
    tracing, (XLA) compilation and one step. first_epoch_s: from the `fit` call to the end of epoch 1's
    last training step. Both are reported apart and never enter the steady-state figures.
  * Steady state = every step of epochs 2…E; with one epoch, the steps after the first ⌈S/10⌉ (at least
    one) warm-up steps. examples_per_sec = steady steps × global batch / steady wall time, where the wall
    time of each epoch runs from the start of its first steady step to the end of its last step — input
    waits and callback overhead between steps count, validation and epoch boundaries do not.
    step_time_ms_median/p10/p90 are percentiles of the steady steps' begin→end times.
  * gflops = counted training FLOPs per example (engine.worker.flops: 3 × forward) × examples_per_sec.
"""

from __future__ import annotations

import os
import time

import keras
import tensorflow as tf

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.catalog.specs import TrainSpec
from engine.results.backend_text import FLOOR_NOTE
from engine.runs import hardware
from engine.runs.progress import Reporter
from engine.worker import flops, framework_flops, input_probe, keras_fit, model_facts, tfenv, transformers, user_model
from engine.worker.datasets import DataPipeline, make_dataset
from engine.worker.flowers_tf import files_named
from engine.worker.keras_fit import compile_model  # noqa: F401  (tests and callers import it from here)
from engine.worker.launch.ranks import keep_weights
from engine.worker.model_facts import model_columns
from engine.worker.models import build_model
from engine.worker.stats import summarize_ms
from engine.worker.strategies import ResolvedStrategy, make_strategy

SEED = 0  # weights, dropout and shuffling are seeded so two runs of one spec train the same way


class StepClock(keras_fit.StepClock):
    """The per-step clock, synchronising TensorFlow's devices at both edges of every step."""

    sync = staticmethod(tfenv.sync)


def _variable_devices(model: keras.Model) -> set[str]:
    """Every device holding a copy of a trainable variable (each replica's copy under a strategy)."""
    found: set[str] = set()
    for v in model.trainable_variables:
        tf_var = getattr(v, "value", v)
        for part in getattr(tf_var, "values", None) or (tf_var,):
            if getattr(part, "device", ""):
                found.add(part.device)
    return found


def _op_devices(resolved: ResolvedStrategy) -> set[str]:
    """Where the strategy really runs a computation: a small matmul on every replica."""
    strategy = resolved.strategy

    def probe():
        x = tf.ones((8, 8))
        return tf.matmul(x, x)

    out = tf.function(lambda: strategy.run(probe))()  # inside a tf.function, as TPUStrategy requires
    return {t.device for t in strategy.experimental_local_results(out) if t.device}


def _peak_gflops(spec: TrainSpec, resolved: ResolvedStrategy) -> float | None:
    dtype = tfenv.peak_dtype(spec.precision.replace("mixed_", ""), spec.device, "train")
    peak = tfenv.peak_gflops(spec.device, dtype)
    return peak * resolved.physical_devices if peak else None


def _user_pipeline(user: user_model.UserModel, spec: TrainSpec) -> DataPipeline:
    x, y = user_model.batch_for(user, spec, SEED)
    train = tf.data.Dataset.from_tensors((x, y)).repeat()
    val = tf.data.Dataset.from_tensors((x, y)).repeat() if spec.validation_steps else None
    info = user_model.dataset_info(user, spec)
    return DataPipeline(train, val, info, info.description, spec.batch_size)


def run_training(spec: TrainSpec, report: Reporter) -> dict:
    """Run `spec` honestly timed (see the module doc) and return its result columns: configure the strategy,
    build the data and model, train under the step clock, then measure what ran."""
    t_start = time.perf_counter()
    report.phase("configuring", device=spec.device, strategy=spec.strategy)
    resolved = make_strategy(spec)  # first TF work: device settings apply only before TF initialises
    report.message(
        text=f"strategy {resolved.name} with {resolved.replicas} replica(s) on {', '.join(resolved.devices)}"
    )
    keras.utils.set_random_seed(SEED)
    model, data, user = _build(spec, resolved, report)
    train_flops: float = flops.train_flops(model)
    report.phase("training", epochs=spec.epochs, steps_per_epoch=spec.steps_per_epoch)
    clock = StepClock(report, spec.batch_size, spec.steps_per_epoch, spec.epochs, time.perf_counter())
    with files_named(spec.data_dir if spec.dataset == "flowers" else ""):  # the bad file, not a graph error
        _fit(spec, resolved, model, data, clock)
        tfenv.sync()
        row = _measured(spec, resolved, model, data, clock, train_flops)
        row |= _input_columns(spec, resolved, model, data, row)
    row["notes"] += "; " + row.pop("_note") if "_note" in row else ""
    flops_source = row.pop("flops_source")
    keep_weights(report.path.parent if report.path else None, dict(enumerate(model.get_weights())))  # tests only
    report.phase("measured")
    facts = user_model.facts(user)
    return {
        "model": user.name if user else spec.model,
        **row,
        **model_columns(spec.model, spec.dataset, row["examples_per_sec"], flops_source, **facts),
        "total_s": time.perf_counter() - t_start,
    }


def _input_columns(spec: TrainSpec, resolved: ResolvedStrategy, model, data: DataPipeline, row: dict) -> dict:
    """The pipeline beside the step (engine.worker.input_probe), through Keras's train_on_batch on the run's
    first device; not measured across workers (multi_worker has no single-process step to time)."""
    if spec.dataset == catalog.SYNTHETIC or spec.user_model:
        return input_probe.synthetic_columns(row["examples_per_sec"], row.get("step_time_ms_median"), spec.batch_size)
    if resolved.name == "multi_worker":
        return {}
    device = resolved.devices[0]

    def to_device(batch):
        with tf.device(device):
            return tuple(tf.identity(t) for t in batch)

    hooks = input_probe.Hooks(to_device, lambda b: model.train_on_batch(*b), tfenv.sync, lambda: iter(data.train))
    input_eps, step_eps, wait = input_probe.measure(iter(data.train), hooks, spec.batch_size)
    settings = InputSettings.of(spec) if spec.dataset == "flowers" else InputSettings(cache=True)  # arrays: in memory
    return input_probe.columns(row["examples_per_sec"], input_eps, step_eps, wait, settings)


def _build(spec: TrainSpec, resolved, report: Reporter) -> tuple:
    """(model, data, user model or None): the input pipeline and the compiled model under the strategy's scope."""
    report.phase("loading data", dataset=spec.dataset)
    user = None
    if spec.user_model:  # the user's own model: its own input specs shape the data
        with resolved.strategy.scope():
            user = user_model.load(spec)
            model = user.model
            report.phase("compiling", xla=spec.xla, precision=spec.precision)
            user_model.compile_user(model, spec, spec.xla)
        data = _user_pipeline(user, spec)
    else:
        data = make_dataset(
            spec.dataset,
            spec.model,
            spec.batch_size,
            validation=spec.validation_steps > 0,
            data_dir=spec.data_dir,
            seed=SEED,
            settings=InputSettings.of(spec),
        )
    info = data.info
    report.phase("building", model=spec.model, input_shape=list(info.input_shape), classes=info.num_classes)
    if user is None:
        with resolved.strategy.scope():
            model = build_model(spec.model, info.input_shape, info.num_classes, precision=spec.precision)
            report.phase("compiling", xla=spec.xla, precision=spec.precision)
            compile_model(model, spec.model, spec.xla, info.num_classes)
    return model, data, user


def _fit(spec: TrainSpec, resolved, model, data, clock: StepClock) -> None:
    """Train under the step clock: Keras's fit, or TF's own loop under MultiWorkerMirroredStrategy."""
    if resolved.name == "multi_worker":
        # Keras 3's fit cannot cross workers (keras-team/keras#20585): TF's own loop, same clock (engine.worker.loop)
        from engine.worker.loop import fit_distributed

        fit_distributed(
            model,
            resolved.strategy,
            data.train,
            data.validation,
            global_batch=spec.batch_size,
            epochs=spec.epochs,
            steps_per_epoch=spec.steps_per_epoch,
            validation_steps=spec.validation_steps,
            xla=spec.xla,
            clock=clock,
        )
        return
    model.fit(
        data.train,
        epochs=spec.epochs,
        steps_per_epoch=spec.steps_per_epoch,
        validation_data=data.validation,
        validation_steps=spec.validation_steps or None,
        callbacks=[clock],
        shuffle=False,  # the pipelines shuffle (or are one synthetic batch); Keras's flag would only warn
        verbose=0,
    )


def _measured(spec: TrainSpec, resolved, model, data, clock: StepClock, train_flops: float) -> dict:
    """What ran where and how fast: placement checked, the FLOP count, the steady state, MFU and the run's columns
    (with `flops_source` for model_columns)."""
    used = sorted(_variable_devices(model) | _op_devices(resolved))
    tfenv.check_placement(spec.device, used)  # asked for GPU/TPU but ran on the CPU → PlacementError
    flops_source = f"{model_facts.COUNTED_BY_LAYER}; TensorFlow profiler: not run across workers"
    if resolved.name != "multi_worker":  # the profiler traces one step on this process's devices
        batch = next(iter(data.train))
        train_flops, flops_source = framework_flops.which_count(model, "tensorflow", batch, train_flops)
    steady_times, steady_wall_s, steady_what = clock.steady()
    examples_per_sec = len(steady_times) * spec.batch_size / steady_wall_s if steady_wall_s > 0 else None
    gflops = train_flops * examples_per_sec / 1e9 if examples_per_sec else None
    peak = _peak_gflops(spec, resolved)
    last = clock.epoch_logs[-1] if clock.epoch_logs else {}
    notes = [f"data: {data.source}", f"steady state: {steady_what} ({len(steady_times)} steps)"]
    notes += _notes(spec, model, clock, train_flops, examples_per_sec)
    return {
        "dataset": spec.dataset,
        "strategy": resolved.name,
        "replicas": resolved.replicas,
        "global_batch_size": spec.batch_size,
        "per_replica_batch_size": spec.batch_size // resolved.replicas,
        "epochs": spec.epochs,
        "steps_per_epoch": spec.steps_per_epoch,
        "params": int(model.count_params()),
        "xla": bool(model.jit_compile),
        "time_to_first_step_s": clock.time_to_first_step_s,
        "first_epoch_s": clock.first_epoch_s,
        **(summarize_ms(steady_times) if steady_times else {}),
        "examples_per_sec": examples_per_sec,
        "gflops": gflops,
        "flops_source": flops_source,
        "peak_gflops": peak,
        "mfu_pct": 100.0 * gflops / peak if gflops and peak else None,  # as on the JAX/PyTorch path
        "final_loss": last.get("loss"),
        "final_accuracy": last.get("accuracy"),
        "val_accuracy": last.get("val_accuracy"),
        "peak_host_memory_mb": tfenv.peak_host_memory_mb(),
        "peak_device_memory_mb": tfenv.peak_device_memory_mb(spec.device),
        "devices_used": ",".join(used),
        "notes": "; ".join(notes),
    }


def _notes(spec: TrainSpec, model, clock: StepClock, train_flops: float, examples_per_sec: float | None) -> list[str]:
    """The row's notes after data and steady state: the FLOP count, CPU use, what Keras changed, what data means."""
    notes = [f"counted {train_flops / flops.TRAIN_FLOPS_PER_FORWARD / 1e6:,.1f} MFLOP/example forward, ×3 for training"]
    wall, cpu = (
        (clock.epoch_wall_s[1:], clock.epoch_cpu_s[1:]) if spec.epochs > 1 else (clock.epoch_wall_s, clock.epoch_cpu_s)
    )
    if sum(wall) > 0:
        # far below the core count on a CPU run means other load on the host (or input waits) slowed it
        notes.append(
            f"process CPU time / wall time {sum(cpu) / sum(wall):.2f} (host: {len(os.sched_getaffinity(0))} cores)"
        )
    if spec.xla and not model.jit_compile:
        notes.append("XLA was requested but Keras turned it off (a layer does not support jit_compile)")
    if spec.dataset == catalog.SYNTHETIC:
        notes.append("synthetic data: accuracy measures memorisation of one batch, not learning")
    notes += transformers.run_notes(spec.model, spec.dataset, examples_per_sec)
    host_cpu = hardware.cpu_info()
    if spec.device == "cpu" and host_cpu.peak_is_floor:  # the same words as the JAX/PyTorch path
        notes.append(f"{FLOOR_NOTE} ({host_cpu.clock_basis}, {host_cpu.clock_ghz:g} GHz), so MFU is an upper bound")
    if tfenv.peak_dtype(spec.precision, spec.device, "train") == "tf32":  # the same words as the JAX/PyTorch path
        notes.append("peak and MFU taken for TF32 (what tensorflow uses by default for float32 on this GPU)")
    return notes
