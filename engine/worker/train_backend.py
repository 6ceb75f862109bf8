"""Timed training under JAX or PyTorch (worker only): the same models, data and split as TensorFlow's.

How the clock is read (design §4, engine.worker.window_clock):
  * examples_per_sec = examples_per_sec_windowed: steady-state steps × global batch ÷ the time of
    windows of several steps, with a device sync only at window edges.
  * A separate short fit afterwards syncs at both edges of every step (engine.worker.keras_fit.StepClock):
    its steps give step_time_ms_median/p10/p90 and examples_per_sec_step_synced; sync_overhead_pct is
    how much faster the windowed figure is.
  * examples_per_sec_epoch: a wall clock around whole steady epochs (boundaries and validation
    included, what a clock around `fit` sees); a note flags it when more than 10 % below steady state.
  * mfu_pct = achieved FLOP/s ÷ the dense peak for the run's precision (none for an unknown device); a
    CPU peak from a base clock is a floor, which the notes say (engine.runs.hardware.CpuInfo.peak_is_floor).
"""

from __future__ import annotations

import time
from types import ModuleType

from engine.catalog.backends import KERAS_BACKEND_OF
from engine.catalog.input_spec import InputSettings
from engine.catalog.specs import TrainSpec
from engine.results.backend_text import FLOOR_NOTE
from engine.runs import hardware
from engine.runs.progress import Reporter
from engine.worker import flops, framework_flops, input_probe, transformers, user_model
from engine.worker.arrays import ArrayPipeline, make_arrays, repeat_one
from engine.worker.backend_strategy import BackendStrategy, apply_strategy, check_placement
from engine.worker.keras_fit import StepClock, compile_model
from engine.worker.micro_backend import peak_gflops
from engine.worker.model_facts import model_columns
from engine.worker.models import build_model
from engine.worker.seeding import set_seed
from engine.worker.stats import summarize_ms
from engine.worker.window_clock import WindowClock
from engine.worker.window_timer import throughputs, window_size

SEED = 0
STEP_SYNCED_STEPS = 12  # the separate per-step window: its first step is dropped, the rest give the spread


def _fit_windowed(model, data, spec: TrainSpec, ops: ModuleType, report: Reporter) -> WindowClock:
    clock = WindowClock(
        lambda: ops.sync_model(model),
        window_size(spec.steps_per_epoch),
        spec.steps_per_epoch,
        report,
        0,
        global_batch=spec.batch_size,
    )
    clock.t_fit = time.perf_counter()
    model.fit(
        data.train,
        epochs=spec.epochs,
        steps_per_epoch=spec.steps_per_epoch,
        validation_data=data.validation,
        validation_steps=spec.validation_steps or None,
        callbacks=[clock],
        verbose=0,
    )
    ops.sync_model(model)
    return clock


def _fit_step_synced(model, data, spec: TrainSpec, ops: ModuleType, report: Reporter) -> list[float]:
    steps = min(STEP_SYNCED_STEPS, max(2, spec.steps_per_epoch))
    clock = StepClock(Reporter(None), spec.batch_size, steps, 1, time.perf_counter())
    clock.sync = lambda: ops.sync_model(model)
    model.fit(data.train, epochs=1, steps_per_epoch=steps, callbacks=[clock], verbose=0)
    return clock.step_s[0][1:]


def _notes(spec, data, rates: dict, train_flops: float, resolved: BackendStrategy, ops) -> str:
    notes = [f"data: {data.source}", rates.pop("_what"), f"{ops.version()}; strategy {resolved.name}"]
    notes.append(
        f"counted {train_flops / flops.TRAIN_FLOPS_PER_FORWARD / 1e6:,.1f} MFLOP/example forward, ×3 for training"
    )
    w, e = rates["examples_per_sec_windowed"], rates["examples_per_sec_epoch"]
    if w and e and e < 0.9 * w:
        first = " (the only epoch: compile included)" if spec.epochs == 1 else ""
        notes.append(
            f"end-to-end epoch throughput {e:,.1f} ex/s is {100 * (1 - e / w):.0f} % below steady state{first}"
        )
    if rates["sync_overhead_pct"] is not None:
        notes.append(f"syncing every step costs {rates['sync_overhead_pct']:.1f} % (windowed vs step-synced)")
    cpu = hardware.cpu_info()
    if spec.device == "cpu" and cpu.peak_is_floor:
        notes.append(f"{FLOOR_NOTE} ({cpu.clock_basis}, {cpu.clock_ghz:g} GHz), so MFU is an upper bound")
    if spec.dataset == "synthetic":
        notes.append("synthetic data: accuracy measures memorisation of one batch, not learning")
    notes += transformers.run_notes(spec.model, spec.dataset, rates["examples_per_sec"])
    return "; ".join(notes)


