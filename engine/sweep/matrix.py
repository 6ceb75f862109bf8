"""A sweep's matrix: the axes a user gives (flags or a small TOML/YAML file) and their expansion into
cells, each an ordinary training-run request plus the device target it needs."""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.catalog.fields import SpecError

# Axis name → the run field each value sets (the order is the expansion order: models vary slowest).
AXES: dict[str, str] = {
    "models": "model",
    "datasets": "dataset",
    "batch_sizes": "batch_size",
    "precisions": "precision",
    "backends": "backend",
    "devices": "device",
    "processes": "processes",  # `engine run --processes N` (issue 30): a scaling sweep over 1,2,4 processes
    "input_workers": "input_workers",  # `engine run --input-workers N` (issue 38): how far the file pipeline goes
}
# Settings shared by every cell (a file's [settings] table, or the flags of the same name).
SHARED_SETTINGS = (
    "epochs",
    "steps_per_epoch",
    "validation_steps",
    "strategy",
    "xla",
    "price_per_hour_usd",
    "timeout_s",
    "host_memory_limit_mb",
    "data_dir",  # the file pipeline (issue 38): where flowers' files are, and its other settings
    "prefetch",
    "cache",
)


class SweepError(ValueError):
    """A sweep that cannot start, in one line (the CLI exits 2 with it; nothing is stored)."""


@dataclass(frozen=True)
class DeviceTarget:
    """Where a cell must run.

    Attributes:
      device: cpu, gpu or tpu (the run's --device).
      accelerator: an accelerator kind such as "H100" ("" = any): on Ray the cell asks for the custom
        resource `accelerator_type:H100`, which a node has when started with it (see DEPLOY.md).
    """

    device: str
    accelerator: str = ""

    @property
    def name(self) -> str:
        return f"{self.device}:{self.accelerator}" if self.accelerator else self.device

    @classmethod
    def parse(cls, text: str) -> DeviceTarget:
        device, _, accelerator = text.strip().partition(":")
        if device not in ("cpu", "gpu", "tpu") or (accelerator and not accelerator.replace("-", "").isalnum()):
            raise SweepError(f"--devices: each must be cpu, gpu, tpu or KIND:ACCELERATOR like gpu:H100; got {text!r}")
        return cls(device, accelerator)


@dataclass(frozen=True)
class Cell:
    """One run of a sweep.

    Attributes:
      index: its place in the expansion, from 0.
      request: the run request (engine.catalog.specs.spec_from_dict input, kind train).
      target: the device it needs.
    """

    index: int
    request: dict[str, Any]
    target: DeviceTarget

    @property
    def label(self) -> str:
        r = self.request
        procs = f" p{r['processes']}" if "processes" in r else ""
        procs += f" w{r['input_workers']}" if "input_workers" in r else ""
        return (
            f"{r['model']}/{r['dataset']} b{r['batch_size']} {r['precision']} {r['backend']} {self.target.name}{procs}"
        )


@dataclass(frozen=True)
class SweepMatrix:
    """The axes of a sweep and what every cell shares.

    Attributes:
      models, datasets, batch_sizes, precisions, backends: the values of each axis.
      devices: device targets (cpu, gpu, gpu:H100, …).
      processes: `--processes` values (a scaling sweep), or () when every cell is one process.
      input_workers: `--input-workers` values (0 = AUTOTUNE), or () when every cell takes the pipeline's default.
      settings: run settings every cell shares (SHARED_SETTINGS), e.g. epochs and steps_per_epoch.
    """

    models: tuple[str, ...]
    datasets: tuple[str, ...] = ("synthetic",)
    batch_sizes: tuple[int, ...] = (256,)
    precisions: tuple[str, ...] = ("float32",)
    backends: tuple[str, ...] = ("tensorflow",)
    devices: tuple[DeviceTarget, ...] = (DeviceTarget("cpu"),)
    processes: tuple[int, ...] = ()  # () = not an axis: each cell is one process, as `engine run` by default
    input_workers: tuple[int, ...] = ()  # () = not an axis; 0 = AUTOTUNE
    settings: Mapping[str, Any] = field(default_factory=dict)

    def cells(self) -> list[Cell]:
        out = []
        combos = itertools.product(
            self.models, self.datasets, self.batch_sizes, self.precisions, self.backends, self.devices,
            self.processes or (0,), self.input_workers or (None,),
        )  # fmt: skip
        for i, (model, dataset, batch, precision, backend, target, procs, workers) in enumerate(combos):
            request = {
                "kind": "train",
                **self.settings,
                "model": model,
                "dataset": dataset,
                "batch_size": batch,
                "precision": precision,
                "backend": backend,
                "device": target.device,
                **({"processes": procs} if procs else {}),
                **({"input_workers": workers} if workers is not None else {}),
            }
            out.append(Cell(i, request, target))
        return out


