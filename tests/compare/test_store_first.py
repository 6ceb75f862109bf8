"""Issue 29 item 1, "done when": a teammate's T4 run in the store answers `--device t4` for a CPU run of the same
workload as measured — labelled with where and when it ran — on the CLI, the Run card and Compare alike.

Two stores' worth of runs, through the real commands: the teammate's store runs the tiny CNN here, exports it as
JSON, the export is rewritten to what a Colab T4 machine records (device gpu, device_name "Tesla T4", its rate)
and imported back, then pushed into this store with `--label colab-t4`; this store runs the same workload on this
CPU and asks `engine compare --run ID --device t4`. A second case imports the real H100 export
(data/history/h100_gpu_check_2026-11-23.csv): its run beats the reference pack's copy of the same figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, last_json, run_cli
from page_helpers import no_exception, page
from streamlit.testing.v1 import AppTest

from engine.compare import answer as ans
from engine.compare import picks
from engine.compare.estimate.estimate import point_of_rate
from engine.compare.evidence.rates import runs_of, store_rate, store_rates
from engine.compare.facts import likeforlike as lfl
from engine.runs.store import Store

TRAIN = ("run", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "16", "--epochs", "2",
         "--steps-per-epoch", "3", "--json")  # fmt: skip
T4_RUN_ID = "20261124-101500-c0fa74"
T4_SPEEDUP = 6.0  # the rate the rewritten export claims, × this CPU's
H100_CSV = ROOT / "data" / "history" / "h100_gpu_check_2026-11-23.csv"


def _as_colab_t4(row: dict) -> dict:
    """What `engine run` records on a Colab T4 runtime, in place of this CPU's fields."""
    return row | {
        "run_id": T4_RUN_ID, "created_at": "2026-11-24T10:15:00.000000Z", "device": "gpu", "device_name": "Tesla T4",
        "devices_used": "/job:localhost/replica:0/task:0/device:GPU:0", "host_cores": 2, "host_memory_gb": 12.7,
        "driver_version": "550.54.15", "examples_per_sec": row["examples_per_sec"] * T4_SPEEDUP,
        "step_time_ms_median": row["step_time_ms_median"] / T4_SPEEDUP, "total_s": row["total_s"] / T4_SPEEDUP,
        "peak_gflops": 8100.0, "mfu_pct": None, "energy_source": "nvml-counter",
    }  # fmt: skip


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("two_stores")
    team, mine = {"ACCELBENCH_DB": str(tmp / "team.db")}, {"ACCELBENCH_DB": str(tmp / "mine.db")}
    # the teammate's store: a real run, exported, rewritten to the T4 machine's record, imported
    assert (p := run_cli(*TRAIN, env=team)).returncode == 0, p.stderr[-2000:]
    export = tmp / "export.json"
    assert (p := run_cli("results", "export", "--format", "json", "--out", str(export), env=team)).returncode == 0
    (row,) = json.loads(export.read_text())
    t4 = _as_colab_t4(row)
    colab = tmp / "colab_t4.json"
    colab.write_text(json.dumps([t4]))
    assert (p := run_cli("results", "import", str(colab), env=team)).returncode == 0, p.stderr[-2000:]
    push = ("results", "push", "--to", mine["ACCELBENCH_DB"], "--label", "colab-t4", "--device", "gpu", "--json")
    assert (p := run_cli(*push, env=team)).returncode == 0, p.stderr[-2000:]
    assert last_json(p.stdout)["added"] == 1
    # this store: the same workload on this CPU
    assert (p := run_cli(*TRAIN, env=mine)).returncode == 0, p.stderr[-2000:]
    cpu = last_json(p.stdout)
    return Path(mine["ACCELBENCH_DB"]), cpu, t4


def _compare(db: Path, *args: str) -> dict:
    p = run_cli("compare", *args, "--json", env={"ACCELBENCH_DB": str(db)})
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


def test_a_teammates_t4_run_answers_device_t4_as_measured(stores):
    db, cpu, t4 = stores
    out = _compare(db, "--run", cpu["run_id"], "--device", "t4")
    assert out["basis"] == "measured" and out["device"] == "t4"
    assert out["evidence"].startswith("measured on Tesla T4, run 2026-11-24, label colab-t4")
    assert out["speedup"] == pytest.approx(t4["examples_per_sec"] / cpu["examples_per_sec"])
    (row,) = [r for r in out["rows"] if r["hardware_key"] == "t4"]  # the store's run, no estimate beside it
    assert row["origin"] == "store" and row["basis"] == "measured" and row["id"] == f"run:{T4_RUN_ID}"
    assert row["run_label"] == "colab-t4" and row["device_name"] == "Tesla T4"
    assert row["created_at"].startswith("2026-11-24T10:15")
    assert row["label"] == "T4 (your store, colab-t4, TF, fp32)" and row["grade"] == "same"
    assert "one T4 (fp32, measured on Tesla T4, run 2026-11-24, label colab-t4" in out["headline"]
    assert "than this CPU (TF, fp32)" in out["headline"] and "per million examples" in out["headline"]


