"""A follower node's Ray task that failed (its node lost) is named by its address in the run's reason, once, with
the exception's kind — not "a follower node" and not Ray's several-hundred-character hint twice (issue 37)."""

from __future__ import annotations

from engine.sweep.ray_nodes import merged_update, task_failed

ADDRESS = "10.0.0.7 (3f2a9c1e)"
RAY_HINT = "The node with node id 3f2a9c1e… has died. " + "Check the raylet logs and the dashboard; " * 15


class NodeDiedError(RuntimeError):
    """Stands in for ray.exceptions.NodeDiedError: only its name and its long message matter here."""


def test_a_lost_follower_is_named_by_address_once_without_rays_hint():
    lost = task_failed(ADDRESS, NodeDiedError(RAY_HINT))
    assert lost == {"node": ADDRESS, "ranks": {}, "error": "its Ray task failed (NodeDiedError)"}
    # the watcher failed the run with this follower's reason while node 0's worker ran; then the merge
    first = f"on {ADDRESS}: {lost['error']}"
    row = {"status": "failed", "error": first, "node": "10.0.0.5 (aa11bb22)", "launcher": "torchrun"}
    update = merged_update(row, [lost], nodes=2, cancelled=0)
    assert update["node"] == f"10.0.0.5 (aa11bb22); {ADDRESS}"
    assert update.get("error", first).count(ADDRESS) == 1 and "raylet" not in update.get("error", first)
