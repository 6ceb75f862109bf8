"""The one comparison rule: every row becomes a rate of work before any ratio is taken.

Training rows become examples/s (in total and per device), microbenchmark rows GFLOP/s; a source
that publishes only a time is turned into a rate from its own published workload (batch × steps ×
epochs ÷ time, or the operation's FLOPs ÷ time) and marked *derived*; a datasheet peak is a row
marked *peak, not measured*. A speedup is then always "how many times faster": subject ÷ baseline
of two rates. A ratio of raw times is allowed only between identical workloads (`time_ratio`).

Rows are local/imported runs (result-schema dicts), reference rows (the curated CSV's schema) or
peaks from engine.catalog.hardware_table. Pure Python + the reference helpers; no streamlit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.catalog import hardware_table
from engine.catalog.backends import short_label
from engine.catalog.micro_presets import SHAPE_FIELDS, op_flops
from engine.compare.facts.single import one_device
from engine.compare.facts.workload import device_count, model_kind, parse_shape, shaped_model
from engine.compare.facts.workload import precision_class as class_of
from engine.reference.normalize import is_missing, is_present, local_settings
from engine.reference.units import HARDWARE, THROUGHPUT_METRICS, units_between

MICRO_OPS = tuple(SHAPE_FIELDS)
BOUND_OF_TIME = {"lower_bound": "at most", "upper_bound": "at least", "approx": "about"}  # a rate inverts a time bound


@dataclass(frozen=True)
class Rate:
    """One row expressed as a rate of work.

    Attributes:
      id: "run:<run_id>", a reference's ref_id, or "peak:<hardware_key>".
      label: what a person reads ("TPU v2-8 (published)", "this CPU", "A100 peak").
      origin: "this machine", "imported", "reference" or "peak".
      task: "training" or "micro"; workload: the model or the operation.
      value: examples/s (training) or GFLOP/s (micro), for the whole hardware the row used.
      unit: "examples/s" or "GFLOP/s".
      devices: base devices the row used (TPU cores, GPU dies, one CPU host), when known.
      derivation: "measured", "derived" (from a published time and workload) or "peak" (datasheet).
      how: the arithmetic, in words.
      bound: "" (exact), "about", "at most" or "at least".
      work: examples or FLOPs of the workload the time was taken over; time_s: that time.
      settings: the reference-schema settings that grading compares.
      basis: "measured" (this machine, imported, or AccelBench's own GPU runs), "published", "estimate" or "peak".
      low, high: an estimate's range (same unit as value); None for a measured or published figure.
    """

    id: str
    label: str
    origin: str
    task: str
    workload: str
    value: float
    unit: str
    devices: float | None
    derivation: str
    how: str
    bound: str = ""
    work: float | None = None
    time_s: float | None = None
    hardware_key: str = ""
    device_type: str = ""
    source_id: str = ""
    doubtful: bool = False
    doubt_reason: str = ""
    settings: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    basis: str = "measured"
    low: float | None = None
    high: float | None = None
    precision: str = field(init=False, compare=False, repr=False)  # settings["precision"], else "unknown"
    precision_class: str = field(init=False, compare=False, repr=False)  # "float32" or "mixed" (workload's rule)
    precision_words: str = field(init=False, compare=False, repr=False)  # as a label reads it ('mixed bf16')
    per_device: float | None = field(init=False, compare=False, repr=False)  # value ÷ devices, when known
    stack: str = field(init=False, compare=False, repr=False)  # the software stack as a label reads it ('PyTorch')
    on_accelerator: bool = field(init=False, compare=False, repr=False)  # a known GPU or TPU (is_accelerator)
    kind: str = field(init=False, compare=False, repr=False)  # a user model's, else workload.model_kind
    shaped: str = field(init=False, compare=False, repr=False)  # the model at a stated sequence (shaped_model)
    device_units: float | None = field(init=False, compare=False, repr=False)  # its devices (workload.device_count)
    per_device_of: float | None = field(init=False, compare=False, repr=False)  # one device's share: the system size
    if TYPE_CHECKING:  # the row as ONE device (single.one_device): not a field, as it may be the row itself
        one: Rate | None = field(init=False)

    def __post_init__(self) -> None:  # a row's precision and its class, read once when made (replace remakes them)
        object.__setattr__(self, "precision", str(self.settings.get("precision") or "unknown"))
        object.__setattr__(self, "precision_class", class_of(self.precision))
        object.__setattr__(self, "precision_words", precision_text(self.precision))
        object.__setattr__(self, "per_device", self.value / self.devices if self.devices else None)
        fw = str(self.settings.get("framework") or "")
        object.__setattr__(self, "stack", FRAMEWORK_TEXT.get(fw, fw) if fw and fw != "unknown" else "")
        object.__setattr__(self, "on_accelerator", is_accelerator(self.hardware_key))
        object.__setattr__(self, "kind", self.settings.get("model_kind") or model_kind(self.workload))
        object.__setattr__(self, "shaped", shaped_model(self.settings))
        s = self.settings
        object.__setattr__(
            self, "device_units", device_count(self.hardware_key, s.get("hardware_count"), s.get("count_unit"))
        )
        object.__setattr__(self, "per_device_of", float(s["per_device_of"]) if s.get("per_device_of") else None)
        object.__setattr__(self, "one", one_device(self))  # last: it reads the fields above


def is_accelerator(key: str) -> bool:
    """A known GPU or TPU (not an unnamed one: '…_unknown')."""
    dev = HARDWARE.get(key)
    return dev is not None and dev.device_type in ("gpu", "tpu") and not key.endswith("_unknown")


def _n(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.3g}"


def _devices(key: str, count: Any, unit: Any) -> float | None:
    """Base devices: TPU cores, GPU dies, or 1 for a CPU host (logical CPU devices are not more hardware)."""
    dev = HARDWARE.get(key)
    if dev is None or is_missing(count) or is_missing(unit):
        return None
    if dev.device_type == "cpu":
        return 1.0
    base = "core" if dev.device_type == "tpu" else "die"
    per = units_between(key, str(unit), base)
    return float(count) * per if per is not None else None


def rate_of_run(run: Mapping[str, Any], origin: str | None = None) -> Rate | None:
    """A finished run's measured rate: steady examples/s (training) or achieved GFLOP/s (micro)."""
    s = local_settings(run)
    kind = run.get("kind") or "train"
    src = str(run.get("source") or "local")
    origin = origin or ("imported" if src.startswith("import") else "this machine")
    device = (run.get("device") or "cpu").upper()
    what = f"{short_label(run.get('backend'))}, {precision_text(s['precision'])}"
    name = (
        f"this {device} ({what})"
        if origin == "this machine"
        else f"{run.get('device_name') or device} (imported, {what})"
    )
    devices = _devices(s["hardware_key"], s["hardware_count"], s["count_unit"])
    base = {"id": s["ref_id"], "label": name, "origin": origin, "hardware_key": s["hardware_key"]}
    base |= {"device_type": s["device_type"], "devices": devices, "settings": s, "source_id": "LOCAL"}
    median_ms = run.get("step_time_ms_median")
    if kind == "train":
        eps, batch = run.get("examples_per_sec"), run.get("global_batch_size")
        if not is_present(eps) or not float(eps) > 0:
            return None
        work = _train_work(run.get("epochs"), run.get("steps_per_epoch"), batch)
        how = f"measured: global batch {batch} ÷ median step {_n(float(median_ms or 0))} ms (steady state)"
        t = run.get("total_s")
        return Rate(
            **base, task="training", workload=str(run.get("model") or ""), value=float(eps), unit="examples/s",
            derivation="measured", how=how, work=work, time_s=float(t) if is_present(t) else None,
        )  # fmt: skip
    gflops = run.get("gflops")
    if kind not in MICRO_OPS or not is_present(gflops) or not float(gflops) > 0:
        return None
    shape = parse_shape(kind, str(run.get("shape") or ""))
    work = op_flops(kind, **shape) if shape else None
    how = f"measured: {_n(work / 1e9) if work else '?'} GFLOP ÷ median {_n(float(median_ms or 0))} ms"
    return Rate(
        **base, task="micro", workload=kind, value=float(gflops), unit="GFLOP/s", derivation="measured", how=how,
        work=work, time_s=float(median_ms) / 1000 if is_present(median_ms) else None,
    )  # fmt: skip


def _train_work(epochs: Any, steps: Any, batch: Any) -> float | None:
    if not (is_present(epochs) and is_present(steps) and is_present(batch)):
        return None
    return float(epochs) * float(steps) * float(batch)


PRECISION_TEXT = {
    "float32": "fp32", "tf32": "tf32", "mixed_float16": "mixed fp16", "mixed_bfloat16": "mixed bf16",
    "float16": "fp16", "bfloat16": "bf16", "bf16_fp16": "bf16/fp16", "int8": "int8", "fp8": "fp8",
    "float64": "fp64", "unknown": "precision not stated",
}  # fmt: skip
FRAMEWORK_TEXT = {
    "keras-jax": "Keras-JAX", "keras-torch": "Keras-torch", "tensorflow": "TF", "pytorch": "PyTorch", "mxnet": "MXNet",
}  # fmt: skip


def precision_text(precision: Any) -> str:
    """'fp32', 'mixed bf16', 'precision not stated' — a precision as it reads in a label."""
    p = "unknown" if is_missing(precision) or not str(precision) else str(precision)
    return PRECISION_TEXT.get(p, p)


def reference_basis(row: Mapping[str, Any]) -> str:
    """ "measured" for AccelBench's own runs shipped as references, else "published"."""
    return "measured" if row.get("source_kind") == "accelbench" else "published"


def _ref_base(row: Mapping[str, Any]) -> dict[str, Any]:
    key = str(row["hardware_key"])
    basis = reference_basis(row)
    source = "measured by AccelBench" if basis == "measured" else "published"
    fw = "" if is_missing(row.get("framework")) else FRAMEWORK_TEXT.get(str(row["framework"]), str(row["framework"]))
    detail = ", ".join(
        x for x in (source, fw if basis == "measured" else "", precision_text(row.get("precision"))) if x
    )
    return {
        "id": str(row["ref_id"]),
        "label": f"{row['hardware']} ({detail})",
        "basis": basis,
        "origin": "reference",
        "devices": _devices(key, row.get("hardware_count"), row.get("count_unit")),
        "hardware_key": key,
        "device_type": str(row.get("device_type") or ""),
        "source_id": str(row.get("source_id") or ""),
        "doubtful": bool(row.get("doubtful")),
        "doubt_reason": str(row.get("doubt_reason") or ""),
        "settings": dict(row),
    }


def _training_rate(row: Mapping[str, Any]) -> tuple[float, str, float | None, float | None, str] | None:
    """(examples/s, how, work, time, bound) for a training reference row, or None."""
    metric, value, kind = row["metric"], float(row["value"]), str(row.get("value_kind") or "exact")
    if metric in THROUGHPUT_METRICS:
        bound = {"approx": "about", "lower_bound": "at least", "upper_bound": "at most"}.get(kind, "")
        if reference_basis(row) == "measured":
            notes = str(row.get("notes") or "")
            run = re.search(r"AccelBench run (\S+?):", notes)
            pooled = re.search(r"Median of (\d+) runs of this configuration \((\S+) ", notes)
            how = f"measured by AccelBench: {_n(value)} {row['unit']}, steady state" + (
                f" (run {run.group(1)}" + (f"; median of {pooled[1]} runs, {pooled[2]})" if pooled else ")")
                if run
                else ""
            )
            return value, how, None, None, bound
        return value, f"published: {_n(value)} {row['unit']}", None, None, bound
    if row.get("target") or "epoch 1" in str(row.get("notes") or ""):
        return None  # time-to-accuracy, or a first epoch's compile-laden step
    batch, steps, epochs = row.get("batch_size"), row.get("steps_per_epoch"), row.get("epochs")
    scope = "" if row.get("batch_scope") == "global" else " (read as global; scope not stated)"
    bound = BOUND_OF_TIME.get(kind, "")
    if metric == "train_time_s" and (work := _train_work(epochs, steps, batch)):
        how = f"derived: {_n(work)} examples (batch {batch}{scope} × {steps} steps × {epochs} epochs) ÷ {value:g} s"
        return work / value, how, work, value, bound
    if metric == "epoch_time_s" and (work := _train_work(1, steps, batch)):
        how = f"derived: {_n(work)} examples per epoch (batch {batch}{scope} × {steps} steps) ÷ {value:g} s"
        return work / value, how, work, value, bound
    if metric == "step_time_ms" and is_present(batch):
        how = f"derived: batch {batch}{scope} ÷ {value:g} ms per step"
        return float(batch) / (value / 1000), how, float(batch), value / 1000, bound
    return None


def rate_of_reference(row: Mapping[str, Any]) -> Rate | None:
    """A reference row as a rate of work, or None when its source did not publish enough to derive one."""
    task, model = row.get("task"), str(row.get("model") or "")
    if task == "training":
        got = _training_rate(row)
        if got is None:
            return None
        value, how, work, time_s, bound = got
        derivation = "measured" if row["metric"] in THROUGHPUT_METRICS else "derived"
        return Rate(
            **_ref_base(row), task="training", workload=model, value=value, unit="examples/s",
            derivation=derivation, how=how, bound=bound, work=work, time_s=time_s,
        )  # fmt: skip
    if task == "micro" and model in MICRO_OPS and row["metric"] == "op_time_s":
        shape = parse_shape(model, str(row.get("shape") or ""))
        if not shape:
            return None
        work, t = op_flops(model, **shape), float(row["value"])
        assumed = " (channel count not stated; the article preset's 3 assumed)" if "?" in str(row["shape"]) else ""
        source = "measured by AccelBench" if reference_basis(row) == "measured" else "derived"
        how = f"{source}: {_n(work / 1e9)} GFLOP ({row['shape']}){assumed} ÷ {t:g} s"
        bound = BOUND_OF_TIME.get(str(row.get("value_kind")), "")
        return Rate(
            **_ref_base(row), task="micro", workload=model, value=work / t / 1e9, unit="GFLOP/s",
            derivation="derived", how=how, bound=bound, work=work, time_s=t,
        )  # fmt: skip
    return None


def peak_rate(key: str, precision: str = "float32", workload: str = "matmul") -> Rate | None:
    """A datasheet peak (one GPU die / one TPU chip) as a GFLOP/s row marked "peak, not measured"."""
    dev = hardware_table.BY_KEY.get(key)
    tflops = hardware_table.peak_tflops(key, precision)
    if dev is None or not tflops:
        return None
    devices = _devices(key, 1, dev.peak_unit)
    how = f"datasheet peak, not measured: {tflops:g} TFLOP/s per {dev.peak_unit} ({precision})"
    settings = {
        "hardware_key": key, "device_type": dev.device_type, "precision": precision, "task": "micro", "model": workload,
        "hardware": dev.short,
    }  # fmt: skip
    return Rate(
        id=f"peak:{key}", label=f"{dev.short} peak (datasheet)", origin="peak", task="micro", workload=workload,
        value=tflops * 1000, unit="GFLOP/s", devices=devices, derivation="peak", how=how, hardware_key=key,
        device_type=dev.device_type, source_id="datasheet", settings=settings, basis="peak",
    )  # fmt: skip
