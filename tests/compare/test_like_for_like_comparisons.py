"""The one comparison rule: rows become rates of work before any ratio; the grade; the sentence; and
`python -m engine compare` in-process on a store holding realistic runs (the issue's fashion_cnn and
2048³ matmul on this 2-core CPU)."""

from __future__ import annotations

import json
from dataclasses import replace

import pandas as pd
import pytest

from engine.charts import compare as ccharts
from engine.charts.base import ChartError
from engine.cli import main
from engine.compare import answer as ans
from engine.compare.facts import compared
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.grade import differing, grade
from engine.compare.words import tables as cmp
from engine.reference.normalize import local_settings
from engine.results.schema import SCHEMA_VERSION
from engine.runs.store import Store

BASE = {
    "schema_version": SCHEMA_VERSION, "created_at": "2026-11-23T07:30:58.637862Z", "status": "ok",
    "source": "local", "dataset": "synthetic", "dtype": "float32", "precision": "float32", "xla": False,
    "device": "cpu", "replicas": 1, "device_name": "AMD EPYC", "host_cores": 2, "tf_version": "2.21.0",
}  # fmt: skip
TRAIN = BASE | {
    "run_id": "20261123-073058-93e487", "kind": "train", "model": "fashion_cnn", "strategy": "default",
    "global_batch_size": 64, "per_replica_batch_size": 64, "epochs": 2, "steps_per_epoch": 5,
    "step_time_ms_median": 376.5, "examples_per_sec": 170.0, "total_s": 24.9, "first_epoch_s": 12.0,
}  # fmt: skip
MATMUL = BASE | {
    "run_id": "20261123-073122-c6388d", "kind": "matmul", "model": "matmul", "strategy": "none",
    "shape": "(2048x2048)@(2048x2048)", "step_time_ms_median": 250.0, "gflops": 2 * 2048**3 / 0.25 / 1e9,
    "total_s": 4.0,
}  # fmt: skip


@pytest.fixture
def store(db):
    s = Store(db)
    s.insert_run(TRAIN)
    s.insert_run(MATMUL)
    return s


def test_article_000_times_become_examples_per_s_from_the_published_workload(ref):
    rows = ref.set_index("ref_id")
    tpu = lfl.rate_of_reference(rows.loc["SEED-COLAB-FMNIST-01"].to_dict() | {"ref_id": "SEED-COLAB-FMNIST-01"})
    assert tpu.value == 5 * 100 * 1024 / 40 and tpu.unit == "examples/s" and tpu.derivation == "derived"
    assert tpu.devices == 8 and tpu.per_device == 1600  # a v2-8 board: 8 cores
    assert tpu.bound == "at most"  # "~40+ s" is a lower bound on the time, so an upper bound on the rate
    assert "512,000 examples" in tpu.how
    k80 = lfl.rate_of_reference(rows.loc["SEED-COLAB-FMNIST-02"].to_dict() | {"ref_id": "x"})
    assert k80.value == pytest.approx(512000 / 120) and k80.devices == 1
    assert lfl.rate_of_reference(rows.loc["SEED-COLAB-FMNIST-03"].to_dict() | {"ref_id": "y"}) is None  # a ratio
    vgg = rows.loc["SEED-VN-FLOWERS-07"].to_dict() | {"ref_id": "z"}  # TPU batch 128, 23 steps, scope not stated
    assert lfl.rate_of_reference(vgg).value == pytest.approx(25 * 23 * 128 / 127.82)
    assert lfl.rate_of_reference(rows.loc["MLPERF-V05-01"].to_dict() | {"ref_id": "m"}) is None  # time to accuracy


def test_op_times_become_gflops_with_the_one_flops_formula(ref):
    rows = ref.set_index("ref_id")
    gpu = lfl.rate_of_reference(rows.loc["SEED-TF-GPU-SETTINGS-02"].to_dict() | {"ref_id": "g"})
    assert gpu.value == pytest.approx(2 * 10000 * 100 * 100000 / 1.0 / 1e9) and gpu.unit == "GFLOP/s"
    conv = lfl.rate_of_reference(rows.loc["SEED-COLAB-CONV-02"].to_dict() | {"ref_id": "c"})
    assert conv.value == pytest.approx(2 * 128 * 256 * 256 * 25 * 3 * 256 / 0.28 / 1e9)  # '?' channels: 3 assumed
    assert "assumed" in conv.how
    run = lfl.rate_of_run(MATMUL)
    assert run.value == pytest.approx(68.72, abs=0.01) and run.work == 2 * 2048**3


def test_peaks_are_rows_marked_not_measured():
    a100 = lfl.peak_rate("a100", "float32")
    assert a100.value == 19500 and a100.derivation == "peak" and "not measured" in a100.how
    assert lfl.peak_rate("cpu") is None
    g = grade(local_settings(MATMUL), a100.settings, "peak")
    assert g.grade == "different" and g.top == ("datasheet peak",)


def test_raw_time_ratio_only_between_identical_workloads():
    a = lfl.rate_of_run(MATMUL)
    faster = replace(a, id="other", value=a.value * 2, time_s=a.time_s / 2)
    assert compared.time_ratio(faster, a) == pytest.approx(2.0)
    bigger = replace(faster, work=a.work * 12)
    assert compared.time_ratio(bigger, a) is None and compared.speedup(bigger, a) == pytest.approx(2.0)


