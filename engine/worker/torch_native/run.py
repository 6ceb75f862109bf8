"""A native PyTorch training run (`--backend torch`): build, time, check, and the result row — the same
columns and the same steady-state rules as every run (engine.worker.train_backend's doc), read by the same
window timer (engine.worker.window_timer) from a plain loop instead of Keras's fit.

  time_to_first_step_s  from the loop's start to the end of step 1: torch.compile compiles there (lazily),
                        so compile time is reported here and never in steady state.
  examples_per_sec      steady windows (epochs 2…E, or after the warm-up steps of one epoch), synced at edges.
  step_time_ms_*        a separate run of STEP_SYNCED_STEPS steps synced at both edges of each.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import time
from types import ModuleType

import numpy as np
import torch
from torch import nn

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.catalog.specs import TrainSpec
from engine.results.backend_text import FLOOR_NOTE
from engine.runs import hardware
from engine.runs.progress import Reporter
from engine.worker import input_probe
from engine.worker.arrays import ArrayPipeline, make_arrays
from engine.worker.launch import torch_ddp
from engine.worker.launch.ranks import Rank, keep_weights, shard
from engine.worker.micro_backend import peak_gflops
from engine.worker.model_facts import model_columns
from engine.worker.stats import finite_or_none, summarize_ms
from engine.worker.torch_native import attention, check, data, loader, models, step, user_fn
from engine.worker.torch_native.clock import clock_for, sync
from engine.worker.window_timer import WindowTimer, throughputs, window_size

SEED = 0
STEP_SYNCED_STEPS = 12


def _seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _epoch(trainer: step.Trainer, batches, val, spec: TrainSpec, timer: WindowTimer, epoch: int, rank: Rank | None):
    timer.on_epoch_begin(epoch)
    loss_sum = torch.zeros((), device=trainer.device)
    correct = torch.zeros((), device=trainer.device)
    for b in range(spec.steps_per_epoch):
        timer.on_train_batch_begin(b)
        loss, right = trainer.step(*next(batches))
        loss_sum += loss  # summed on the device: no host sync inside a window
        correct += right
    logs = {}
    if val is not None:
        timer.on_test_begin()  # validation is not training time
        logs["val_accuracy"] = _evaluate(trainer, val, spec)
    loss_total, hit_total, _ = torch_ddp.epoch_totals(loss_sum, correct, rank)  # every rank's, on a rank
    seen = spec.steps_per_epoch * spec.batch_size  # the global batch: `hit_total` counts every rank's
    logs |= {"loss": loss_total / spec.steps_per_epoch, "accuracy": hit_total / seen}
    timer.on_epoch_end(epoch, logs)


def _evaluate(trainer: step.Trainer, val, spec: TrainSpec) -> float:
    trainer.module.eval()
    right, seen = 0.0, 0
    with (
        torch.no_grad(),
        torch.autocast(
            trainer.device.type, dtype=trainer.amp_dtype or torch.float32, enabled=trainer.amp_dtype is not None
        ),
    ):
        for _ in range(spec.validation_steps):
            x, y = next(val)
            right += float(step.hits(trainer.model(x), y))
            seen += len(y)
    trainer.module.train()
    return right / seen if seen else 0.0


def _step_synced(trainer: step.Trainer, batches, now) -> list[float]:
    times = []
    for _ in range(STEP_SYNCED_STEPS):
        sync(trainer.device)
        t0 = now()
        trainer.step(*next(batches))
        sync(trainer.device)
        times.append(now() - t0)
    return times[1:]  # the first step after the windows may pay a switch back from validation: dropped


def _flops_per_example(initial: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float | None:
    """torch's own count (FlopCounterMode, the CPU's SDPA kernel added) of one eager forward + backward on two
    examples, per example."""
    module = copy.deepcopy(initial).train()
    with attention.flop_counter() as counter:
        step.loss_of(module(x[:2].contiguous()), y[:2]).backward()
    total = counter.get_total_flops()
    return total / 2 if total else None


def _model(spec: TrainSpec, device: torch.device, rank: Rank | None = None):
    """(module, dataset info, data pipeline, name, user facts) for a zoo name or the user's function; on a rank
    of a multi-process run, the pipeline yields the rank's shard of each global batch."""
    if spec.model_fn:
        user = user_fn.load(spec)
        return user.module, user.info, user.pipeline, user.name, user.facts
    pipe = _pipeline(spec, device)
    if rank is not None:
        val = shard(pipe.validation, rank) if pipe.validation is not None else None
        pipe = dataclasses.replace(pipe, train=shard(pipe.train, rank), validation=val)
    return models.build(spec.model, pipe.info.input_shape, pipe.info.num_classes), pipe.info, pipe, spec.model, {}


