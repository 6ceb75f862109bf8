"""The seed claims come out of the data: article 001's TPU ratios per model, article 003's 12.9× / 7.7×."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from engine.reference import analysis


@pytest.fixture(scope="module")
def flowers(ref):
    return ref[(ref["source_id"] == "SEED-VN-FLOWERS") & (ref["metric"] == "train_time_s")]


def _table(flowers, tpu_batch: int):
    keep = (flowers["hardware_key"] != "tpu_v2_8") | (flowers["batch_size"] == tpu_batch)
    return flowers[keep & ((flowers["hardware_key"] == "tpu_v2_8") | (flowers["batch_size"] == 32))]


# Published seconds → expected ratios, computed by hand from article 001's tables (K80 time / TPU time).
EXPECTED_T1_VS_K80 = {
    "flowers_cnn": 205.77 / 90.5885,
    "vgg19": 1866.703 / 213.0066,
    "xception": 2188.83 / 211.558,
    "resnet152v2": 2997.055 / 532.368,
}
EXPECTED_T1_VS_P100 = {
    "flowers_cnn": 72.94 / 90.5885,
    "vgg19": 510.689 / 213.0066,
    "xception": 683.13 / 211.558,
    "resnet152v2": 813.402 / 532.368,
}
EXPECTED_T2_VS_K80 = {
    "flowers_cnn": 205.77 / 67.78,
    "vgg19": 1866.703 / 127.82,
    "xception": 2188.83 / 132.0539,
    "resnet152v2": 2997.055 / 295.56,
}
EXPECTED_T2_VS_P100 = {
    "flowers_cnn": 72.94 / 67.78,
    "vgg19": 510.689 / 127.82,
    "xception": 683.13 / 132.0539,
    "resnet152v2": 813.402 / 295.56,
}


@pytest.mark.parametrize(
    ("tpu_batch", "baseline", "expected"),
    [
        (32, "k80", EXPECTED_T1_VS_K80),
        (32, "p100", EXPECTED_T1_VS_P100),
        (128, "k80", EXPECTED_T2_VS_K80),
        (128, "p100", EXPECTED_T2_VS_P100),
    ],
)
def test_article_001_tpu_ratios_per_model(flowers, tpu_batch, baseline, expected):
    got = analysis.pair_speedup(_table(flowers, tpu_batch), "tpu_v2_8", baseline)
    assert got.to_dict() == pytest.approx(expected, rel=1e-12)


def test_article_001_claims(flowers):
    t1_p100 = analysis.pair_speedup(_table(flowers, 32), "tpu_v2_8", "p100")
    # "small model: the TPU is even a little slower than the P100 (Table 1)"
    assert t1_p100["flowers_cnn"] < 1
    # "larger models: the TPU is faster than the P100", 1.5x and up
    assert (t1_p100[["vgg19", "xception", "resnet152v2"]] > 1.5).all()
    assert round(t1_p100["resnet152v2"], 2) == 1.53 and round(t1_p100["vgg19"], 2) == 2.40
    t1_k80 = analysis.pair_speedup(_table(flowers, 32), "tpu_v2_8", "k80")
    assert round(t1_k80["vgg19"], 2) == 8.76 and round(t1_k80["xception"], 2) == 10.35


def test_speedup_table_and_geometric_mean(flowers):
    table = analysis.speedup_table(_table(flowers, 32), baseline="k80", label_col="hardware_key")
    assert set(table["label"]) == {"tpu_v2_8", "k80", "t4", "p100"} and len(table) == 16
    assert (table.loc[table["label"] == "k80", "speedup"] == 1.0).all()
    gm = analysis.geomean_speedups(table).set_index("label")["geomean_speedup"]
    expected = math.exp(sum(math.log(v) for v in EXPECTED_T1_VS_K80.values()) / 4)
    assert gm["tpu_v2_8"] == pytest.approx(expected) and gm.index[0] == "tpu_v2_8"
    assert gm["k80"] == pytest.approx(1.0)


def test_speedup_table_with_a_single_row_baseline(ref):
    lstm = ref[(ref["model"] == "bilstm") & (ref["metric"] == "examples_per_s")]
    table = analysis.speedup_table(lstm, baseline="SEED-RISEML-06")  # the P100 row
    got = dict(zip(table["label"], table["speedup"], strict=True))
    assert got["TPU v2-8"] == pytest.approx(21402 / 1658) and got["P100"] == 1.0


def test_article_003_lstm_ratios(ref):
    lstm = ref[(ref["source_id"] == "SEED-RISEML") & (ref["metric"] == "examples_per_s")]
    vs_p100 = analysis.pair_speedup(lstm, "tpu_v2_8", "p100")["bilstm"]
    vs_v100 = analysis.pair_speedup(lstm, "tpu_v2_8", "v100")["bilstm"]
    assert round(vs_p100, 1) == 12.9 and round(vs_v100, 1) == 7.7


def test_stated_ratios_checked_against_absolute_numbers(ref):
    checks = analysis.stated_vs_computed(ref).set_index("ref_id")
    assert checks.loc["SEC-GSLIN-01", "agrees"] is True and checks.loc["SEC-GSLIN-02", "agrees"] is True
    assert checks.loc["SEED-RISEML-11", "agrees"] is True  # the seed's stated 7.7x
    assert checks.loc["SEED-RISEML-12", "agrees"] is False  # the seed's "16.9x" is not 21402/1658
    assert checks.loc["SEED-RISEML-12", "computed"] == pytest.approx(12.908, abs=1e-3)
    assert checks.loc["SEED-COLAB-FMNIST-03", "computed"] == pytest.approx(3.0)
    # 8.4x / 5.1x come from chart images: stated, with no absolute numbers to recompute them from
    stated = checks.loc[["SEED-RISEML-01", "SEED-RISEML-02", "SEED-RISEML-03", "SEED-RISEML-04"], "stated"]
    assert stated.tolist() == [8.4, 5.1, 8.4, 4.8]
    assert checks.loc["SEED-RISEML-01", "agrees"] is None


def test_direction_is_respected():
    assert analysis.speedup(10.0, 40.0, higher_is_better=False) == 4.0  # a time 4x shorter
    assert analysis.speedup(40.0, 10.0, higher_is_better=True) == 4.0  # a throughput 4x higher
    with pytest.raises(ValueError):
        analysis.speedup(0.0, 1.0, True)
    rows = pd.DataFrame(
        {
            "ref_id": ["a", "b"],
            "hardware": ["slow", "fast"],
            "model": ["m", "m"],
            "dataset": ["d", "d"],
            "metric": ["op_time_s", "op_time_s"],
            "value": [2.0, 0.5],
            "unit": ["s", "s"],
        }
    )
    table = analysis.speedup_table(rows, baseline="slow")
    assert dict(zip(table["label"], table["speedup"], strict=True)) == {"slow": 1.0, "fast": 4.0}


def test_ratio_rows_are_never_compared_and_ambiguous_pairs_refused(ref):
    mixed = ref[ref["model"] == "bilstm"]  # holds stated ratios and absolute throughputs
    table = analysis.speedup_table(mixed, baseline="P100")
    assert "speedup_vs" not in set(table["metric_family"])
    resnet = ref[(ref["model"] == "resnet50") & (ref["metric"] == "images_per_s")]
    with pytest.raises(ValueError, match="several rows"):
        analysis.pair_speedup(resnet, "v100", "p100")
