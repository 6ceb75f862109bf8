"""The answer for your model on any device: a ratio only between rows of the same workload, one headline per
single device with its cost, the backend named, and `engine compare --device` answering for one device."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.catalog.catalog import MODELS
from engine.cli import main
from engine.compare import answer as ans
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.single import one_device
from engine.compare.facts.workload import not_comparable
from engine.compare.picks import default_rows
from engine.reference.normalize import local_settings
from engine.results.schema import SCHEMA_VERSION
from engine.runs.store import Store

BASE = {
    "schema_version": SCHEMA_VERSION, "created_at": "2026-11-24T07:30:58.637862Z", "status": "ok",
    "source": "local", "dataset": "synthetic", "dtype": "float32", "precision": "float32", "xla": False,
    "device": "cpu", "replicas": 1, "device_name": "AMD EPYC", "host_cores": 2, "tf_version": "2.21.0",
    "kind": "train", "strategy": "default", "epochs": 2, "steps_per_epoch": 5, "total_s": 20.0,
}  # fmt: skip


def train_run(model: str, eps: float = 50.0, batch: int = 64, run_id: str | None = None, **extra) -> dict:
    return BASE | {
        "run_id": run_id or f"20261124-0730{len(model):02d}-{model[:6]:0>6}", "model": model,
        "global_batch_size": batch, "per_replica_batch_size": batch, "step_time_ms_median": batch / eps * 1000,
        "examples_per_sec": eps,
    } | extra  # fmt: skip


def test_fashion_mnist_gets_no_ratio_against_resnet50_rows_and_lists_them_apart(ref):
    """The issue's case: a Fashion-MNIST CNN run with A100 and V100 ResNet-50 rows added."""
    run = train_run("fashion_cnn", 170.0)
    resnet = ref[ref["hardware_key"].isin(["a100", "v100"]) & (ref["model"] == "resnet50")]
    others = [r for r in (lfl.rate_of_reference(x) for x in resnet.to_dict("records")) if r is not None]
    assert len(others) >= 4
    a = ans.compare(lfl.rate_of_run(run), others)
    assert [c.rate for c in a.rows] == [a.baseline]  # no ratio at all
    assert a.headline == "" and a.number is None
    assert len(a.other_workloads) == len(others)
    assert all(why == "another model (resnet50)" for _, why in a.other_workloads)
    assert all("resnet50" not in json.dumps(r) for r in ans.to_json(a)["rows"])


def test_the_rule_names_the_other_workload():
    mine = local_settings(train_run("resnet50"))
    assert not_comparable(mine, mine) is None
    assert not_comparable(mine, mine | {"dataset": "flowers"}) == "another input shape (192×192×3, not 224×224×3)"
    assert not_comparable(mine, mine | {"dataset": "imagenet"}) is None  # synthetic ImageNet shapes = ImageNet's
    assert not_comparable(mine, mine | {"model": "vgg19"}) == "another model (vgg19)"
    mm = {"task": "micro", "model": "matmul", "shape": "(2048x2048)@(2048x2048)"}
    other = mm | {"shape": "(10000x100)@(100x100000)"}
    assert not_comparable(mm, other).startswith("another shape")
    assert not_comparable(mm, other, "peak") is None  # a datasheet peak is a ceiling for any shape


def test_a_system_enters_the_headline_only_as_one_device_when_its_count_is_stated(ref):
    run = train_run("resnet50", 5.0, 32)
    rows = ref[(ref["model"] == "resnet50") & (ref["hardware_count"].astype(float) == 4)]
    four = next(r for r in (lfl.rate_of_reference(x) for x in rows.to_dict("records")) if r is not None)
    one = one_device(four)
    assert one is not None and one.value == pytest.approx(four.value / 4) and "÷ 4" in one.how
    unstated = replace(four, id="x", settings={**four.settings, "hardware_count": None})
    assert one_device(unstated) is None
    a = ans.compare(lfl.rate_of_run(run), [unstated])
    assert "no single-device figure" in a.headline and "as a whole system" in a.headline


def test_headline_is_per_single_device_with_backend_precision_and_cost(ref):
    run = train_run("resnet50", 5.0, 32)
    a = ans.answer_for_run(run, ref)
    assert a.headline.startswith("On ResNet-50, one ")
    assert "than this CPU (TF, fp32)" in a.headline and "per million examples (price table)" in a.headline
    assert a.basis in ("measured", "published") and a.usd_per_million_examples > 0
    scaled = {c.rate.hardware_key for c in a.rows if c.rate.basis == "scaled"}
    beside = [c for c in a.rows[1:] if c.rate.basis == "published" and c.rate.hardware_key in scaled]
    keys = [c.rate.hardware_key for c in a.rows[1:] if c.rate.basis != "estimate" and c not in beside]
    assert len(keys) == len(set(keys))  # one row per device kind (a scaled row's source figure listed beside it)
    cheap = ans.answer_for_run(run, ref, prices={a.rows[1].rate.hardware_key: 0.01})
    assert "your price" in cheap.headline or cheap.rows[1].price_how.startswith("user")


