"""`run`, `devices` and `models`: start a benchmark, and say what this machine and the catalog offer."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from typing import Any

from engine.catalog import backends, catalog, framework_support
from engine.catalog.processes import cores_warning
from engine.catalog.specs import SpecError
from engine.cli.common import EXIT_FAILED, EXIT_OK, fail, output_may_be_gone, prog, row_line
from engine.results.status import RunStatus
from engine.runs import hardware, jobs
from engine.runs.processes import stop_name, stop_reason, stops_as_ctrl_c
from engine.runs.store import Store
from engine.runs.transfer import label_problem

# run flags that belong to one kind of run only, as spec field names
MICRO_ONLY = {"m", "n", "k", "height", "width", "channels", "filters", "kernel_size", "repeats", "warmup", "dtype"}
TRAIN_ONLY = {
    "dataset",
    "data_dir",
    "epochs",
    "steps_per_epoch",
    "validation_steps",
    "strategy",
    "logical_devices",
    "processes",
    "precision",
    "memory_growth",
    "memory_limit_mb",
    "host_memory_limit_mb",
    "visible_devices",
    "tpu",
    "torch_compile",
    *("input_workers", "prefetch", "cache"),
    *("model_file", "model_fn", "model_path", "unsafe_model_code", "loss", "optimizer", "data_npz"),
}
_NOT_SPEC = {"command", "json", "detach", "label"}


def spec_request(args: argparse.Namespace) -> dict[str, Any]:
    """The parsed `run` flags as a spec request (not yet validated); exits 2 on a flag of the other kind."""
    raw = {k: v for k, v in vars(args).items() if k not in _NOT_SPEC and v is not None}
    user = getattr(args, "model_file", None) or getattr(args, "model_fn", None)
    if (args.model or user) and args.bench:
        fail("--bench and --model: give one (a microbenchmark or a training run), not both")
    if not args.model and not args.bench and not user:
        fail(f"run needs --bench matmul|conv2d, --model NAME (see: {prog()} models) or --model-file/--model-fn")
    if args.model or user:
        micro_only = sorted(set(raw) & MICRO_ONLY)
        if micro_only:
            fail(
                f"--{micro_only[0].replace('_', '-')}: is a microbenchmark setting; training runs use --model/--dataset/--batch-size …"
            )
        raw["kind"] = "train"
    else:
        train_only = sorted(set(raw) & TRAIN_ONLY)
        if train_only:
            fail(
                f"--{train_only[0].replace('_', '-')}: is a training setting; microbenchmarks use --dtype/--repeats and their shape flags"
            )
        raw["kind"] = raw["bench"]
    if "backend" not in raw:
        raw["backend"] = backends.default_backend(needs_keras=raw["kind"] == "train")
        if raw["backend"] != backends.DEFAULT_BACKEND:  # say why it is not TensorFlow
            label = backends.INFO[raw["backend"]].label
            print(
                f"accelbench: TensorFlow is not installed here: running on {label} (--backend picks another)",
                file=sys.stderr,
            )
    return raw


def _show_event(ev: dict[str, Any]) -> None:
    """A progress event as one stderr line (phases, repeats, epochs; steps are too many)."""
    with output_may_be_gone():  # a terminal closed mid-run: its SIGHUP (on its way) cancels, not an EIO
        _print_event(ev)


def _print_event(ev: dict[str, Any]) -> None:
    if ev.get("event") == "phase":
        print(f"  {ev.get('name')}", file=sys.stderr)
    elif ev.get("event") == "repeat":
        print(
            f"  repeat {ev['repeat']}/{ev['total']}: {ev['time_ms']:.2f} ms, {ev['gflops']:.1f} GFLOP/s",
            file=sys.stderr,
        )
    elif ev.get("event") == "epoch":
        print(
            f"  epoch {ev.get('epoch')}: {ev.get('epoch_s', 0):.2f} s, loss {ev.get('loss', float('nan')):.4f}",
            file=sys.stderr,
        )


def cmd_run(args: argparse.Namespace) -> int:
    raw = spec_request(args)
    label = getattr(args, "label", None)
    if label is not None and (problem := label_problem(label)):
        fail(f"--label {problem}")
    try:
        spec = jobs.prepare(raw)
    except SpecError as exc:
        fail(str(exc))
    warnings = framework_support.backend_warnings(spec.backend)  # never installs or upgrades one
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    warnings.append(cores_warning(getattr(spec, "processes", 1), spec.device, cores) or "")
    for line in filter(None, warnings):
        print(f"accelbench: warning: {line}", file=sys.stderr)
    if getattr(spec, "user_model", False):  # read it first: a refused file or a bad function stores nothing
        from engine.runs.model_check import ModelCheckError, read_model

        try:
            facts = read_model(spec)  # type: ignore[arg-type]
        except ModelCheckError as exc:
            fail(str(exc))
        print(
            f"your model {facts['name']}: {facts['params']:,} parameters, "
            f"{facts['train_flops_per_example'] / 1e6:,.1f} MFLOP per training example (counted by layer)",
            file=sys.stderr,
        )
    store = Store()
    try:
        run_id = jobs.launch(spec, store, label=label)
    except SpecError as exc:  # demo mode: another run got in first
        fail(str(exc))
    if args.detach:
        print(run_id)
        return EXIT_OK
    log = jobs.run_dir_of(run_id, store) / "log.txt"
    print(f"run {run_id} started on {spec.backend} (worker log: {log})", file=sys.stderr)
    row = _wait_or_cancel(run_id, store)
    with output_may_be_gone():
        if args.json:
            print(json.dumps(row))
        else:
            print(row_line(row))
            if row.get("error"):
                print(f"error: {row['error']}")
        if row.get("status") != RunStatus.OK:
            print(f"accelbench: run {run_id} ended {row.get('status')}: {row.get('error')}", file=sys.stderr)
    return EXIT_OK if row.get("status") == RunStatus.OK else EXIT_FAILED


def _wait_or_cancel(run_id: str, store: Store) -> dict[str, Any]:
    """Wait for the run; Ctrl-C, SIGTERM (what `timeout`, CI runners and `kill` send) or SIGHUP (the terminal
    closed) cancels it — the worker and every rank stopped, the row `cancelled` — rather than leaving it training
    with no one waiting. (`--detach` never gets here: a detached run goes on until `accelbench cancel`.)"""
    # The cancel runs inside the handlers: the first stop signal sets the others to ignored, and `timeout` sends
    # SIGTERM twice (to the command, then to its process group) — a second one after the default handler came
    # back would kill the CLI mid-cancel (143, the row left `running`).
    with stops_as_ctrl_c():
        try:
            return dict(jobs.wait(run_id, store, on_event=_show_event))
        except KeyboardInterrupt as exc:  # Ctrl-C, or processes.Stopped
            why = stop_name(exc)
            with output_may_be_gone():  # after SIGHUP the terminal may be gone; the cancel goes on regardless
                print(f"accelbench: {why}: cancelling run {run_id} (stopping its worker and ranks)", file=sys.stderr)
            jobs.cancel(run_id, store, reason=stop_reason(exc, "the CLI that waited for it"))
            return dict(store.get_run(run_id) or {})


def _tensorflow_devices() -> dict[str, Any]:
    import os

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    return {"version": tf.__version__, "devices": [d.name for d in tf.config.list_physical_devices()]}


def _framework_line(name: str, version: str | None) -> str:
    """'jax 0.10.2', 'keras 2.15.0 (outside >=3.6,<4)' or 'torch not installed'."""
    if version is None:
        return f"{name} not installed"
    outside = framework_support.outside_range(name, version)
    return f"{name} {version}" + (f" (outside {framework_support.SUPPORT[name].specifier})" if outside else "")


def cmd_devices(args: argparse.Namespace) -> int:
    acc = hardware.detect_accelerators()
    cpu = hardware.cpu_info()
    tf_info = _tensorflow_devices() if args.probe else None
    if args.json:
        info: dict[str, Any] = {
            "cpu": asdict(cpu),
            "gpus": [asdict(g) for g in acc.gpus],
            "tpu": acc.tpu or None,
            "notes": list(acc.notes),
            "backends": {b: backends.installed(b) for b in backends.BACKENDS},
            "frameworks": framework_support.versions(),
        }
        if tf_info is not None:
            info["tensorflow"] = tf_info
        print(json.dumps(info))
        return EXIT_OK
    print(
        f"CPU: {cpu.name} — {cpu.cores} cores at {cpu.clock_ghz} GHz, {', '.join(cpu.vector_extensions) or 'no SIMD flags'}"
    )
    print(
        f"     peak {cpu.peak_gflops_fp32} GFLOP/s fp32 ({cpu.flops_per_cycle_fp32} FLOPs/cycle/core), {cpu.memory_gb} GB RAM"
    )
    for g in acc.gpus:
        print(f"GPU {g.index}: {g.name}, {g.memory_mb:.0f} MB, driver {g.driver_version}")
    if not acc.gpus:
        print("GPU: none found" + (f" ({'; '.join(acc.notes)})" if acc.notes else ""))
    print(f"TPU: {acc.tpu or 'none attached'}")
    print(
        "Backends: "
        + ", ".join(f"{b} ({'installed' if backends.installed(b) else 'not installed'})" for b in backends.BACKENDS)
    )
    print("Frameworks: " + ", ".join(_framework_line(n, v) for n, v in framework_support.versions().items()))
    if tf_info is not None:
        print(f"TensorFlow {tf_info['version']} sees: {', '.join(tf_info['devices'])}")
    return EXIT_OK


def cmd_models(args: argparse.Namespace) -> int:
    if args.dataset is not None and args.dataset not in catalog.DATASET_NAMES:
        fail(f"--dataset: must be one of {', '.join(catalog.DATASET_NAMES)}; got {args.dataset!r}")
    from engine.worker.models import param_counts  # imports TensorFlow: builds each model to count it

    rows = param_counts(args.dataset)
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(
                f"{r['model']:<16} {r['dataset']:<14} input {str(tuple(r['input_shape'])):<16} classes {r['num_classes']:<5} params {r['params']:>13,}"
            )
    return EXIT_OK
