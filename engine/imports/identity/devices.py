"""Who ran each row: the system or device named (by the mapping's column or the value given for every row)
split into device, count and host by the name parser, the count from its column or nodes × per node, and
where that count came from (a rate per device divides by it once). Raises CsvError. Pure pandas."""

from __future__ import annotations

import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping
from engine.imports.facts.mlperf_systems import hosts_where_no_accelerator
from engine.imports.facts.system_names import names_device, parse_system
from engine.imports.identity import systems
from engine.imports.read.foreign_text import first_bad
from engine.imports.roles.cells import number_role, text_role
from engine.results.errors import CsvError

# What a file that names no device needs (the page asks for it with a Device box, the CLI with --device).
NO_DEVICE = (
    "choose the column that names the system or device, type the device for every row, or add a sidecar with its "
    "hardware"
)


def devices(raw: pd.DataFrame, m: ImportMapping, constants: dict[str, str]) -> pd.DataFrame:
    """device_label, device_count, hardware_key, variant, note and system for each row."""
    raw = hosts_where_no_accelerator(raw, m.column("device"), m.column("count"))  # MLPerf: CPU-only systems
    system = text_role(raw, m, "system", constants)
    device = text_role(raw, m, "device", constants)
    names = system if system is not None else device
    if names is None:
        raise CsvError(NO_DEVICE)
    if names.isna().any():
        column = m.column("system") or m.column("device")
        raise first_bad(raw, names.isna(), column, "the system/device is empty (got {raw})")
    rules = m.system_rules if system is not None else []
    parsed = systems.parse_systems(names, rules, m.system_fixes)
    parsed["system"] = names
    count = number_role(raw, m, "count", constants, whole=True)
    if count is not None:
        parsed["device_count"] = count.round().astype("Int64").fillna(parsed["device_count"])
    nodes = number_role(raw, m, "nodes", constants, whole=True)
    if nodes is not None:  # MLPerf: accelerators_per_node × number_of_nodes
        parsed["device_count"] = parsed["device_count"] * nodes.round().astype("Int64").fillna(1)
    elif system is None and count is None and len(raw) == 1 and m.column("device"):
        # One run's report naming a device's own name with no count (`NVIDIA GeForce RTX 4090`, as
        # torch.cuda.get_device_name prints it) ran on one device; a table comparing devices (`gpu`: V100, T4), a
        # system's name (`dgxh100`) or a name that is no device says nothing of the count; nor does a device read from
        # the file's name or typed for every row (a LoadGen summary saved under `rtx4090_…` ran on two).
        one = names.map(one_device).astype(bool) & parsed["device_count"].isna()
        parsed["device_count"] = parsed["device_count"].astype("Int64").mask(one, 1)
    return parsed


def count_said(m: ImportMapping, side: dict[str, str], dims: pd.DataFrame) -> list[str]:
    """Where the device count comes from: a rate per device divides by it once (a per-GPU header never)."""
    if not dims["device_count"].notna().any():
        return []
    if m.column("count"):
        where = f"column {m.column('count')!r}" + (f" × column {m.column('nodes')!r}" if m.column("nodes") else "")
    elif "count" in side:
        where = "the sidecar"
    elif "count" in m.constants:
        where = "the count given for every row"
    elif m.column("system") or m.column("device"):
        where = f"the names in column {(m.column('system') or m.column('device'))!r}"
    else:
        where = "the device given for every row" + (" (from the sidecar)" if "system" in side else "")
    return [f"device count from {where}: rates per device divide by it once"]


def one_device(name: str) -> bool:
    """Whether a name is one device's own (`NVIDIA GeForce RTX 4090`, as torch.cuda.get_device_name prints it):
    a device with nothing before or after it — not a platform (`gpu-v100-8`, `1xMI300X`) nor a TPU, which is
    always named by its slice (`tpu-v3-32`: 32 cores)."""
    p = parse_system(name)
    plain = p.device_count is None and not p.provider and not p.variant
    return names_device(name) and plain and "tpu" not in p.device_model.lower()
