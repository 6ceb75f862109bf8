"""Published multi-device scaling (issue 30 item 4) on the real curated reference table: efficiency = rate at N ÷
(N × rate at 1) taken only within one source, one device, one precision, one stack, one per-device batch and one
input shape; its spread from host variants and the host spread a row's notes state; the sentence, the labelled
estimate for two nodes, and the empty answer for a model nobody published at several device counts."""

from __future__ import annotations

import pytest

from engine.compare.evidence import scaling_refs as sr
from engine.compare.words import scaling_text as st
from engine.sweep import summary

LAMBDA = "LAMBDA-DLB-V2"


def _one(series: dict, device: str, precision: str, source: str = LAMBDA, batch: int | None = None) -> sr.Series:
    [found] = [
        s
        for k, s in series.items()
        if (k.device, k.precision, k.source) == (device, precision, source)
        and (batch is None or k.batch_per_device == batch)
    ]
    return found


def test_lambda_h100_resnet50_scales_1_2_4_8_with_the_efficiency_of_each_count(ref):
    series = sr.published_scaling(ref, "resnet50")
    h100 = _one(series, "h100", "mixed_float16")
    assert [p.devices for p in h100.points] == [1, 2, 4, 8]
    assert h100.key.batch_per_device == 1280 and h100.key.shape == "224×224×3" and h100.unit == "gpu"
    eight = h100.points[-1]
    assert (eight.examples_per_sec, eight.ideal) == (22071.0, 8 * 2790.0)
    assert eight.efficiency == pytest.approx(22071 / (8 * 2790))
    # the notes state each figure's spread over Lambda's hosts: it widens the efficiency's spread
    assert eight.low < eight.efficiency < eight.high and eight.high > 1.0
    assert sr.curves(series)[("h100", "mixed_float16", LAMBDA)][:2] == [
        (1.0, 2790.0, 1.0),
        (2.0, 5527.5, pytest.approx(5527.5 / (2 * 2790))),
    ]
    assert st.published_sentence(h100) == (
        "8 H100 (published, Lambda PyTorch 2025, mixed fp16): 7.9× one H100 (99 % of ideal, 98–103 %)"
    )


def test_a_curve_never_mixes_sources_precisions_or_per_device_batches(ref):
    series = sr.published_scaling(ref, "resnet50")
    rows = ref.set_index("ref_id")
    for key, s in series.items():
        ids = [i for p in s.points for i in p.ref_ids]
        assert set(rows.loc[ids, "source_id"]) == {key.source}
        assert set(rows.loc[ids, "hardware_key"]) == {key.device}
        assert set(rows.loc[ids, "precision"]) == {key.precision}
        assert rows.loc[ids, "doubtful"].eq(False).all()
    # tf_cnn_benchmarks: batch 64 on one P100 and 64 per GPU on eight are one curve; its batch-32 rows are not in it
    p100 = _one(series, "p100", "float32", "TF-BENCH-2017")
    assert p100.key.batch_per_device == 64
    assert p100.points[0].ref_ids == ("TF-BENCH-2017-01", "TF-BENCH-2017-02")
    # two stacks of one source and device are two curves (Lambda's 2023 rows state no batch: their own curve)
    assert _one(series, "h100", "mixed_float16", "LAMBDA-DLB").key.batch_per_device is None


def test_host_variants_are_the_spread_and_each_system_is_divided_by_its_own_one_device_rate(ref):
    series = sr.published_scaling(ref, "resnet50")
    h200 = _one(series, "h200", "mixed_float16").points[-1]  # 8× H200 plain, HTOff and 'lambda scalar'
    assert h200.rows == 3 and h200.efficiency == pytest.approx(24475 / (8 * 3079))
    # the lowest: the 'lambda scalar' row's slowest host (its notes: spread 21512–21880) over one H200
    assert h200.low == pytest.approx(21512 / (8 * 3079)) and h200.high == pytest.approx(24479 / (8 * 3079))
    # Lambda 2023: the 8× A100 80GB SXM4 over one A100 80GB SXM4, not over the PCIe card beside it
    a100 = _one(series, "a100", "mixed_float16", "LAMBDA-DLB").points[-1]
    assert a100.ideal == 8 * 1582 and a100.efficiency == pytest.approx(11439 / (8 * 1582))