def test_auto_takes_the_store_run_for_t4_and_estimates_only_the_devices_nobody_ran(stores):
    db, cpu, _ = stores
    out = _compare(db, "--run", cpu["run_id"])
    t4 = [r for r in out["rows"] if r["hardware_key"] == "t4"]
    assert [r["origin"] for r in t4] == ["store"]
    assert {r["basis"] for r in out["rows"] if r["hardware_key"] not in ("t4", "cpu")} <= {"estimate", "measured"}
    text = run_cli("compare", "--run", cpu["run_id"], "--device", "t4", env={"ACCELBENCH_DB": str(db)}).stdout
    assert "T4 (your store, colab-t4, TF, fp32)" in text and "measured on Tesla T4, run 2026-11-24" in text


def test_the_store_run_is_also_a_measured_point_for_the_estimator(stores):
    db, _, _ = stores
    t4 = store_rate(Store(db).get_run(T4_RUN_ID))
    point = point_of_rate(t4) if t4 is not None else None
    assert point is not None and point.basis == "measured" and point.hardware_key == "t4"
    assert point.model == "tiny_cnn"


def test_the_run_card_and_compare_say_the_same(stores, monkeypatch):
    db, cpu, _ = stores
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["run"] = cpu["run_id"]
    at.run()
    at.switch_page("pages/run.py").run()
    assert not at.exception, at.exception
    sentence = [m.value for m in at.markdown if "tiny CNN" in str(m.value)]
    assert sentence and "one T4 (fp32, measured on Tesla T4, run 2026-11-24, label colab-t4" in sentence[0]

    cmp = page("compare")
    cmp.query_params["run"] = cpu["run_id"]
    cmp.run()
    cmp.multiselect(key="cmp_runs").set_value([cpu["run_id"]]).run()
    no_exception(cmp)
    (table,) = [d.value for d in cmp.dataframe if "Like for like" in d.value.columns]
    t4 = table[table["Row"] == "T4 (your store, colab-t4, TF, fp32)"]
    assert len(t4) == 1 and t4["Basis"].iloc[0] == "measured"
    assert not (table["Row"].str.startswith("T4 (estimate")).any()
    answer = [m.value for m in cmp.markdown if "tiny CNN" in str(m.value)]
    assert answer and "measured on Tesla T4, run 2026-11-24, label colab-t4" in answer[0]


def test_a_real_h100_export_in_the_store_comes_before_the_reference_pack(tmp_path, ref):
    """The H100 machine's real export, imported: for fashion_cnn its run is the H100 evidence (the pack holds the
    same measurement as a reference row; the store's run comes first and says where and when it ran)."""
    env = {"ACCELBENCH_DB": str(tmp_path / "h100.db")}
    assert (p := run_cli("results", "import", str(H100_CSV), env=env)).returncode == 0, p.stderr[-2000:]
    args = ("run", "--model", "fashion_cnn", "--dataset", "synthetic", "--batch-size", "16", "--epochs", "2",
            "--steps-per-epoch", "3", "--json")  # fmt: skip
    assert (p := run_cli(*args, env=env)).returncode == 0, p.stderr[-2000:]
    cpu = last_json(p.stdout)
    out = _compare(tmp_path / "h100.db", "--run", cpu["run_id"], "--device", "h100")
    (h100,) = [r for r in out["rows"] if r["hardware_key"] == "h100"]
    assert h100["origin"] == "store" and out["basis"] == "measured"
    assert h100["rate"] == pytest.approx(190226.21620822657)  # the fastest backend of the export (Keras-JAX)
    where = "measured on NVIDIA H100 80GB HBM3, run 2026-11-23, imported from h100_gpu_check_2026-11-23.csv"
    assert out["evidence"] == where
    # Compare preselects the pack's H100 row; the store's run is still added and leads the sentence
    base = lfl.rate_of_run(Store(tmp_path / "h100.db").get_run(cpu["run_id"]))
    assert base is not None
    pack = [r for r in picks.reference_rates(base, ref) if r.hardware_key == "h100" and r.basis == "measured"]
    auto = picks.automatic_rows(base, ref, pack, store_rates(base, runs_of(Store(tmp_path / "h100.db"))))
    a = ans.compare(base, [*pack, *auto])
    assert pack and any(r.origin == "store" and r.hardware_key == "h100" for r in auto)
    assert a.basis == "measured" and a.evidence == where
