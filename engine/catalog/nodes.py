"""A multi-process run spread over several hosts (`engine sweep --on ray://… --processes N --nodes M`): which
ranks this host starts and where rank 0's rendezvous is. The Ray task on the first node (engine.sweep.ray_nodes)
writes the plan into ACCELBENCH_NODE_PLAN for its worker and for each other node's follower
(engine.worker.launch.follower); the launchers (engine.worker.launch) read it. Facts and
parsing only, so the sweep's driver and the worker share them. Without the variable a run is on one host, as before.

Ranks are laid out node by node: node i starts global ranks [i·k, (i+1)·k) with k = N ÷ M, so rank 0 — whose
clock gives the run's rate and whose file holds the row — is always on the first node.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass

NODE_PLAN = "ACCELBENCH_NODE_PLAN"
AGENT_PID = "ACCELBENCH_AGENT_PID"  # the process a rank (or a follower) dies with
FOLLOWER_RESULT = "follower.json"  # what a follower node leaves in its run folder: its ranks' files, or why not
MULTI_NODE_BACKENDS = ("torch", "jax")  # TensorFlow's TF_CONFIG needs every worker's port ahead: not across nodes


@dataclass(frozen=True)
class NodePlan:
    """Where one run's ranks are.

    Attributes:
      nodes: hosts in the run (M).
      node_rank: this host's place, 0 = the host of rank 0 and of the rendezvous.
      coordinator: `HOST:PORT` of the rendezvous on node 0 (torch's c10d store, jax.distributed's coordinator).
    """

    nodes: int
    node_rank: int
    coordinator: str

    def local_ranks(self, world: int) -> range:
        """The global ranks this host starts."""
        k = world // self.nodes
        return range(self.node_rank * k, (self.node_rank + 1) * k)

    def for_node(self, node_rank: int) -> NodePlan:
        return NodePlan(self.nodes, node_rank, self.coordinator)

    def to_env(self) -> dict[str, str]:
        return {NODE_PLAN: json.dumps(asdict(self))}


def plan_from_env() -> NodePlan | None:
    """This process's plan, or None for a run on one host."""
    raw = os.environ.get(NODE_PLAN)
    if not raw:
        return None
    d = json.loads(raw)
    return NodePlan(int(d["nodes"]), int(d["node_rank"]), str(d["coordinator"]))


def cell_nodes(processes: int, nodes: int) -> int:
    """The hosts a cell of `processes` ranks spreads over under `--nodes M`: one process stays on one host (the
    scaling sweep's baseline), any other count is split over all M."""
    return 1 if processes == 1 else nodes


def nodes_problem(processes: int, nodes: int, backend: str) -> str | None:
    """Why `--nodes M` cannot carry a cell of `processes` ranks on `backend` (None: it can)."""
    if cell_nodes(processes, nodes) == 1:
        return None
    if backend not in MULTI_NODE_BACKENDS:
        return (
            f"--nodes {nodes}: cells across hosts run with --backends {' or '.join(MULTI_NODE_BACKENDS)}, not {backend}"
        )
    if processes % nodes:
        return f"--nodes {nodes}: --processes {processes} does not split evenly over {nodes} nodes; use a multiple of {nodes}"
    return None