def _pipeline(spec: TrainSpec, device: torch.device) -> ArrayPipeline:
    """The zoo's data: flowers files through torch's DataLoader, the in-memory sets as NumPy batches."""
    validation = spec.validation_steps > 0
    if spec.dataset == "flowers":
        return loader.flowers(spec.data_dir, spec.batch_size, validation, InputSettings.of(spec), device.type)
    return make_arrays(
        spec.dataset, spec.model, spec.batch_size, validation=validation, data_dir=spec.data_dir, seed=SEED
    )


def _input_columns(spec: TrainSpec, trainer: step.Trainer, pipe, convnet: bool, rank: Rank | None, row: dict) -> dict:
    """The pipeline beside the step (engine.worker.input_probe); not measured on a rank of a multi-process run."""
    if spec.dataset == catalog.SYNTHETIC or spec.model_fn:
        return input_probe.synthetic_columns(row["examples_per_sec"], row.get("step_time_ms_median"), spec.batch_size)
    if rank is not None:
        return {}
    device = trainer.device
    hooks = input_probe.Hooks(
        to_device=lambda b: data.to_tensors(b, device, convnet),
        step=lambda b: trainer.step(*b),
        sync=lambda: sync(device),
        fresh=lambda: _pipeline(spec, device).train,
    )
    input_eps, step_eps, wait = input_probe.measure(pipe.train, hooks, spec.batch_size)
    settings = InputSettings.of(spec) if spec.dataset == "flowers" else InputSettings(cache=True)  # arrays: in memory
    return input_probe.columns(row["examples_per_sec"], input_eps, step_eps, wait, settings)


def run_training_native(spec: TrainSpec, report: Reporter, ops: ModuleType, rank: Rank | None = None) -> dict:
    """The run; `rank`: this process is one rank of a multi-process run (engine.worker.launch.torch_rank)."""
    t_start = time.perf_counter()
    report.phase("configuring", device=spec.device, strategy="default", backend="torch")
    device = torch_ddp.device_of(rank, ops, spec.device)
    _seed(SEED)
    report.phase("building", model=spec.model or spec.model_fn)
    module, info, pipe, name, user_facts = _model(spec, device, rank)
    convnet = spec.model in models.CONVNETS or (len(info.input_shape) == 3 and bool(spec.model_fn))
    initial = copy.deepcopy(module)  # eager float32, as the run starts: the check's and the count's reference
    module = module.to(device, memory_format=torch.channels_last) if convnet else module.to(device)
    initial = initial.to(device)
    tf32 = step.tf32_note(device, spec.precision)
    recipe = models.recipe(spec.model) if not spec.model_fn else models.Recipe(spec.optimizer, 1e-3)
    optimizer, opt_note = step.make_optimizer(module.parameters(), recipe, device)
    amp = step.AMP_DTYPES[spec.precision]
    scaler = torch.amp.GradScaler(device.type) if amp is torch.float16 else None
    model, compile_note = step.compiled(torch_ddp.wrap(module, rank, device), spec.torch_compile)
    trainer = step.Trainer(module, model, optimizer, opt_note, scaler, amp, device)
    cached = spec.dataset == catalog.SYNTHETIC or bool(spec.model_fn)
    zoo = not spec.model_fn
    batches = data.device_batches(pipe.train, device, convnet, cached, keras_layout=zoo)
    val = data.device_batches(pipe.validation, device, convnet, cached, zoo) if pipe.validation is not None else None
    first_batch = next(batches)
    report.phase("training", epochs=spec.epochs, steps_per_epoch=spec.steps_per_epoch)
    now, clock_note = clock_for(device)
    timer = WindowTimer(lambda: sync(device), window_size(spec.steps_per_epoch), spec.steps_per_epoch, report, 0,
                        global_batch=spec.batch_size, now=now)  # fmt: skip
    timer.params = {"epochs": spec.epochs}
    timer.t_fit = now()
    for epoch in range(spec.epochs):
        _epoch(trainer, batches, val, spec, timer, epoch, rank)
    sync(device)
    step_synced = _step_synced(trainer, batches, now)
    report.phase("checking")
    verdict, lead = None, rank is None or rank.rank == 0  # the check and the count: once, on rank 0
    if lead and check.needed(spec.precision, spec.torch_compile):
        verdict = check.check(initial, *first_batch, spec.precision, spec.torch_compile, convnet)
    flops = _flops_per_example(initial, *first_batch) if lead else None
    kernel = attention.kernel(module, first_batch[0], amp) if spec.model in models.TRANSFORMERS else ""
    notes = [f"data: {pipe.source}", f"native PyTorch ({ops.version()}): {compile_note}", f"optimizer {opt_note}"]
    notes += [f"precision {spec.precision}" + (" with GradScaler" if scaler else ""), tf32]
    notes += ["channels_last" if convnet else "contiguous (NCHW/sequence) layout", f"timing: {clock_note}"]
    row = _row(spec, ops, device, timer, step_synced, flops, notes, verdict)
    row |= _input_columns(spec, trainer, pipe, convnet, rank, row)
    row["notes"] += "; " + row.pop("_note") if "_note" in row else ""
    if kernel:
        row["notes"] += "; " + "; ".join(attention.notes(spec.model, spec.dataset, row["examples_per_sec"], kernel))
    row |= {"model": name, "params": sum(p.numel() for p in module.parameters()), "xla": False}
    row |= model_columns(spec.model, spec.dataset, row["examples_per_sec"], **_flops_facts(flops, user_facts))
    used = {ops.describe(p.device) for p in module.parameters()}
    if any(ops.kind_of(d) != spec.device for d in used):
        from engine.worker.errors import PlacementError

        raise PlacementError(f"asked for {spec.device.upper()} but the parameters live on {', '.join(sorted(used))}")
    report.phase("measured")
    if lead:
        keep_weights(report.path.parent if report.path else None, _weights(module))
    return {**row, "devices_used": ",".join(sorted(used)), "total_s": time.perf_counter() - t_start}


