"""Answers that know the host (issue 38 item 4, engine.compare.words.input_cap): a real-data flowers run stored through
the real store, whose pipeline per core × the H100 host's vCPUs is below what an H100 alone would train, is
answered with the cap by `engine compare --device h100 --json` (both figures in the JSON, the sentence says the
H100 would wait for input and what would lift it); the same run on synthetic data is answered by the device
alone; `--device all` ranks by the lower of the two."""

from __future__ import annotations

import json
import re

import pytest

from engine.catalog.prices import default_price
from engine.compare.words.input_cap import LIFTS, cap_for, per_core_examples_per_sec
from engine.results.schema import SCHEMA_VERSION
from tests.conftest import run_cli

# a flowers_cnn run on this 2-core CPU (issue 38: 35 examples/s training, 44.2 the step alone) whose pipeline was
# held to one worker of large JPEGs: 20 examples/s alone, so 20 per core
FLOWERS = {
    "schema_version": SCHEMA_VERSION, "run_id": "20261127-050000-38b001", "created_at": "2026-11-27T05:00:00Z",
    "status": "ok", "source": "local", "kind": "train", "model": "flowers_cnn", "dataset": "flowers",
    "dtype": "float32", "precision": "float32", "xla": False, "device": "cpu", "backend": "tensorflow",
    "strategy": "default", "replicas": 1, "global_batch_size": 64, "per_replica_batch_size": 64, "epochs": 1,
    "steps_per_epoch": 16, "step_time_ms_median": 1828.6, "examples_per_sec": 35.0, "host_cores": 2,
    "input_examples_per_sec": 20.0, "step_examples_per_sec": 44.2, "input_wait_pct": 30.0, "bound": "input",
    "input_workers": 1, "input_cores": 2, "cache": False,
}  # fmt: skip
SYNTHETIC = FLOWERS | {
    "run_id": "20261127-050001-38b002", "dataset": "synthetic", "input_examples_per_sec": None,
    "input_workers": None, "input_cores": None, "input_wait_pct": None, "bound": "compute",
}  # fmt: skip


@pytest.fixture(scope="module")
def store_db(tmp_path_factory):
    from engine.runs.store import Store

    path = tmp_path_factory.mktemp("cap") / "results.db"
    store = Store(path)
    for row in (FLOWERS, SYNTHETIC):
        store.insert_run(row)  # type: ignore[arg-type]
    return path


