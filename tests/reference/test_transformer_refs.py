"""The published BERT/GPT-2 rows (data/reference/transformer_refs.py): they load and validate, every one points
at a file at a commit, the committed CSV holds exactly what the builder makes of them, and Compare uses them
only for the workload they measured (same model and sequence length)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from reference_scripts import load

from engine.compare import answer as ans
from engine.compare.estimate.estimate import points_from_reference
from engine.compare.facts.model_flops import train_flops_per_example
from engine.compare.facts.workload import input_shape, model_kind, shaped_model
from engine.reference.data import REFERENCE_CSV, load_reference

ROOT = Path(__file__).resolve().parents[2]
RUN = {
    "schema_version": 2, "run_id": "20261124-073000-bertbs", "created_at": "2026-11-24T07:30:00Z", "status": "ok",
    "source": "local", "dataset": "synthetic", "dtype": "float32", "precision": "float32", "xla": False,
    "device": "cpu", "replicas": 1, "device_name": "AMD EPYC", "host_cores": 2, "backend": "keras-jax",
    "kind": "train", "strategy": "default", "epochs": 2, "steps_per_epoch": 5, "total_s": 20.0,
    "global_batch_size": 32, "per_replica_batch_size": 32, "step_time_ms_median": 16000.0, "examples_per_sec": 2.0,
}  # fmt: skip


@pytest.fixture(scope="module")
def module():
    return load("transformer_refs")


@pytest.fixture(scope="module")
def ref():
    return load_reference()


@pytest.fixture(scope="module")
def published(ref):
    return ref[ref["origin"] == "transformer_refs"]


def test_the_committed_csv_holds_exactly_the_builders_rows(module):
    with REFERENCE_CSV.open(newline="", encoding="utf-8") as f:
        committed = [r for r in csv.DictReader(f) if r["origin"] == "transformer_refs"]
    assert committed == module.transformer_rows()


def test_rows_cover_bert_and_gpt2_on_v100_a100_h100(published):
    assert len(published) >= 12 and published["ref_id"].is_unique
    assert {"bert_base", "bert_large", "gpt2_small"} <= set(published["model"])
    assert {"v100", "a100", "h100"} <= set(published["hardware_key"])
    assert set(published["task"]) == {"training"} and set(published["metric"]) <= {"examples_per_s", "step_time_ms"}
    assert all(re.fullmatch(r"seq \d+", s) for s in published["shape"])


def test_every_row_names_a_file_at_a_commit(published):
    for r in published.to_dict("records"):
        assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/\S+", r["source_url"]), r["ref_id"]
        assert r["year"] and r["value_kind"] in ("exact", "approx") and r["notes"], r["ref_id"]
        assert r["doubtful"] == (r["value_kind"] == "approx"), r["ref_id"]


def test_some_digits_as_their_sources_print_them(published):
    by_id = published.set_index("ref_id")
    assert by_id.loc["LAMBDA-DLB-BERT-05", ["model", "hardware_key", "value", "batch_size"]].tolist() == [
        "bert_base", "a100", 443.0, 320,
    ]  # fmt: skip
    assert by_id.loc["NV-DLE-PT-BERT-02", ["model", "shape", "value"]].tolist() == ["bert_large", "seq 128", 580.0]
    assert by_id.loc["KERAS-IO-BENCH-01", ["framework", "metric", "value"]].tolist() == [
        "keras-jax", "step_time_ms", 222.37,
    ]  # fmt: skip


def test_a_stated_sequence_length_is_the_input_shape_and_keys_the_estimate():
    row = {"task": "training", "model": "bert_base", "dataset": "squad_v1_1", "shape": "seq 384"}
    assert input_shape(row) == (384,)
    assert shaped_model(row) == "bert_base@384" and model_kind("bert_base@384") == "transformer"
    assert shaped_model(row | {"shape": "seq 128"}) == "bert_base"  # the zoo's own length
    assert shaped_model(row | {"model": "gpt2_small", "shape": "seq 1024"}) == "gpt2_small"
    base = train_flops_per_example("bert_base")
    assert base and train_flops_per_example("bert_base@384") == pytest.approx(3 * base)


def test_a_384_token_figure_is_never_bert_bases_own_point(ref):
    points = points_from_reference(ref)
    # nothing published at the zoo's 128 tokens: bert_base's points are AccelBench's own runs of the zoo model
    assert all(p.basis == "measured" for p in points if p.model == "bert_base")
    # Lambda's v1 (transformer_refs) and v2 (modern_refs) SQuAD runs
    devices = {"v100", "a100", "h100", "h100_pcie", "h200", "gh200", "b200"}
    assert {p.hardware_key for p in points if p.model == "bert_base@384"} == devices


def test_compare_of_a_bert_base_run_on_an_a100(ref):
    # at fp32 nobody measured bert_base on a GPU (the pack's H100 is mixed bf16): the answer is the step model's, as
    # "Which device?" ranks it (issue 45: one answer), each published figure beside
    fp32 = ans.answer_for_run(RUN | {"model": "bert_base"}, ref, device="a100")
    assert fp32 is not None and fp32.basis == "estimate"
    assert all(c.rate.settings.get("scale_role") == "beside" for c in fp32.rows[1:] if c.rate.basis == "published")
    a = ans.answer_for_run(RUN | {"model": "bert_base", "precision": "mixed_bfloat16"}, ref, device="a100")
    # Lambda's 384-token A100/H100 ratio, both figures rescaled to 128 tokens by the traced cost (issue 42 item 1),
    # on AccelBench's measured H100 (mixed bf16, the run's precision class)
    assert a is not None and a.basis == "scaled"
    assert "rescaled to the run's shape by the model's traced cost" in a.rows[1].rate.how
    # the published BERT-base rows are cited apart, with the difference that keeps them out of the ratio
    cited = dict(a.other_workloads)
    lambda_a100 = [label for label in cited if label.startswith("A100 80GB SXM4 (published")]
    assert lambda_a100 and all(cited[label] == "another input shape (384, not 128)" for label in lambda_a100)
    assert any(why == "another input shape (512, not 128)" for why in cited.values())  # Keras 3's BERT (fit)


def test_compare_uses_a_published_bert_base_row_at_the_same_length(ref):
    """The mechanics: were a BERT-base figure published at the run's 128 tokens, it is the same workload (a row of
    the answer, not another shape); with no measured anchor it stands beside the scale, on its own figure."""
    row = ref[ref["ref_id"] == "LAMBDA-DLB-BERT-05"].copy()
    row["shape"] = "seq 128"
    a = ans.answer_for_run(RUN | {"model": "bert_base"}, row, device="a100")
    assert a is not None and not a.other_workloads
    (pub,) = [c for c in a.rows if c.rate.id == "LAMBDA-DLB-BERT-05"]
    assert pub.speedup == pytest.approx(443 / 2.0) and pub.rate.settings["scale_role"] == "beside"


def test_compare_of_a_gpt2_small_run_cites_llm_c(ref):
    a = ans.answer_for_run(RUN | {"model": "gpt2_small", "examples_per_sec": 0.5}, ref, device="a100")
    assert a is not None and a.basis == "estimate"  # llm.c's figure is mixed bf16, the run fp32: beside, cited
    (row,) = [c for c in a.rows[1:] if c.rate.id == "LLMC-GPT2-01"]
    assert (
        row.rate.bound == "about" and row.rate.settings["beside_why"] == "another precision (mixed bf16)"
    )  # '~300ms/iter'
    assert row.one is not None and row.one.value == pytest.approx(512 / 0.3 / 8)  # per GPU of the 8


def test_every_bert_and_gpt_key_in_the_table_counts_as_a_transformer():
    """A reference-only key (bert_large, gpt2_xl) must not fall back to 'conv': the estimate would otherwise scale a
    convnet by BERT's device ratios."""
    from engine.compare.facts.workload import model_kind
    from engine.reference.data import load_reference

    keys = {m for m in load_reference()["model"].dropna() if m.startswith(("bert", "gpt"))}
    assert keys and {k: model_kind(k) for k in keys} == dict.fromkeys(keys, "transformer")