def _weights(module: nn.Module) -> dict[str, np.ndarray]:
    return {k: v.detach().float().cpu().numpy() for k, v in module.state_dict().items() if v.is_floating_point()}


def _flops_facts(flops: float | None, user_facts: dict) -> dict:
    source = (
        "torch FlopCounterMode (one eager forward + backward)" if flops else "no count (FlopCounterMode found none)"
    )
    return {"flops_source": source, **user_facts}


def _row(spec: TrainSpec, ops: ModuleType, device, timer: WindowTimer, step_synced, flops, notes, verdict) -> dict:
    rates = throughputs(timer, spec.epochs, spec.steps_per_epoch, spec.batch_size, step_synced)
    notes.insert(1, rates.pop("_what"))
    if verdict is not None:
        notes.append(verdict.note())
    else:
        notes.append("correctness check: not needed (eager float32 is the reference)")
    cpu = hardware.cpu_info()
    if spec.device == "cpu" and cpu.peak_is_floor:
        notes.append(f"{FLOOR_NOTE} ({cpu.clock_basis}, {cpu.clock_ghz:g} GHz), so MFU is an upper bound")
    if spec.dataset == catalog.SYNTHETIC:
        notes.append("synthetic data: accuracy measures memorisation of one batch, not learning")
    peak = peak_gflops(ops, spec.device, ops.peak_dtype(spec.precision.replace("mixed_", ""), spec.device, "train"))
    gflops = flops * rates["examples_per_sec"] / 1e9 if flops and rates["examples_per_sec"] else None
    last = timer.epoch_logs[-1] if timer.epoch_logs else {}
    return {
        "dataset": spec.dataset,
        "strategy": "default",
        "replicas": 1,
        "global_batch_size": spec.batch_size,
        "per_replica_batch_size": spec.batch_size,
        "epochs": spec.epochs,
        "steps_per_epoch": spec.steps_per_epoch,
        "time_to_first_step_s": timer.time_to_first_step_s,
        "first_epoch_s": timer.epoch_wall_s[0] if timer.epoch_wall_s else None,
        **(summarize_ms(step_synced) if step_synced else {}),
        **rates,
        "gflops": gflops,
        "peak_gflops": peak,
        "mfu_pct": 100.0 * gflops / peak if gflops and peak else None,
        "final_loss": finite_or_none(last.get("loss")),
        "final_accuracy": last.get("accuracy"),
        "val_accuracy": last.get("val_accuracy"),
        "peak_device_memory_mb": ops.peak_device_memory_mb(spec.device),
        "matches_eager_fp32": verdict.matched if verdict is not None else None,
        "notes": "; ".join(notes),
    }
