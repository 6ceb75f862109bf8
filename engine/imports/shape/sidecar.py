"""A metadata sidecar's settings (DAWNBench's entry JSON, a YAML next to a table) as import roles: which
key gives the system, the price per hour, the batch size … for every row of the table it describes.

Pure Python; no streamlit.
"""

from __future__ import annotations

import re

from engine.imports.read.foreign_text import split_number
from engine.imports.shape.shapes import role_by_name

_EXACT = {"hardware": "system", "gpu": "system", "device": "system", "accelerator": "system", "system": "system",
          "framework": "framework", "model": "model", "precision": "precision", "batchsize": "batch",
          "costperhour": "price", "priceperhour": "price", "timestamp": "date", "date": "date", "gpus": "count",
          "numgpus": "count", "power": "power", "gpumodelname": "system", "acceleratormodelname": "system",
          "gpucount": "count"}  # fmt: skip
# Keys about the host, the interpreter or an evaluation (AlgoPerf's meta_data: cpu_model_name, os_platform,
# python_version, workload.eval_batch_size) never give the model, the device, the framework or the batch size.
_NOT_RUN = re.compile(r"^(cpu|host|os|python|mem|net|rng|disk)|eval")


_NUMBER_ROLES = ("count", "batch", "price", "power", "cost")


def sidecar_roles(sidecar: dict[str, str]) -> dict[str, str]:
    """Role → value from a sidecar's keys (hardware → system, costPerHour → price, batch_size → batch …)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for key, value in sidecar.items():  # a key named exactly like a role wins over a hint ('version')
        role = _EXACT.get(key.split(".")[-1].lower().replace("_", ""))
        if role and role not in out:
            out[role] = value
            used.add(key)
    for key, value in sidecar.items():
        if key in used or _NOT_RUN.search(key.split(".")[-1].lower()):
            continue
        kind = "number" if split_number(value) else "text"
        role = role_by_name(key.split(".")[-1].replace("costPerHour", "price"), kind)
        if role in ("device", "system"):
            role = "system"
        if role and role not in out and role not in ("value", "label", "metric", "unit", "time", "step"):
            out[role] = value
    if out.get("precision", "").lower() in ("true", "false"):  # "mixed_precision": true
        out["precision"] = "mixed" if out["precision"].lower() == "true" else "fp32"
    # a setting that is not one number (DAWNBench's batchSize: a schedule of sizes) stays text in meta.*
    return {r: v for r, v in out.items() if r not in _NUMBER_ROLES or split_number(v) is not None}