def _result(
    spec: TrainSpec, ops: ModuleType, model, resolved: BackendStrategy, data, clock, step_synced, train_flops, user=None
):
    """The run's result columns from its clocks (see the module doc)."""
    rates = throughputs(clock, spec.epochs, spec.steps_per_epoch, spec.batch_size, step_synced)
    notes = _notes(spec, data, rates, train_flops, resolved, ops)  # takes the steady-state description out of rates
    dtype = ops.peak_dtype(spec.precision.replace("mixed_", ""), spec.device, "train")
    if dtype == "tf32":
        notes += f"; peak and MFU taken for TF32 (what {spec.backend} uses by default for float32 on this GPU)"
    peak = peak_gflops(ops, spec.device, dtype)
    peak = peak * resolved.physical_devices if peak else None
    gflops = train_flops * rates["examples_per_sec"] / 1e9 if rates["examples_per_sec"] else None
    last = clock.epoch_logs[-1] if clock.epoch_logs else {}
    return {
        "model": user.name if user else spec.model,
        "dataset": spec.dataset,
        "strategy": resolved.name,
        "replicas": resolved.replicas,
        "global_batch_size": spec.batch_size,
        "per_replica_batch_size": spec.batch_size // resolved.replicas,
        "epochs": spec.epochs,
        "steps_per_epoch": spec.steps_per_epoch,
        "params": int(model.count_params()),
        "xla": spec.backend == "jax" or bool(spec.xla),
        "time_to_first_step_s": clock.time_to_first_step_s,
        "first_epoch_s": clock.epoch_wall_s[0] if clock.epoch_wall_s else None,
        **(summarize_ms(step_synced) if step_synced else {}),
        "notes": notes,
        **rates,
        "gflops": gflops,
        "peak_gflops": peak,
        "mfu_pct": 100.0 * gflops / peak if gflops and peak else None,
        **model_columns(spec.model, spec.dataset, rates["examples_per_sec"], **user_model.facts(user)),
        "final_loss": last.get("loss"),
        "final_accuracy": last.get("accuracy"),
        "val_accuracy": last.get("val_accuracy"),
        "peak_device_memory_mb": ops.peak_device_memory_mb(spec.device),
    }


def _input_columns(spec: TrainSpec, model, data, ops: ModuleType, rank, row: dict) -> dict:
    """The pipeline beside the step (engine.worker.input_probe), through Keras's train_on_batch; not measured on
    a rank of a multi-process run."""
    if spec.dataset == "synthetic" or spec.user_model:
        return input_probe.synthetic_columns(row["examples_per_sec"], row.get("step_time_ms_median"), spec.batch_size)
    if rank is not None:
        return {}
    import keras

    def to_device(batch):
        out = tuple(keras.ops.convert_to_tensor(a) for a in batch)
        for t in out:
            ops.finish(t)
        return out

    def fresh():
        settings = InputSettings.of(spec)
        return make_arrays(spec.dataset, spec.model, spec.batch_size, data_dir=spec.data_dir, settings=settings).train

    def sync() -> None:
        ops.sync_model(model)

    hooks = input_probe.Hooks(to_device, lambda b: model.train_on_batch(*b), sync, fresh)
    input_eps, step_eps, wait = input_probe.measure(data.train, hooks, spec.batch_size)
    settings = InputSettings.of(spec) if spec.dataset == "flowers" else InputSettings(cache=True)  # arrays: in memory
    return input_probe.columns(row["examples_per_sec"], input_eps, step_eps, wait, settings)


def run_training_backend(spec: TrainSpec, report: Reporter, ops: ModuleType, rank=None) -> dict:
    """The run; `rank` (engine.worker.launch.ranks.Rank): one JAX rank of a multi-process run."""
    t_start = time.perf_counter()
    report.phase("configuring", device=spec.device, strategy=spec.strategy, backend=spec.backend)
    from engine.worker.launch import jax_dp

    resolved = apply_strategy(spec, ops) if rank is None else jax_dp.apply(spec.device, rank)
    report.event(
        "message",
        text=f"{spec.backend}: {resolved.name} with {resolved.replicas} replica(s) on {', '.join(resolved.devices)}",
    )
    set_seed(SEED)  # keras.utils.set_random_seed would import TensorFlow where it is installed
    report.phase("loading data", dataset=spec.dataset)
    xla = spec.xla if spec.backend == "keras-torch" else "auto"
    user = user_model.load(spec) if spec.user_model else None
    if user is not None:  # the user's own model: its own input specs shape the data
        model = user.model
        x, y = user_model.batch_for(user, spec, SEED)
        info = user_model.dataset_info(user, spec)
        val = repeat_one((x, y)) if spec.validation_steps else None
        data = ArrayPipeline(repeat_one((x, y)), val, info, info.description, spec.batch_size)
        user_model.compile_user(model, spec, xla)
    else:
        data = make_arrays(
            spec.dataset,
            spec.model,
            spec.batch_size,
            validation=spec.validation_steps > 0,
            data_dir=spec.data_dir,
            seed=SEED,
            settings=InputSettings.of(spec),
        )
        data = data if rank is None else jax_dp.sharded(data, rank)
        report.phase(
            "building", model=spec.model, input_shape=list(data.info.input_shape), classes=data.info.num_classes
        )
        model = build_model(spec.model, data.info.input_shape, data.info.num_classes, precision=spec.precision)
        compile_model(model, spec.model, xla, data.info.num_classes)
    train_flops: float = flops.train_flops(model)
    report.phase("training", epochs=spec.epochs, steps_per_epoch=spec.steps_per_epoch)
    clock = _fit_windowed(model, data, spec, ops, report)
    step_synced = _fit_step_synced(model, data, spec, ops, report)
    used = ops.variable_devices(model)
    keras_backend = KERAS_BACKEND_OF[spec.backend]
    train_flops, flops_source = framework_flops.which_count(model, keras_backend, next(data.train), train_flops)
    row = _result(spec, ops, model, resolved, data, clock, step_synced, train_flops, user)
    row["flops_source"] = flops_source
    row |= _input_columns(spec, model, data, ops, rank, row)
    row["notes"] += "; " + row.pop("_note") if "_note" in row else ""
    check_placement(spec, ops, resolved, used)
    if spec.backend == "jax" and (rank is None or rank.rank == 0):  # a small model's final weights, for tests
        jax_dp.keep(report.path.parent if report.path else None, model)
    report.phase("measured")
    return {**row, "devices_used": ",".join(sorted(used)), "total_s": time.perf_counter() - t_start}
