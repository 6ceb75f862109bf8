"""The results store: exact CSV round-trip, all-or-nothing import, concurrent writers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.results.csvio import CsvError, read_rows, rows_to_csv
from engine.results.schema import COLUMN_NAMES, SCHEMA_VERSION
from engine.runs.store import Store


def full_row(run_id: str, **over) -> dict:
    row = {
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id,
        "created_at": "2026-11-21T10:00:00.123456Z",
        "status": "ok",
        "error": None,
        "source": "local",
        "label": "colab-t4, team A",
        "sweep_id": "sweep-20261121-100000-abcdef",
        "node": "10.0.0.5 (1a2b3c4d)",
        "kind": "train",
        "model": "fashion_cnn",
        "dataset": "synthetic",
        "shape": None,
        "dtype": "float32",
        "precision": "float32",
        "xla": True,
        "device": "cpu",
        "backend": "jax",
        "examples_per_sec_windowed": 812.5,
        "examples_per_sec_step_synced": 790.25,
        "examples_per_sec_epoch": 800.0,
        "sync_overhead_pct": -0.5,
        "mfu_pct": 12.5,
        "flops_source": "jax cost_analysis",
        "tokens_per_sec": 104_000.5,
        "matches_eager_fp32": True,
        "blas_gflops": 95.5,
        "framework_version": "jax 0.10.2 (jaxlib 0.10.2)",
        "energy_source": "nvml-counter",
        "energy_j": 1234.5,
        "avg_power_w": 250.25,
        "joules_per_example": 0.25,
        "examples_per_joule": 4.0,
        "gflops_per_watt": 10.5,
        "energy_tdp_estimate_j": 3500.0,
        "cost_usd_per_million_examples": 0.75,
        "cost_usd_per_epoch": 0.045,
        "price_source": "user: price per hour given with the run",
        "strategy": "mirrored",
        "replicas": 2,
        "global_batch_size": 256,
        "per_replica_batch_size": 128,
        "processes": 2,
        "launcher": "torchrun (torch.distributed elastic agent), DDP",
        "collective_backend": "gloo",
        "examples_per_sec_per_device": 406.25,
        "rank_step_ms_median": "12.5 13.25",
        "slowest_rank": 1,
        "input_examples_per_sec": 496.5,
        "step_examples_per_sec": 44.25,
        "input_wait_pct": 3.5,
        "bound": "compute",
        "input_workers": 2,
        "prefetch": None,
        "cache": True,
        "input_cores": 2,
        "epochs": 3,
        "steps_per_epoch": 20,
        "params": 1_234_567,
        "model_source": "file",
        "model_hash": "sha256:0f1e2d",
        "model_kind": "transformer",
        "price_per_hour_usd": 0.35,
        "time_to_first_step_s": 1.2345678901234567,
        "first_epoch_s": 3.3,
        "step_time_ms_median": 0.1 + 0.2,
        "step_time_ms_p10": 1e-9,
        "step_time_ms_p90": 123456.789,
        "examples_per_sec": 2048.5,
        "total_s": 12.0,
        "gflops": 55.5,
        "peak_gflops": 166.2,
        "final_loss": -0.5,
        "final_accuracy": 0.91,
        "val_accuracy": None,
        "peak_host_memory_mb": 900.25,
        "peak_device_memory_mb": None,
        "cost_usd": 0.0011666666666666668,
        "devices_used": "CPU:0,CPU:1",
        "device_name": 'AMD EPYC, "quoted"\nsecond line',
        "host_cores": 2,
        "host_memory_gb": 23.5,
        "tf_version": "2.21.0",
        "keras_version": "3.15.1",
        "python_version": "3.11.7",
        "driver_version": None,
        "notes": "ünïcödé, commas",
    }
    row.update(over)
    return row


def test_csv_round_trip_is_exact(new_db):
    rows = [full_row("a"), full_row("b", status="failed", error="out of memory: x", xla=False)]
    src = Store(new_db())
    for r in rows:
        src.insert_run(r)
    text = src.export_csv()
    assert text.splitlines()[0].split(",") == list(COLUMN_NAMES)
    dst = Store(new_db())
    assert dst.import_csv(text, "export.csv") == (2, 0)
    for r in rows:
        got = dst.get_run(r["run_id"])
        assert got["source"] == "import:export.csv"
        assert {k: v for k, v in got.items() if k != "source"} == {k: v for k, v in r.items() if k != "source"}
    # a second export → import cycle changes nothing further
    again = Store(new_db())
    again.import_csv(dst.export_csv(), "second.csv")
    assert again.export_csv() == dst.export_csv()


def test_reimport_skips_present_rows(new_db):
    s = Store(new_db())
    text = rows_to_csv([full_row("x")])
    assert s.import_csv(text, "f.csv") == (1, 0)
    assert s.import_csv(text, "f.csv") == (0, 1)
    assert s.count_runs() == 1


def _replace_cell(text: str, column: str, value: str, line: int = 1) -> str:
    """Set one cell; `line` counts CSV records (header = 0), since cells may hold newlines."""
    import csv
    import io

    records = list(csv.reader(io.StringIO(text)))
    records[line][COLUMN_NAMES.index(column)] = value
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(records)
    return buf.getvalue()


GOOD = rows_to_csv([full_row("r1"), full_row("r2"), full_row("r3")])


@pytest.mark.parametrize(
    ("data", "row", "column"),
    [
        (_replace_cell(GOOD, "total_s", "-1.0", line=2), 3, "total_s"),
        (_replace_cell(GOOD, "gflops", "fast", line=3), 4, "gflops"),
        (_replace_cell(GOOD, "replicas", "1.5"), 2, "replicas"),
        (_replace_cell(GOOD, "xla", "perhaps"), 2, "xla"),
        (_replace_cell(GOOD, "status", "done"), 2, "status"),
        (_replace_cell(GOOD, "created_at", "yesterday"), 2, "created_at"),
        (_replace_cell(GOOD, "run_id", "r1", line=2), 3, "run_id"),
        (_replace_cell(GOOD, "step_time_ms_median", "inf"), 2, "step_time_ms_median"),
        (GOOD.replace(",gflops,", ",gflopz,", 1), 1, "gflops"),
        (GOOD + "x,y\n", 5, ""),
        ("", 0, ""),
        ("run_id,status\n", 1, "created_at"),
        (GOOD.encode("utf-8").replace(b"\xc3\xbc", b"\xfc"), 0, ""),
    ],
)
def test_bad_import_names_row_and_column_and_changes_nothing(new_db, data, row, column):
    s = Store(new_db())
    s.insert_run(full_row("existing"))
    before = s.export_csv()
    with pytest.raises(CsvError) as err:
        s.import_csv(data, "bad.csv")
    assert err.value.row == row
    if column:
        assert err.value.column == column
    assert s.export_csv() == before


# Each writer is its own interpreter (not multiprocessing, whose children re-run the parent's __main__,
# which is a page script after an AppTest in the same pytest process).
_WRITER = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
from test_store import full_row
from engine.runs.store import Store
s = Store({path!r})
for i in range({n}):
    s.insert_run(full_row(f"{prefix}-{{i}}"))
    s.update_run(f"{prefix}-{{i}}", {{"gflops": float(i)}}, only_if_status=("ok",))
"""


