"""The memory pre-check of a `--processes N` run (issue 30): N ranks on one host share its memory, each with its own
runtime, a full model replica and its share of the global batch — the host check takes all N; on a GPU host each
rank has a GPU of its own — the GPU check takes one rank."""

from __future__ import annotations

from conftest import run_cli

from engine.catalog.memory import (
    MODEL_SIZES,
    TF_RUNTIME_BYTES,
    estimate_bytes,
    estimate_bytes_per_process,
    fmt_bytes,
    memory_problem,
)
from engine.catalog.specs import SpecError, TrainSpec, spec_from_dict
from engine.runs.store import Store

GB = 2**30


def _spec(processes: int, batch: int, **extra) -> TrainSpec:
    raw = {"kind": "train", "model": "resnet50", "dataset": "synthetic", "backend": "torch", **extra}
    spec = spec_from_dict({**raw, "processes": processes, "batch_size": batch}, gpu_count=2)
    assert isinstance(spec, TrainSpec)
    return spec


def test_each_process_holds_a_replica_and_its_share_of_the_batch():
    one, two = _spec(1, 256), _spec(2, 256)
    assert estimate_bytes(one) == estimate_bytes_per_process(one)  # one process: as before
    assert estimate_bytes_per_process(two) == estimate_bytes_per_process(_spec(1, 128))  # a rank: half the batch
    assert estimate_bytes(two) == 2 * estimate_bytes_per_process(two)
    # the same global batch over 2 processes: one more runtime and one more replica (weights, gradients, Adam)
    assert estimate_bytes(two) - estimate_bytes(one) == TF_RUNTIME_BYTES + MODEL_SIZES["resnet50"][0] * 16


def test_the_host_check_counts_every_process_and_says_so():
    one, two = _spec(1, 64), _spec(2, 64)
    between = (estimate_bytes(one) + estimate_bytes(two)) / 2
    assert memory_problem(one, between) is None
    problem = memory_problem(two, between)
    assert isinstance(problem, SpecError) and problem.field == "--processes"  # one process would fit
    each = fmt_bytes(estimate_bytes_per_process(two))
    assert f"needs about {fmt_bytes(estimate_bytes(two))} of memory (estimate: 2 processes × about {each} each)" in (
        problem.message
    )
    assert "use fewer processes or a smaller batch" in problem.message

    too_big = memory_problem(two, estimate_bytes(one) - 1)  # not even one process fits: the batch is the field
    assert isinstance(too_big, SpecError) and too_big.field == "--batch-size"
    assert "2 processes × about" in too_big.message and "use a smaller batch" in too_big.message


def test_the_gpu_check_is_per_process():
    """resnet50 at a global batch of 64 needs ~6.3 GB of GPU memory in one process; 2 ranks, each on its own GPU,
    ~3.4 GB each: a 6 GB GPU refuses the first and holds the second, a 3 GB one refuses both."""
    one, two = _spec(1, 64, device="gpu"), _spec(2, 64, device="gpu")
    lots = 1024 * GB
    assert memory_problem(one, lots, gpu_memory_mb=6 * 1024) is not None
    assert memory_problem(two, lots, gpu_memory_mb=6 * 1024) is None
    problem = memory_problem(two, lots, gpu_memory_mb=3 * 1024)
    assert isinstance(problem, SpecError) and problem.field == "--batch-size"
    on_gpu = fmt_bytes(estimate_bytes_per_process(two) - TF_RUNTIME_BYTES)
    assert f"each of its 2 processes needs about {on_gpu} of GPU memory (estimate) but each GPU has 3.0 GB" in (
        problem.message
    )
    # TensorFlow's --memory-limit-mb caps each worker's GPU the same way
    capped = _spec(2, 64, device="gpu", backend="tensorflow", memory_limit_mb=3072)
    assert memory_problem(capped, lots, gpu_memory_mb=80 * 1024) is not None


def test_python_m_engine_refuses_a_multi_process_run_that_cannot_fit_at_once(db):
    proc = run_cli(
        "run", "--model", "tiny_cnn", "--dataset", "synthetic", "--processes", "2", "--batch-size", "1000000",
        "--device", "cpu", timeout=300,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("accelbench: error: --batch-size: this run needs about ")
    assert "of memory (estimate: 2 processes × about " in lines[0] and " each) but the machine has " in lines[0]
    assert proc.stdout == ""
    assert not db.exists() or Store(db).count_runs() == 0


def test_a_one_process_run_reads_as_before():
    problem = memory_problem(_spec(1, 64), 1)
    assert isinstance(problem, SpecError) and "processes" not in problem.message
    assert problem.message.endswith("use a smaller batch or shape")


def test_a_run_spread_over_hosts_checks_each_host_for_its_own_processes():
    """4 processes over 2 hosts (a Ray cell with --nodes 2): each host holds 2 of them."""
    four = _spec(4, 64)
    room_for_two = 2 * estimate_bytes_per_process(four) + 1
    assert memory_problem(four, room_for_two) is not None  # all 4 on one host do not fit
    assert memory_problem(four, room_for_two, processes_on_host=2) is None
