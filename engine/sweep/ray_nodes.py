"""One cell across several Ray nodes (`engine sweep --on ray://… --processes N --nodes M`, issue 30 item 3).

The driver reserves a placement group of M bundles, one per node (STRICT_SPREAD: no two on one node), each with
what N ÷ M ranks need, and starts `run_cell_on_nodes` in bundle 0. That task picks rank 0's rendezvous on its
node (`IP:free port`), starts a follower task in every other bundle (engine.worker.launch.follower through
`follow_node`), and runs the cell's ordinary worker with the node plan in its environment: the same launchers as a
one-host run start ranks node by node (torch's elastic agent with the static rendezvous, i.e. `torchrun --nnodes M
--node-rank i --master-addr …`; `jax.distributed` with the coordinator on node 0). Once the worker has ended, the
followers' rank files are merged into the stored row (every rank's median step, the slowest rank and its node)
or, on a failure, their reasons are added to the row's error; a follower still running then is cancelled, which
ends its ranks (they die with their agent). Imported by Ray workers, so it imports Ray only inside functions.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import asdict, replace
from typing import Any

from engine import settings
from engine.catalog.nodes import AGENT_PID, FOLLOWER_RESULT, NodePlan, cell_nodes
from engine.catalog.replicas import UNKNOWN_GPU_COUNT
from engine.catalog.specs import spec_from_dict, spec_to_dict
from engine.results.status import ACTIVE_STATUSES, RunStatus
from engine.runs.processes import die_with_parent
from engine.runs.store import Store
from engine.sweep.dispatch import PlannedCell
from engine.sweep.matrix import Cell

FOLLOWER_GRACE_S = 60.0  # after a good run the followers' ranks end with rank 0's; past this they are cancelled
FAILED_GRACE_S = 5.0  # after a failed run: long enough for a follower to write why its ranks ended


def nodes_of(cell: Cell, nodes: int) -> int:
    return cell_nodes(int(cell.request.get("processes", 1)), nodes)


def per_node_cell(cell: Cell, nodes: int) -> Cell:
    """The cell as one node sees it: N ÷ M of its processes and their share of the global batch (what one bundle
    must hold, and what the memory estimate of one node is checked on)."""
    procs, batch = int(cell.request.get("processes", 1)), int(cell.request.get("batch_size", 0) or 0)
    share = {"processes": procs // nodes, **({"batch_size": batch // nodes} if batch and nodes > 1 else {})}
    return replace(cell, request={**cell.request, **share})


def bundle_of(options: dict[str, Any]) -> dict[str, float]:
    """A placement-group bundle from one node's Ray task options (engine.sweep.ray_dispatch.cell_resources)."""
    out = {"CPU": float(options.get("num_cpus", 0)), "GPU": float(options.get("num_gpus", 0))}
    return {k: v for k, v in {**out, **options.get("resources", {})}.items() if v}


def submit(ray: Any, p: PlannedCell, options: dict[str, Any], nodes: int, db_setting: str) -> tuple[Any, Any]:
    """Reserve M bundles and start the cell's first node in bundle 0: (the task's ref, the placement group)."""
    from ray.util.placement_group import placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    bundle = bundle_of(options)
    pg = placement_group([bundle] * nodes, strategy="STRICT_SPREAD", name=f"accelbench-{p.run_id}")
    first = {k: v for k, v in options.items() if k in ("num_cpus", "num_gpus", "resources", "runtime_env")}
    first["scheduling_strategy"] = PlacementGroupSchedulingStrategy(pg, placement_group_bundle_index=0)
    task = ray.remote(max_retries=0)(run_cell_on_nodes)
    return task.options(**first).remote(p.run_id, p.cell.request, db_setting, pg, nodes, bundle), pg