def matrix_from_values(values: Mapping[str, Any]) -> SweepMatrix:
    """A matrix from axis lists (comma-separated text or lists) and shared settings; SweepError on bad input."""
    if not values.get("models"):
        raise SweepError("--models: a sweep needs at least one model (see: python -m engine models)")
    axes: dict[str, Any] = {}
    for axis in AXES:
        raw = values.get(axis)
        if raw in (None, "", []):
            continue
        items = [str(v).strip() for v in (raw.split(",") if isinstance(raw, str) else raw) if str(v).strip()]
        if axis in ("batch_sizes", "processes"):
            if not all(v.isdigit() and int(v) > 0 for v in items):
                example = "16,32" if axis == "batch_sizes" else "1,2,4"
                raise SweepError(
                    f"--{axis.replace('_', '-')}: must be whole numbers above 0 like {example}; got {raw!r}"
                )
            axes[axis] = tuple(dict.fromkeys(int(v) for v in items))
        elif axis == "input_workers":
            axes[axis] = tuple(dict.fromkeys(_workers(v, raw) for v in items))
        elif axis == "devices":
            axes[axis] = tuple(dict.fromkeys(DeviceTarget.parse(v) for v in items))
        else:
            axes[axis] = tuple(dict.fromkeys(items))  # a value given twice is one cell, not two
    unknown = set(values) - set(AXES) - set(SHARED_SETTINGS)
    if unknown:
        raise SweepError(f"sweep: unknown setting {sorted(unknown)[0]!r}; axes are {', '.join(AXES)}")
    settings = {k: values[k] for k in SHARED_SETTINGS if values.get(k) is not None}
    if "backends" not in axes:  # as `engine run`: an installed backend, not TensorFlow on a JAX-only runtime
        from engine.catalog.backends import default_backend

        axes["backends"] = (default_backend(),)
    return SweepMatrix(**axes, settings=settings)


def _workers(text: str, raw: Any) -> int:
    """An input-workers value: a whole number from 1, or auto (AUTOTUNE, stored as 0)."""
    if text.lower() in ("auto", "autotune"):
        return 0
    if not text.isdigit() or int(text) < 1:
        raise SweepError(f"--input-workers: must be whole numbers above 0 or auto, like 1,2,auto; got {raw!r}")
    return int(text)


def read_matrix_file(path: str | Path) -> dict[str, Any]:
    """A sweep file's values: TOML (`.toml`) or YAML (`.yaml`/`.yml`, needs PyYAML); axes at the top
    level, shared run settings at the top level or in a `settings` table."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise SweepError(f"--file: cannot read {p} ({exc.strerror or exc})") from None
    try:
        if p.suffix in (".yaml", ".yml"):
            try:
                import yaml  # type: ignore[import-untyped]
            except ImportError:
                raise SweepError(
                    "--file: reading YAML needs PyYAML (pip install pyyaml); or write the sweep as TOML"
                ) from None
            data = yaml.safe_load(text)
        else:
            data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        raise SweepError(
            f"--file: {p.name} is not valid {'YAML' if p.suffix != '.toml' else 'TOML'}: {str(exc).splitlines()[0]}"
        ) from None
    if not isinstance(data, dict):
        raise SweepError(f"--file: {p.name} must be a table of axes (models = [...], batch_sizes = [...])")
    settings = data.pop("settings", {}) or {}
    if not isinstance(settings, dict):
        raise SweepError(f"--file: settings in {p.name} must be a table")
    return {**data, **settings}


def spec_error_line(cell: Cell, exc: SpecError | SweepError) -> str:
    return f"cell {cell.index} ({cell.label}): {exc}"