def test_eight_concurrent_writers_lose_nothing(new_db):
    path = new_db()
    Store(path)
    here = Path(__file__).resolve().parent
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                _WRITER.format(root=str(here.parents[1]), tests=str(here), path=path, n=20, prefix=f"w{k}"),
            ]
        )
        for k in range(8)
    ]
    assert [p.wait(180) for p in procs] == [0] * 8
    s = Store(path)
    assert s.count_runs() == 160 and len(s.run_ids()) == 160
    assert all(r["gflops"] == float(r["run_id"].split("-")[1]) for r in s.list_runs())


def test_guarded_update_does_not_overwrite_final_status(new_db):
    s = Store(new_db())
    s.insert_run(full_row("g", status="running"))
    assert s.update_run("g", {"status": "cancelled"}, only_if_status=("queued", "running"))
    assert not s.update_run("g", {"status": "ok"}, only_if_status=("running",))
    assert s.get_run("g")["status"] == "cancelled"


def test_reader_accepts_missing_optional_columns():
    import csv
    import io

    records = list(csv.reader(io.StringIO(rows_to_csv([full_row("p")]))))
    drop = [COLUMN_NAMES.index(c) for c in ("schema_version", "source", "notes")]
    buf = io.StringIO()
    csv.writer(buf).writerows([[c for i, c in enumerate(rec) if i not in drop] for rec in records])
    rows = read_rows(buf.getvalue())
    assert rows[0]["notes"] is None and rows[0]["schema_version"] == SCHEMA_VERSION
    assert rows[0]["gflops"] == 55.5


def test_run_tuples_are_the_newest_runs_in_column_order(new_db):
    s = Store(new_db())
    for i in range(5):
        s.insert_run(full_row(f"r{i}", created_at=f"2026-11-2{i}T10:00:00Z", xla=i % 2 == 0))
    got = s.run_tuples(limit=3)
    assert [t[COLUMN_NAMES.index("run_id")] for t in got] == ["r4", "r3", "r2"]
    newest = dict(zip(COLUMN_NAMES, got[0], strict=True))
    assert newest["xla"] == 1 and newest["device_name"] == full_row("x")["device_name"]
    assert len(s.run_tuples()) == 5 == len(s.run_tuples(limit=None))
