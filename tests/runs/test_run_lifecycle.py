"""Real microbenchmark runs in real worker processes: ok, blocked, timeout, cancel, SIGKILL, stale deadline."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from conftest import last_json

from engine.catalog.specs import spec_from_dict
from engine.runs import jobs, processes
from engine.runs.progress import read_progress
from engine.runs.store import Store, wait_for

LONG_MATMUL = ["run", "--bench", "matmul", "--m", "1024", "--n", "1024", "--k", "1024", "--repeats", "5000"]


def test_matmul_runs_ok_with_every_micro_metric(cli, db):
    proc = cli("run", "--bench", "matmul", "--m", "256", "--n", "256", "--k", "256", "--repeats", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    row = last_json(proc.stdout)
    assert row["status"] == "ok" and row["kind"] == "matmul"
    assert row["step_time_ms_p10"] <= row["step_time_ms_median"] <= row["step_time_ms_p90"]
    assert row["gflops"] > 0 and row["peak_gflops"] > 0 and row["time_to_first_step_s"] > 0
    assert "device:CPU:0" in row["devices_used"]
    assert row["tf_version"].startswith("2.") and row["host_cores"] >= 1
    assert len(Store(db).get_series(row["run_id"], "repeat")) == 5
    assert Store(db).get_run(row["run_id"]) == row


def test_conv2d_in_blocks_says_so(cli, db):
    proc = cli(
        "run",
        "--bench",
        "conv2d",
        "--batch-size",
        "8",
        "--height",
        "32",
        "--width",
        "32",
        "--channels",
        "3",
        "--filters",
        "16",
        "--kernel-size",
        "5",
        "--repeats",
        "3",
        "--json",
        env={"ACCELBENCH_MAX_BLOCK_MB": "0.1"},
    )
    assert proc.returncode == 0, proc.stderr
    row = last_json(proc.stdout)
    assert row["status"] == "ok" and row["examples_per_sec"] > 0
    assert "blocks" in row["notes"]
    # 2 × 8 × 32 × 32 × 25 × 3 × 16 FLOPs per repeat
    assert row["gflops"] == pytest.approx(2 * 8 * 32 * 32 * 25 * 3 * 16 / (row["step_time_ms_median"] / 1000) / 1e9)


def test_timeout_is_recorded_and_kills_the_worker(cli, db):
    proc = cli(*LONG_MATMUL, "--timeout-s", "4", "--json")
    assert proc.returncode == 1
    row = last_json(proc.stdout)
    assert row["status"] == "timeout" and "4 s timeout" in row["error"]
    job = Store(db).get_job(row["run_id"])
    assert not processes.alive(job["pid"], job["pid_started"])


def _start_long(db) -> tuple[str, Store]:
    store = Store(db)
    spec = jobs.prepare({"kind": "matmul", "m": 1024, "n": 1024, "k": 1024, "repeats": 5000})
    run_id = jobs.launch(spec, store)
    assert wait_for(lambda: any(e.get("event") == "repeat" for e in read_progress(jobs.run_dir_of(run_id, store))), 60)
    assert store.get_run(run_id)["status"] == "running"
    return run_id, store


def test_cancel_records_cancelled_and_stops_the_process(cli, db):
    run_id, store = _start_long(db)
    proc = cli("cancel", run_id)
    assert proc.returncode == 0 and "cancelled" in proc.stdout
    job = store.get_job(run_id)
    assert wait_for(lambda: not processes.alive(job["pid"], job["pid_started"]), 10)
    assert store.get_run(run_id)["status"] == "cancelled"
    assert store.get_run(run_id)["total_s"] > 1  # the wall time it really ran (TensorFlow start-up included)
    assert cli("cancel", run_id).stdout.startswith(f"run {run_id} had already ended")


def test_sigkilled_worker_reads_interrupted(cli, db):
    run_id, store = _start_long(db)
    job = store.get_job(run_id)
    os.kill(job["pid"], signal.SIGKILL)
    assert wait_for(lambda: not processes.alive(job["pid"], job["pid_started"]), 10)
    row = json.loads(cli("results", "show", run_id, "--json").stdout)
    assert row["status"] == "interrupted" and "without a result" in row["error"]


def test_reconciler_stops_a_run_past_its_deadline(db):
    run_id, store = _start_long(db)
    job = store.get_job(run_id)
    store.set_job(run_id, job["pid"], job["pid_started"], time.time() - 60, job["run_dir"], job["spec"])
    assert run_id in jobs.refresh(store)
    assert store.get_run(run_id)["status"] == "timeout"
    assert wait_for(lambda: not processes.alive(job["pid"], job["pid_started"]), 10)


def test_detach_prints_run_id_and_run_finishes(cli, db):
    proc = cli("run", "--bench", "matmul", "--m", "128", "--n", "128", "--k", "128", "--detach")
    assert proc.returncode == 0
    run_id = proc.stdout.strip()
    store = Store(db)
    assert store.get_run(run_id) is not None
    assert wait_for(lambda: not jobs.is_active(run_id, store), 60)
    assert store.get_run(run_id)["status"] == "ok"


def test_placement_check_refuses_cpu_ops_for_gpu():
    from engine.worker import tfenv

    with pytest.raises(tfenv.PlacementError, match="asked for GPU but the ops ran on"):
        tfenv.check_placement("gpu", ["/job:localhost/replica:0/task:0/device:CPU:0"])
    tfenv.check_placement("cpu", ["/job:localhost/replica:0/task:0/device:CPU:0"])


def test_launch_of_a_prepared_spec_stores_what_ran(db):
    spec = spec_from_dict({"kind": "matmul", "m": 64, "n": 32, "k": 16, "dtype": "bfloat16", "xla": True})
    store = Store(db)
    run_id = jobs.launch(spec, store)
    row = jobs.wait(run_id, store)
    assert row["status"] == "ok", row["error"]
    assert (row["shape"], row["dtype"], row["xla"]) == ("(64x16)@(16x32)", "bfloat16", True)


def test_results_export_import_through_cli(cli, db, tmp_path):
    assert cli("run", "--bench", "matmul", "--m", "64", "--n", "64", "--k", "64").returncode == 0
    out = tmp_path / "export.csv"
    assert cli("results", "export", "--out", str(out)).returncode == 0
    other = tmp_path / "other.db"
    proc = cli("results", "import", str(out), env={"ACCELBENCH_DB": str(other)})
    assert proc.returncode == 0 and "imported 1 runs" in proc.stdout
    bad = tmp_path / "bad.csv"
    bad.write_text(out.read_text().replace(",ok,", ",great,"))
    proc = cli("results", "import", str(bad), env={"ACCELBENCH_DB": str(other)})
    assert proc.returncode == 2 and "row 2, column 'status'" in proc.stderr and "nothing was imported" in proc.stderr
    assert Store(other).count_runs() == 1