def test_a_published_curve_above_ideal_is_flagged_and_never_extended(ref):
    series = sr.published_scaling(ref, "bert_base@384")  # Lambda's BERT-base at sequence 384
    b200 = _one(series, "b200", "mixed_float16")
    assert b200.points[-1].efficiency > 2  # 30,221 seq/s on eight B200s vs 1,405 on one
    assert "above ideal" in sr.note(b200.points[-1]) and "above ideal" in st.published_sentence(b200)
    assert st.estimate(b200, 16) is None and st.nodes_clause(b200) == "" and st.estimate_sentence(b200, 16, 2) == ""
    table = sr.frame(series)
    assert table.loc[table["efficiency"] > sr.ABOVE_IDEAL, "note"].str.startswith("above ideal").all()


def test_two_nodes_of_eight_is_an_estimate_with_its_range_beyond_the_published_counts(ref):
    series = sr.published_scaling(ref, "resnet50")
    a100 = _one(series, "a100", "tf32", "LAMBDA-DLB")  # 87 % at 8 GPUs
    low, high = st.estimate(a100, 16)
    assert high == pytest.approx(a100.points[-1].efficiency) and low == pytest.approx(high ** (4 / 3))
    text = st.estimate_sentence(a100, 16, nodes=2)
    assert text.startswith("16 A100 (estimate, 2 nodes of 8, from Lambda PyTorch 2023 1–8 GPU figures, tf32): about")
    assert "83–87 % of ideal" in text and text.endswith("the network between nodes is not in these figures")
    assert st.nodes_clause(a100) == "as 2 nodes of 8 (16 A100), estimate: about 13–14× one A100 (83–87 % of ideal)"
    with pytest.raises(ValueError, match="published"):
        st.estimate(a100, 8)
    k80 = _one(series, "k80", "float32", "TF-BENCH-2017")  # 64 dies over eight servers: already many nodes
    assert k80.points[-1].devices == 64 and st.nodes_clause(k80) == ""


def test_no_published_curve_for_a_model_or_input_shape_nobody_published_at_several_counts(ref):
    assert sr.published_scaling(ref, "tiny_cnn") == {} and sr.frame({}).empty
    assert sr.published_scaling(ref, "bert_base") == {}  # the zoo's BERT-base reads 128 tokens; Lambda's 384
    assert sr.other_shapes(ref, "bert_base") == ["bert_base@384"]
    assert sr.published_scaling(None, "resnet50") == {} and sr.default_pick({}) == []
    assert st.model_name("bert_base@384") == "bert_base at sequence 384" and st.model_name("resnet50") == "ResNet-50"


def test_the_default_pick_is_the_newest_source_mixed_precision_first(ref):
    series = sr.published_scaling(ref, "resnet50")
    picked = sr.default_pick(series)
    assert len(picked) == 6 and all("Lambda PyTorch 2025" in label for label in picked)
    assert [label.split(" · ")[2] for label in picked[:3]] == ["mixed fp16"] * 3


def test_a_sweeps_point_reads_as_a_measured_sentence_with_its_spread():
    rows = [
        {"status": "ok", "model": "tiny_cnn", "dataset": "synthetic", "precision": "float32", "backend": "torch",
         "device": "cpu", "global_batch_size": 16, "examples_per_sec": eps, "processes": n}
        for n, eps in ((1, 100.0), (2, 170.0), (2, 190.0))
    ]  # fmt: skip
    two = summary.scaling(rows).set_index("processes").loc[2].to_dict()
    assert st.measured_sentence({**two, "processes": 2}) == (
        "2 processes (measured, tiny_cnn synthetic float32 torch cpu, global batch 16): 1.80× one process "
        "(90 % of ideal, 85–95 %), 2 runs"
    )
