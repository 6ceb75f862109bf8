"""What a Ray task runs on its node: one stored cell, through the engine's own worker, into the store
named by the driver (`ACCELBENCH_DB` as the driver's store gives it: a team's PostgreSQL URL, or a
SQLite file on a one-machine cluster). Imported by Ray workers, so it imports Ray only inside."""

from __future__ import annotations

import os
from typing import Any

from engine.runs.store import Store
from engine.sweep.runner import run_stored


def node_name() -> str:
    """This Ray node as the store names it: its IP and the start of its node id."""
    import ray

    return f"{ray.util.get_node_ip_address()} ({ray.get_runtime_context().get_node_id()[:8]})"


def run_cell(run_id: str, request: dict[str, Any], db_setting: str) -> dict[str, Any]:
    """Run the stored cell `run_id` here; its worker dies with this Ray worker (a lost node loses both)."""
    os.environ["ACCELBENCH_DB"] = db_setting  # this Ray worker now serves that store (its run folders follow it)
    store = Store(db_setting)
    return dict(run_stored(run_id, request, store, node=node_name(), die_with_parent=True))
