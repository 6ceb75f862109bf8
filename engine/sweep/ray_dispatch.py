"""`--on ray` / `--on ray://HOST:PORT`: each cell a Ray task that asks for the device it needs
(`num_gpus=1` for a GPU cell, the custom resource `accelerator_type:KIND` for `gpu:KIND`, CPUs for a
CPU cell) and runs the engine's worker on its node (engine.sweep.ray_task). Tasks are never retried: a
cell is timed once, and a lost one is recorded `interrupted` with the node named. A head lost mid-sweep ends
every cell still under way with why (`interrupted` or `cancelled`), and the sweep prints its summary. Each cell
gets `engine run`'s checks before anything is sent, its memory estimate against the nodes' memory.

Ray is optional: without it, `--on ray` says how to install it (RAY_INSTALL) and nothing starts.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import time
from typing import Any

from engine import settings
from engine.catalog.demo import check_demo_caps
from engine.catalog.framework_support import extra_install_command
from engine.catalog.memory import memory_problem
from engine.catalog.nodes import nodes_problem
from engine.catalog.replicas import UNKNOWN_GPU_COUNT, resolve_strategy
from engine.catalog.specs import SpecError, TrainSpec, spec_from_dict
from engine.catalog.tf_config import parse_tf_config
from engine.results.schema import ResultRow
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs.store import Store
from engine.sweep import ray_log, ray_nodes, status
from engine.sweep.dispatch import OnDone, PlannedCell
from engine.sweep.matrix import Cell, SweepError

RAY_INSTALL = extra_install_command("ray")  # a wheel's accelbench[ray], a checkout's requirements-test.txt pin
WAIT_S = 0.5
CONNECT_TRIES, CONNECT_PAUSE_S = 3, 2.0
# Ray's convention for "a node of this kind", as `@ray.remote(accelerator_type=...)` asks for it
ACCELERATOR_SHARE = 0.001
_CLIENT_ADDRESS = re.compile(r"ray://(?P<host>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>\d{1,5}))?/?")
HEAD_LOST_QUEUED = "the Ray head went away before this cell started"


def address_problem(on: str) -> str | None:
    """Why `--on ray://…` is no client address (checked before Ray is imported or anything is stored), or None."""
    if on == "ray":
        return None
    m = _CLIENT_ADDRESS.fullmatch(on)
    if m is None or not 0 < int(m["port"] or 10001) < 65536:
        return (
            f"--on {on}: names no Ray head — use ray://HOST:PORT (the head's --ray-client-server-port, "
            "e.g. ray://head.example:10001), or --on ray for RAY_ADDRESS / a head started on this machine"
        )
    return None


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SweepError(
            f"--on ray needs Ray, which is not installed here; install it with: {RAY_INSTALL} (here and on every node), "
            "or use --on local"
        ) from None
    return ray


def _connect(ray: Any, address: str) -> None:
    """`ray.init`, retried where a busy head's Ray Client server refused the session before it started.

    The client server starts one process per client; on a loaded head that start can fail once with an
    empty "Initialization failure from server" (seen on a 2-core machine); a second try a moment later works.
    Any other failure is reported at once."""
    for attempt in range(CONNECT_TRIES):
        try:
            ray.init(address=address, log_to_driver=False)
            return
        except ConnectionError as exc:  # Ray raises ConnectionAbortedError for it
            if "Initialization failure" not in str(exc) or attempt == CONNECT_TRIES - 1:
                raise
            ray.shutdown()
            pause_s = CONNECT_PAUSE_S * (attempt + 1)
            print(
                f"--on: the Ray head refused the session while starting it; trying again in {pause_s:g} s",
                file=sys.stderr,
            )
            time.sleep(pause_s)


def cell_resources(cell: Cell, cpus_per_cell: float) -> dict[str, Any]:
    """The Ray task options that make a cell land on a node with what it needs."""
    # a CPU cell's device is its node's CPU: it asks for cpus_per_cell (by default a whole node, so no other
    # cell shares its cores); a GPU/TPU cell needs one CPU to feed its device and must not block the node's others
    procs = int(cell.request.get("processes", 1))  # `--processes N` runs its N processes on the one node
    options: dict[str, Any] = {"num_cpus": max(cpus_per_cell, procs) if cell.target.device == "cpu" else procs}
    if cell.target.device == "gpu":
        options["num_gpus"] = procs  # one GPU per process: never two timed runs on one device
    resources: dict[str, float] = {}
    if cell.target.device == "tpu":
        resources["TPU"] = 1
    if cell.target.accelerator:
        resources[f"accelerator_type:{cell.target.accelerator}"] = ACCELERATOR_SHARE
    if resources:
        options["resources"] = resources
    return options


def node_memory_bytes(node: dict[str, Any]) -> float:
    """A Ray node's memory as it started: what its tasks may use plus its object store (Ray splits the
    node's available memory between the two), i.e. about what `engine run` on that node would see."""
    return float(node["Resources"].get("memory", 0) + node["Resources"].get("object_store_memory", 0))


