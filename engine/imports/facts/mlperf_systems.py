"""MLPerf's system description convention (the `systems/<name>.json` every MLPerf submission carries and its results
tables repeat: accelerator_model_name, accelerators_per_node, host_processor_model_name, host_processors_per_node,
number_of_nodes): the device is the accelerator; a system with no accelerator (accelerators_per_node 0, its name
empty or N/A) runs on its host CPU, counted host_processors_per_node per node; where the host is unnamed too the
system's own name names it (Fugaku's `fugaku_A64FX_tensorflow`), once per node. One definition for MLPerf logs
(engine.imports.read.mllog) and the submission checker's tables (engine.imports.identity.devices).

Pure Python + pandas; no streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

ACCELERATOR, PER_NODE = "accelerator_model_name", "accelerators_per_node"
HOST, HOSTS_PER_NODE = "host_processor_model_name", "host_processors_per_node"
_SYSTEM_NAMES = ("system_name", "systemname")  # the system description's key; the checker's table says SystemName
# What submitters write for a part their system does not have or did not name (the checker's summary: N/A, undefined).
_UNNAMED = frozenset({"", "-", "n/a", "na", "nan", "none", "null", "undefined", "unknown"})


def named(value: Any) -> bool:
    """Whether a description's field names something (not empty, N/A, undefined …)."""
    return value is not None and str(value).strip().lower() not in _UNNAMED


def _number(value: Any) -> float | None:
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def no_accelerator(desc: Mapping[str, Any]) -> bool:
    """A CPU-only system: accelerators_per_node 0 and no accelerator named."""
    return _number(desc.get(PER_NODE)) == 0 and not named(desc.get(ACCELERATOR))


def device_of(desc: Mapping[str, Any]) -> tuple[str | None, Any]:
    """(device name, devices per node) of a system description: the accelerator's as given; for a system with no
    accelerator, the host CPU's (host_processors_per_node, 1 when unsaid), or None (the system's name names it) and
    1 per node when the host is unnamed too."""
    if not no_accelerator(desc):
        return desc.get(ACCELERATOR), desc.get(PER_NODE)
    if named(desc.get(HOST)):
        return str(desc[HOST]).strip(), _number(desc.get(HOSTS_PER_NODE)) or 1
    return None, 1


def _leaf(column: str) -> str:
    return str(column).split(".")[-1].lower()


def hosts_where_no_accelerator(raw: pd.DataFrame, device: str | None, count: str | None) -> pd.DataFrame:
    """A table of system descriptions (one per row) with the device and count columns of its CPU-only rows read by
    `device_of`: the host CPU and its count, else the system's name once per node. Other tables come back as they are."""
    if not device or _leaf(device) != ACCELERATOR or not count or _leaf(count) != PER_NODE:
        return raw
    leaves = {_leaf(c): c for c in raw.columns}
    system = next((leaves[k] for k in _SYSTEM_NAMES if k in leaves), None)
    fields = {k: leaves[k] for k in (HOST, HOSTS_PER_NODE) if k in leaves} | {ACCELERATOR: device, PER_NODE: count}
    rows = [{k: raw.at[i, c] for k, c in fields.items()} for i in raw.index]
    read = [device_of(r) if no_accelerator(r) else None for r in rows]
    if not any(read):
        return raw
    out = raw.copy()
    for i, found in zip(raw.index, read, strict=True):
        if found:
            name, per_node = found
            out.at[i, device] = name or (str(raw.at[i, system]) if system else raw.at[i, device])
            out.at[i, count] = str(int(per_node)) if float(per_node) % 1 == 0 else str(per_node)
    return out