def test_the_backend_is_in_every_label_and_in_the_grade():
    tf = lfl.rate_of_run(train_run("fashion_cnn", 170.0, run_id="20261124-073001-aaaaaa"))
    jax = lfl.rate_of_run(train_run("fashion_cnn", 50.0, run_id="20261124-073002-bbbbbb", backend="jax"))
    assert tf.label == "this CPU (TF, fp32)" and jax.label == "this CPU (JAX, fp32)"
    a = ans.compare(tf, [jax])
    assert a.rows[1].grade.top[0] == "tensorflow vs keras-jax"


@pytest.fixture
def every_model(db):
    s = Store(db)
    runs = {m: train_run(m, 20.0, 32, run_id=f"20261124-0731{i:02d}-{i:06d}") for i, m in enumerate(MODELS)}
    for r in runs.values():
        s.insert_run(r)
    return runs


def test_cli_compare_device_h100_answers_for_every_zoo_model(every_model, capsys):
    for model, run in every_model.items():
        assert main(["compare", "--run", run["run_id"], "--device", "h100", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["device"] == "h100" and out["speedup"] > 1, model
        assert out["basis"] in ("measured", "published", "estimate"), model
        assert out["range"][0] <= out["speedup"] <= out["range"][1], model
        assert out["usd_per_million_examples"] > 0, model
        assert {r["hardware_key"] for r in out["rows"][1:]} == {"h100"}, model
        if out["basis"] == "estimate":
            assert "estimate" in out["headline"].lower(), model
        if model in ("fashion_cnn", "reuters_conv1d", "resnet50"):  # the 2026-11-23 H100 pack ran these
            assert out["basis"] == "measured" and "measured by AccelBench" in out["headline"], model


def test_cli_compare_device_text_and_bad_device(every_model, capsys):
    run = every_model["resnet50"]
    assert main(["compare", "--run", run["run_id"], "--device", "a100", "--price-usd-h", "1.5"]) == 0
    out = capsys.readouterr().out
    assert "one A100" in out and "your price" in out
    with pytest.raises(SystemExit) as exc:
        main(["compare", "--run", run["run_id"], "--device", "gtx9000"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "unknown device 'gtx9000'" in err


def test_default_rows_prefer_accelbench_measurements(ref):
    measured = ref[ref["source_kind"] == "accelbench"]
    if measured.empty:
        pytest.skip("no AccelBench reference pack in data/reference yet")
    row = measured[measured["task"] == "training"].iloc[0]
    run = train_run(str(row["model"]), 10.0, 32, precision=str(row["precision"]))
    base = lfl.rate_of_run(run)
    picked = [r for r in default_rows(base, ref, device=str(row["hardware_key"])) if r.basis != "estimate"]
    assert picked and picked[0].basis == "measured" and "measured by AccelBench" in picked[0].label


def test_the_pack_row_on_the_runs_backend_comes_first_else_the_fastest_backend(ref):
    """The H100 pack ran resnet50 fp32 on Keras-JAX (twice: 3,034 and 2,818 img/s, pooled to the lower middle,
    2,818) and Keras-torch (736): a Keras-torch run is
    answered with the Keras-torch row (like for like); a TensorFlow run, which the pack could not run (no
    TensorFlow on the GPU machine), with the fastest backend — named in the label."""
    torch_run = lfl.rate_of_run(train_run("resnet50", 5.0, 32, backend="keras-torch"))
    (row,) = [r for r in default_rows(torch_run, ref, device="h100") if r.basis == "measured"]
    assert "Keras-torch" in row.label and round(row.value) == 736
    tf_run = lfl.rate_of_run(train_run("resnet50", 5.0, 32))
    (row,) = [r for r in default_rows(tf_run, ref, device="h100") if r.basis == "measured"]
    assert "Keras-JAX" in row.label and round(row.value) == 2818
    assert "median of 2 runs, 2,818–3,034" in row.how
    assert row.label == "H100 80GB (measured by AccelBench, Keras-JAX, fp32)"


def test_a_users_own_model_gets_an_estimate_from_its_own_flop_count(db, capsys):
    """No table knows it: a model of its kind measured on the H100 is converted by the traced cost of each (the
    run's own counted FLOPs and bytes), as "Which device?" does (issue 45: one answer)."""
    run = train_run("two_input_net", 11_000.0, 8, run_id="20261125-090000-usrmdl", gflops=2.9, model_source="file")
    Store(db).insert_run(run)
    assert main(["compare", "--run", run["run_id"], "--device", "h100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["basis"] == "estimate" and out["range"][0] <= out["speedup"] <= out["range"][1]
    assert "estimate" in out["headline"].lower() and "traced cost" in out["headline"]
    assert "modelled step time ÷ two_input_net's on H100" in out["headline"]
    assert "e-0" not in out["headline"]  # dollars never in e-notation
    # 11,000 ex/s at batch 8 is a 0.7 ms step: shorter than any step AccelBench measured on a GPU, so the H100 is
    # held at batch ÷ that step, and a ceiling under 1× reads as "at least … slower"
    assert out["bound"] == "at most" and out["speedup"] < 1 and "at least about 1.92" in out["headline"]  # the ceiling, then the sibling-converted range


def test_dollar_amounts_read_as_people_write_them():
    from engine.catalog.prices import usd_text

    assert [usd_text(v) for v in (1234.5, 12.345, 0.52, 0.0044, 6.48e-06)] == [
        "$1,234", "$12.35", "$0.52", "$0.0044", "$0.0000065",
    ]  # fmt: skip