def _link_errors() -> tuple[type[BaseException], ...]:
    """What Ray Client raises when its head is gone: ConnectionError("Client is shutting down."), or gRPC's error."""
    grpc = importlib.import_module("grpc")  # installed with Ray (untyped)
    return (ConnectionError, grpc.RpcError)


class RayDispatcher:
    """Runs cells as Ray tasks on a cluster: `address` is a `ray://HOST:PORT` client address, a
    cluster address, or None for RAY_ADDRESS / a cluster started on this machine (`ray start --head`).
    A process that has already called `ray.init` (a test's in-process head) is used as it is."""

    name = "ray"

    def __init__(self, address: str | None = None, cpus_per_cell: float | None = None, nodes: int = 1) -> None:
        self.address = address
        self.nodes = nodes  # `--nodes M`: a multi-process cell spreads over M nodes (engine.sweep.ray_nodes)
        self._pgs: dict[Any, Any] = {}
        self.cpus_per_cell = cpus_per_cell or 1.0  # None: set by `open` to the smallest node's CPU count
        self._whole_node = cpus_per_cell is None
        self._ray = import_ray()
        self._refs: dict[Any, PlannedCell] = {}
        self._store: Store | None = None
        self._node_list: list[dict[str, Any]] = []

    def open(self, store: Store) -> None:
        """Connect to the cluster; refuse a SQLite store when the cluster has nodes on other machines."""
        ray = self._ray
        ray_log.keep_in_log(ray_log.log_path(store))  # before Ray Client starts its threads
        if not ray.is_initialized():
            try:
                _connect(ray, self.address or os.environ.get("RAY_ADDRESS") or "auto")
            except (ConnectionError, RuntimeError, ValueError) as exc:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise SweepError(
                    f"--on: cannot reach the Ray cluster ({first[:200]}) — is `ray start --head` running? (a head "
                    "that uses token authentication needs RAY_AUTH_MODE=token and its token in ~/.ray/auth_token)"
                ) from None
        here = ray.util.get_node_ip_address()
        self._node_list = [n for n in ray.nodes() if n.get("Alive")]  # read once: every cell is checked against it
        cpus = [n["Resources"].get("CPU", 0) for n in self._node_list if n["Resources"].get("CPU", 0) > 0]
        if self._whole_node and cpus:
            self.cpus_per_cell = min(cpus)  # a CPU cell gets a whole (smallest) node: honest CPU timing
        others = sorted({n["NodeManagerAddress"] for n in self._nodes()} - {here})
        if store.path is not None and others:
            raise SweepError(
                f"the Ray cluster has nodes on other machines ({', '.join(others)}) but ACCELBENCH_DB is the SQLite "
                f"file {store.path} on this one — point ACCELBENCH_DB at the team's postgresql://… store"
            )

    def _nodes(self) -> list[dict[str, Any]]:
        """The cluster's live nodes as `open` found them."""
        return self._node_list

    def problem(self, cell: Cell) -> str | None:
        """The checks of `engine run` (engine.runs.jobs.prepare) for a cell that runs on a Ray node: the fields and
        their combinations, demo caps, TF_CONFIG, a node with the device it asks for in place of this machine's
        devices, and the memory estimate (engine.catalog.memory.memory_problem) against that node's memory."""
        try:
            spec = spec_from_dict(cell.request, gpu_count=UNKNOWN_GPU_COUNT)  # devices are the nodes' business
            if settings.demo_mode():
                check_demo_caps(spec)
            if isinstance(spec, TrainSpec) and resolve_strategy(spec, 1) == "multi_worker":
                parse_tf_config(os.environ.get("TF_CONFIG"))
        except SpecError as exc:
            return str(exc)
        procs, nodes = int(cell.request.get("processes", 1)), ray_nodes.nodes_of(cell, self.nodes)
        if why := nodes_problem(procs, self.nodes, str(cell.request.get("backend", ""))):
            return why
        need = cell_resources(ray_nodes.per_node_cell(cell, nodes), self.cpus_per_cell)
        wanted = {"CPU": need["num_cpus"], "GPU": need.get("num_gpus", 0), **need.get("resources", {})}
        fits = [n for n in self._nodes() if all(n["Resources"].get(k, 0) >= v for k, v in wanted.items() if v)]
        if fits and len(fits) < nodes:
            return f"--nodes {nodes}: {procs} processes over {nodes} nodes need {nodes} nodes that each hold {procs // nodes}; the Ray cluster has {len(fits)}"
        if not fits:
            have = "; ".join(
                f"{n['NodeManagerAddress']}: "
                + ", ".join(
                    f"{k} {v:g}"
                    for k, v in sorted(n["Resources"].items())
                    if not k.startswith(("node:", "memory", "object_store"))
                )
                for n in self._nodes()
            )
            asks = ", ".join(f"{k} {v:g}" for k, v in wanted.items() if v)
            return f"--devices {cell.target.name}: no node of the Ray cluster has {asks} (nodes: {have or 'none'})"
        biggest = max(fits, key=node_memory_bytes)
        if nodes > 1:  # each node holds its N ÷ M ranks and their share of the batch
            spec = spec_from_dict(ray_nodes.per_node_cell(cell, nodes).request, gpu_count=UNKNOWN_GPU_COUNT)
        too_big = memory_problem(spec, node_memory_bytes(biggest)) if node_memory_bytes(biggest) else None
        if too_big is not None:
            return (
                f"{too_big} (the machine: Ray node {biggest['NodeManagerAddress']}, the largest that can hold the cell)"
            )
        return None

    def run(self, planned: list[PlannedCell], store: Store, on_done: OnDone) -> None:
        from engine.sweep import ray_task

        ray = self._ray
        self._store = store
        remote = ray.remote(max_retries=0)(ray_task.run_cell)
        # the nodes import engine from the same checkout path as this machine (see DEPLOY.md)
        runtime_env = {"env_vars": {"PYTHONPATH": os.environ.get("ACCELBENCH_RAY_PYTHONPATH") or str(settings.ROOT)}}
        for p in planned:
            if (nodes := ray_nodes.nodes_of(p.cell, self.nodes)) > 1:  # one cell over M nodes: a placement group
                one = {**cell_resources(ray_nodes.per_node_cell(p.cell, nodes), self.cpus_per_cell)}
                ref, self._pgs[p.run_id] = ray_nodes.submit(
                    ray, p, {**one, "runtime_env": runtime_env}, nodes, store.worker_setting
                )
            else:
                options = {**cell_resources(p.cell, self.cpus_per_cell), "runtime_env": runtime_env}
                ref = remote.options(**options).remote(p.run_id, p.cell.request, store.worker_setting)
            self._refs[ref] = p
        while self._refs:
            try:
                done, _ = ray.wait(list(self._refs), num_returns=1, timeout=WAIT_S)
                ended = [(ref, self._result(ref, self._refs[ref], store)) for ref in done]
            except _link_errors() as exc:  # not a cell's error: the client lost the head (after its reconnect grace)
                self._head_lost(exc, store, on_done)
                return
            for ref, row in ended:
                p = self._refs.pop(ref)
                ray_nodes.release(ray, self._pgs.pop(p.run_id, None))
                on_done(p, row)

    def _head_lost(self, exc: BaseException, store: Store, on_done: OnDone) -> None:
        """The Ray head went away mid-sweep: every cell still under way ends with why — a running one
        `interrupted` naming its node (its worker dies with the node's Ray), a queued one `cancelled`."""
        why = f"{type(exc).__name__}: {str(exc).strip()[:160] or 'no message'}"
        print(
            f"--on: lost the Ray head mid-sweep ({why}); ending the {len(self._refs)} cell(s) still under way "
            f"(Ray Client's own messages: {ray_log.log_path(store)})",
            file=sys.stderr,
        )
        for p in list(self._refs.values()):
            row = store.get_run(p.run_id) or {}
            if row.get("status") == RunStatus.RUNNING:
                node = row.get("node") or "a node that never reported"
                ended = f"the Ray head went away while the cell ran on node {node}; its worker was lost with it ({why})"
                store.update_run(
                    p.run_id, {"status": RunStatus.INTERRUPTED, "error": ended}, only_if_status=ACTIVE_STATUSES
                )
            else:
                ended = f"{HEAD_LOST_QUEUED} ({why})"
                store.update_run(
                    p.run_id, {"status": RunStatus.CANCELLED, "error": ended}, only_if_status=ACTIVE_STATUSES
                )
            on_done(p, store.get_run(p.run_id) or {})
        self._refs.clear()

    def _result(self, ref: Any, p: PlannedCell, store: Store) -> ResultRow:
        ray = self._ray
        try:
            return ray.get(ref)
        except ray.exceptions.TaskCancelledError:
            status.cancel_runs([p.run_id], store)
        except ray.exceptions.RayTaskError as exc:  # our own code raised on the node: a failed cell, with why
            store.update_run(
                p.run_id,
                {"status": RunStatus.FAILED, "error": f"the Ray task failed: {str(exc.cause)[:300]}"},
                only_if_status=ACTIVE_STATUSES,
            )
        except ray.exceptions.RayError as exc:  # the worker process or its node was lost
            node = (store.get_run(p.run_id) or {}).get(
                "node"
            ) or "a node that never reported (lost before the cell started)"
            store.update_run(
                p.run_id,
                {
                    "status": RunStatus.INTERRUPTED,
                    "error": f"the Ray worker running it was lost on node {node} ({type(exc).__name__})",
                },
                only_if_status=ACTIVE_STATUSES,
            )
        return store.get_run(p.run_id) or {}

    def cancel(self) -> None:
        """Mark every run still under way `cancelled` (first: a head that is gone must not leave them queued), then
        cancel its Ray task; the runner on the node also sees the store's `cancelled` and stops its worker."""
        if self._store is not None:
            status.cancel_runs([p.run_id for p in self._refs.values()], self._store)
        for ref in list(self._refs):
            try:
                self._ray.cancel(ref)  # not forced: a running task gets KeyboardInterrupt and stops its worker
            except _link_errors():  # the head is gone: nothing left to cancel there
                break