def release(ray: Any, pg: Any) -> None:
    if pg is not None:
        ray.util.remove_placement_group(pg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


def run_cell_on_nodes(
    run_id: str, request: dict[str, Any], db_setting: str, pg: Any, nodes: int, bundle: dict[str, float]
) -> dict[str, Any]:
    """The Ray task of node 0: start the followers, run the cell's worker here, merge what the followers saw."""
    import ray
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    from engine.sweep import ray_task

    plan = NodePlan(nodes, 0, f"{ray.util.get_node_ip_address()}:{_free_port()}")
    follow = ray.remote(max_retries=0)(follow_node)
    resources = {k: v for k, v in bundle.items() if k not in ("CPU", "GPU")}
    refs = [
        follow.options(
            num_cpus=bundle.get("CPU", 0),
            num_gpus=bundle.get("GPU", 0),
            resources=resources,
            scheduling_strategy=PlacementGroupSchedulingStrategy(pg, placement_group_bundle_index=i),
        ).remote(run_id, request, db_setting, asdict(plan.for_node(i)))
        for i in range(1, nodes)
    ]
    os.environ.update(plan.to_env())  # the worker (and its launcher) started by run_cell inherit it
    where = {ref: bundle_address(ray, pg, i) for i, ref in enumerate(refs, start=1)}  # named while every node is up
    stop = threading.Event()
    watch = threading.Thread(target=_watch_followers, args=(ray, where, run_id, Store(db_setting), stop), daemon=True)
    watch.start()
    try:
        row = ray_task.run_cell(run_id, request, db_setting)
    except BaseException:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise
    finally:
        stop.set()
        watch.join()
    ok = row.get("status") == "ok"
    done, waiting = ray.wait(refs, num_returns=len(refs), timeout=FOLLOWER_GRACE_S if ok else FAILED_GRACE_S)
    for ref in waiting:
        ray.cancel(ref, force=True)
    followers = []
    for ref in done:
        try:
            followers.append(ray.get(ref))
        except ray.exceptions.RayError as exc:
            followers.append(task_failed(where[ref], exc))
    store = Store(db_setting)
    store.update_run(run_id, merged_update(row, followers, nodes, len(waiting)))
    return dict(store.get_run(run_id) or row)


def bundle_address(ray: Any, pg: Any, bundle: int) -> str:
    """The node that holds placement-group bundle `bundle`, named as `ray_task.node_name` names a node (its IP and
    the start of its id); "follower node i" if Ray cannot say."""
    try:
        node_id = ray.util.placement_group_table(pg)["bundles_to_node_id"][bundle]
        ip = next(str(n["NodeManagerAddress"]) for n in ray.nodes() if n["NodeID"] == node_id)
        return f"{ip} ({node_id[:8]})"
    except Exception:  # noqa: BLE001 — a name for a message; the run goes on without it
        return f"follower node {bundle}"


def task_failed(address: str, exc: BaseException) -> dict[str, Any]:
    """A follower whose Ray task failed (its node lost, its worker killed): its address and the exception's
    kind once — not Ray's several-hundred-character hint, which would be repeated in each part of the reason."""
    return {"node": address, "ranks": {}, "error": f"its Ray task failed ({type(exc).__name__})"}


def _watch_followers(ray: Any, where: dict, run_id: str, store: Store, stop: threading.Event) -> None:
    """While the first node's worker runs: a follower whose ranks failed fails the run at once, with its reason —
    the first node's ranks would otherwise wait on their lost peer in a collective until a long timeout. The
    runner (engine.sweep.runner) sees the status and stops the worker."""
    pending = list(where)
    while pending and not stop.is_set():
        done, pending = ray.wait(pending, num_returns=1, timeout=1.0)
        for ref in done:
            try:
                result = ray.get(ref)
            except ray.exceptions.RayError as exc:
                result = task_failed(where[ref], exc)
            if result.get("error"):
                why = f"on {result['node']}: {result['error']}"
                store.update_run(run_id, {"status": RunStatus.FAILED, "error": why}, only_if_status=ACTIVE_STATUSES)


def follow_node(run_id: str, request: dict[str, Any], db_setting: str, plan: dict[str, Any]) -> dict[str, Any]:
    """The Ray task of node i > 0: this node's ranks through engine.worker.launch.follower; what they left."""
    from engine.sweep.ray_task import node_name

    node_plan = NodePlan(**plan)
    run_dir = Store(db_setting).runs_dir / run_id / f"node{node_plan.node_rank}"
    run_dir.mkdir(parents=True, exist_ok=True)
    spec = spec_from_dict(request, gpu_count=UNKNOWN_GPU_COUNT)
    (run_dir / "spec.json").write_text(json.dumps(spec_to_dict(spec), indent=2))
    env = {**os.environ, **node_plan.to_env(), AGENT_PID: str(os.getpid()), "ACCELBENCH_DB": db_setting}
    with (run_dir / "log.txt").open("ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "engine.worker.launch.follower", str(run_dir)],
            cwd=settings.ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )
    try:
        code = proc.wait()
    except KeyboardInterrupt:  # ray.cancel of this task: its follower (and that one's ranks) stop with it
        proc.send_signal(signal.SIGKILL)
        raise
    result_file = run_dir / FOLLOWER_RESULT
    if result_file.exists():
        result = json.loads(result_file.read_text())
    else:
        result = {"ranks": {}, "error": f"its follower exited with code {code} without a result (log: {run_dir})"}
    return {**result, "node": node_name()}


def merged_update(row: dict[str, Any], followers: list[dict[str, Any]], nodes: int, cancelled: int) -> dict:
    """The stored row's columns once the followers are known: every node, every rank's median step and the
    slowest rank (a good run); the followers' reasons added to the error (a failed one)."""
    names = [str(row.get("node") or "node 0"), *(str(f.get("node")) for f in followers)]
    update: dict[str, Any] = {"node": "; ".join(names)}
    if row.get("launcher"):
        update["launcher"] = f"{row['launcher']}, across {nodes} Ray nodes"
    if row.get("status") != "ok":
        said = str(row.get("error") or "")
        why = [w for f in followers if f.get("error") and (w := f"on {f['node']}: {f['error']}") not in said]
        if cancelled:
            why.append(f"{cancelled} follower node(s) still running were stopped")
        if why:
            update["error"] = f"{row.get('error') or 'the run failed'}; {'; '.join(why)}"
        return update
    medians = str(row.get("rank_step_ms_median") or "").split()
    where = {r: names[0] for r in range(len(medians))}
    for f in followers:
        for r, payload in f.get("ranks", {}).items():
            if int(r) < len(medians) and payload.get("step_ms_median") is not None:
                medians[int(r)] = f"{payload['step_ms_median']:.3f}"
                where[int(r)] = str(f["node"])
    known = [(float(m), r) for r, m in enumerate(medians) if m != "-"]
    if known:
        slowest = max(known)[1]
        update |= {"rank_step_ms_median": " ".join(medians), "slowest_rank": slowest}
        update["notes"] = (
            f"{row.get('notes') or ''}; across {nodes} Ray nodes ({'; '.join(names)}): every rank's median step "
            f"{' '.join(medians)} ms, slowest rank {slowest} on {where[slowest]}"
        )
    return update