def test_grade_names_what_matters_and_not_what_normalisation_removes(ref):
    mine = local_settings(TRAIN)
    tpu = ref.set_index("ref_id").loc["SEED-COLAB-FMNIST-01"].to_dict()
    g = grade(mine, tpu, "derived")
    assert g.grade == "different" and g.top[:2] == ("batch 64 vs 1024", "synthetic data here")
    assert not any("epoch" in t or "steps" in t for t in g.top)
    assert any(d.startswith("Epochs: 2 vs 5") and "does not matter" in d for d in g.details)
    assert grade(mine, mine).grade == "same"
    assert grade(mine, mine | {"xla": True}).grade == "close"
    assert grade(mine, mine | {"precision": "mixed_float16"}).grade == "different"
    lines = differing([mine, mine | {"batch_size": 128}], lambda r: str(r["batch_size"]))
    assert len(lines) == 1 and lines[0].startswith("Batch differs: 64 (64) vs 128 (128)")


def test_the_sentence_for_a_training_run(ref):
    a = ans.answer_for_run(TRAIN, ref, ["SEED-COLAB-FMNIST-01", "SEED-COLAB-FMNIST-02"])
    assert a.baseline.origin == "this machine" and a.rows[0].rate.label == "this CPU (TF, fp32)"
    labels = [c.rate.label for c in a.rows[1:]]
    assert labels == ["TPU v2-8 (published, precision not stated)", "K80 (1 die) (published, fp32)"]
    assert a.rows[1].speedup == pytest.approx(12800 / 170) and a.rows[2].speedup == pytest.approx(4266.67 / 170)
    assert a.headline.startswith(
        "On Fashion-MNIST CNN, one TPU v2-8 (precision not stated, published) would train up to about 75× faster "
        "than this CPU (TF, fp32), at $0.14 per million examples (price table); one K80 (1 die) (fp32, published) "
        "up to about 25× faster"
    )
    assert "(per example; batch 64 vs 1024, synthetic data here)" in a.headline


def test_cli_compare_training_run_json(store, capsys):
    assert main(["compare", "--run", TRAIN["run_id"], "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["id"]: r for r in out["rows"]}
    assert out["baseline"] == f"run:{TRAIN['run_id']}" and out["unit"] == "examples/s"
    tpu = rows["SEED-COLAB-FMNIST-01"]  # one row per device kind: the v2-8 and the K80
    assert tpu["speedup"] > 50 and tpu["derivation"] == "derived" and tpu["basis"] == "published"
    assert tpu["grade"] == "different" and "batch 64 vs 1024" in tpu["differences"]
    assert "SEED-COLAB-FMNIST-02" in rows or any(r["hardware_key"] == "k80" for r in out["rows"])
    assert out["headline"].startswith("On Fashion-MNIST CNN, one ")


def test_cli_compare_matmul_in_gflops_with_a_peak(store, capsys):
    assert main(["compare", "--run", MATMUL["run_id"][:17], "--reference", "auto", "peak:a100"]) == 0
    out = capsys.readouterr().out
    assert "GFLOP/s" in out and "examples/s" not in out
    assert "A100 peak (datasheet)" in out
    # article 002's matmul is (10000x100)@(100x100000): another shape, so no ratio with a 2048³ run
    flat = " ".join(out.split())  # the folded line wraps at the terminal's width
    assert ("other workloads, not comparable — another shape ((10000x100)@(100x100000), not (2048x2048)@(2048x2048)): "
            "2 rows (CPU (published, fp32); GPU (model not stated) (published, fp32))") in flat  # fmt: skip
    assert "A100 peak (datasheet) is 284× the rate this CPU (TF, fp32) measured" in out


def test_cli_compare_unknown_run_or_reference_exits_2_with_one_line(store, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["compare", "--run", "no-such-run"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "no run 'no-such-run'" in err
    with pytest.raises(SystemExit) as exc:
        main(["compare", "--run", TRAIN["run_id"], "--reference", "NOPE-1"])
    assert exc.value.code == 2 and "NOPE-1" in capsys.readouterr().err


def test_no_chart_draws_a_raw_time_ratio_between_unequal_workloads(ref):
    """Every speedup chart input comes from cmp.speedups (Compare's metrics) or the answer (rates)."""
    long = cmp.long_rows([MATMUL, TRAIN], ref[ref["model"].isin(["matmul", "fashion_cnn"])])
    for family in cmp.families(long):
        rows = cmp.for_family(long, family)
        for baseline in rows["label"]:
            table = cmp.speedups(rows, baseline)
            if family not in ("throughput", "rate"):
                keys = rows.set_index("label").loc[list(table["label"]), "workload_key"]
                assert keys.nunique() <= 1, (family, baseline, list(table["label"]))
            ccharts.speedup_chart(table, baseline)  # draws: every table says what it divided
    answer_rows = pd.DataFrame(
        {"label": ["a", "b"], "origin": "reference", "value_canonical": [1, 2], "speedup": [1, 2]}
    )
    with pytest.raises(ChartError):
        ccharts.speedup_chart(answer_rows, "a")  # no basis: refused