def _compare(db, run_id: str, *extra: str) -> dict:
    proc = run_cli("compare", "--run", run_id, *extra, "--json", env={"ACCELBENCH_DB": str(db)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_the_h100_answer_is_the_cap_where_its_host_would_starve_it(store_db):
    h100_vcpus = default_price("h100").host_vcpus  # p5.48xlarge: 192 vCPUs / 8 GPUs
    assert h100_vcpus == 24
    alone = _compare(store_db, SYNTHETIC["run_id"], "--device", "h100")
    capped = _compare(store_db, FLOWERS["run_id"], "--device", "h100")
    h100_alone = alone["speedup"] * SYNTHETIC["examples_per_sec"]
    cap = 20.0 * h100_vcpus
    assert cap < h100_alone  # the premise: this host's pipeline is slower than the H100 alone
    assert capped["input_cap_examples_per_sec"] == pytest.approx(cap)
    assert capped["host_vcpus"] == 24
    assert capped["device_alone_examples_per_sec"] == pytest.approx(h100_alone, rel=1e-6)
    assert capped["waits_for_input"] is True
    assert capped["speedup"] == pytest.approx(cap / FLOWERS["examples_per_sec"])  # the answer is the cap
    h100 = next(r for r in capped["rows"] if r["hardware_key"] == "h100")
    assert h100["rate_one_device"] == pytest.approx(cap) and h100["rate"] == pytest.approx(h100_alone)
    assert "wait for input" in capped["headline"] and "estimate" in capped["headline"]
    assert all(lift.split(" (")[0] in capped["headline"] for lift in LIFTS)
    # a synthetic run has no pipeline: the keys are there, empty, and the device alone is the answer
    assert alone["input_cap_examples_per_sec"] is None and alone["host_vcpus"] is None
    assert "wait for input" not in alone["headline"]


def test_which_device_ranks_by_the_lower_of_the_two(store_db):
    table = _compare(store_db, FLOWERS["run_id"], "--device", "all")
    rows = {d["hardware_key"]: d for d in table["devices"]}
    h100, t4 = rows["h100"], rows["t4"]
    assert h100["waits_for_input"] and h100["rate_one_device"] == pytest.approx(480.0)
    assert h100["device_alone_examples_per_sec"] > h100["rate_one_device"]
    assert t4["host_vcpus"] == 4 and t4["rate_one_device"] <= 80.0 + 1e-9  # g4dn.xlarge: 4 vCPUs × 20
    rates = [d["rate_one_device"] for d in table["devices"]]
    assert rates == sorted(rates, reverse=True)  # ranked by what each would deliver
    assert all("input_cap_examples_per_sec" in d for d in table["devices"])
    text = run_cli("compare", "--run", FLOWERS["run_id"], "--device", "all", env={"ACCELBENCH_DB": str(store_db)})
    assert "H100: alone ≈" in text.stdout and "its host's pipeline ≈480 ex/s (24 vCPUs) → would wait for input" in (
        text.stdout
    )
    assert "What would lift a cap: more input workers" in text.stdout


def test_per_core_rate_uses_the_cores_the_pipeline_could_use():
    assert per_core_examples_per_sec({"input_examples_per_sec": 400, "input_cores": 2}) == 200  # AUTOTUNE: all
    assert per_core_examples_per_sec({"input_examples_per_sec": 400, "input_workers": 1, "input_cores": 2}) == 400
    assert per_core_examples_per_sec({"input_examples_per_sec": 400, "input_workers": 8, "input_cores": 2}) == 200
    assert per_core_examples_per_sec({"input_examples_per_sec": None, "input_cores": 2}) is None  # synthetic
    cap = cap_for("h100", 100.0, 50.0)
    assert cap is not None and not cap.waits_for_input and cap.delivered_examples_per_sec == 50.0
    assert "input keeps up" in cap.text() and "H100" in cap.text()
    assert cap_for("gh200", 100.0, 50.0) is None  # no offer in the price table: its host is not known


@pytest.mark.slow  # one real TensorFlow run (about a minute on 2 busy cores)
def test_a_real_flowers_run_on_sampled_files_carries_its_host_cap(tmp_path):
    """End to end: `engine data sample` → `engine run` on those files → `compare --device h100 --json`."""
    env = {"ACCELBENCH_DB": str(tmp_path / "results.db")}
    data = tmp_path / "flowers"
    made = run_cli("data", "sample", "flowers", "--out", str(data), "--examples", "32", "--size", "250x180", env=env)
    assert made.returncode == 0, made.stderr[-2000:]
    args = ("--model", "flowers_cnn", "--dataset", "flowers", "--data-dir", str(data), "--batch-size", "16")
    ran = run_cli("run", *args, "--input-workers", "1", "--epochs", "1", "--steps-per-epoch", "2", "--json", env=env)
    assert ran.returncode == 0, ran.stderr[-2000:]
    row = json.loads(ran.stdout.strip().splitlines()[-1])
    per_core = per_core_examples_per_sec(row)
    assert per_core is not None and row["input_workers"] == 1
    answer = _compare(tmp_path / "results.db", row["run_id"], "--device", "h100")
    assert answer["host_vcpus"] == 24
    assert answer["input_cap_examples_per_sec"] == pytest.approx(per_core * 24)
    delivered = min(answer["device_alone_examples_per_sec"], answer["input_cap_examples_per_sec"])
    assert answer["speedup"] == pytest.approx(delivered / row["examples_per_sec"])  # the lower of the two
    assert answer["waits_for_input"] == (answer["device_alone_examples_per_sec"] > answer["input_cap_examples_per_sec"])
    # a real-data run of a model nobody measured stays on the one scale (issue 42 item 1): every device row has its
    # anchor and ratio, from a sibling model measured and converted by traced cost
    which = _compare(tmp_path / "results.db", row["run_id"], "--device", "all")
    assert which["devices"] and all(d["anchor"] and d["ratio"] for d in which["devices"])
    assert "converted to flowers_cnn by their traced costs" in which["scale"]


def test_every_host_vcpu_count_in_the_price_table_says_where_it_is_from():
    from engine.catalog.prices import load_prices

    counted = [p for p in load_prices() if p.host_vcpus is not None]
    assert {"h100", "a100", "t4", "tpu_v5e"} <= {p.hardware_key for p in counted if p.default}
    for p in counted:  # "p5.48xlarge: 192 vCPUs / 8 GPUs; <source>": the instance's count ÷ its devices, and whose
        total, devices = re.search(r"(\d+) vCPUs / (\d+) (?:GPU|chip)", p.host_vcpus_source).groups()  # type: ignore[union-attr]
        assert p.host_vcpus == pytest.approx(int(total) / int(devices)), p
