"""Speedups from published tables of identical workloads, and published ratios checked against the
absolute numbers they came from. (Runs against references are tested in test_reference_likeforlike.py.)"""

from __future__ import annotations

import math

import pytest

from engine.reference.data import load_reference, seed_001_table
from engine.reference.speedup import stated_vs_computed, time_ratios
from engine.reference.units import geometric_mean, speedup


@pytest.fixture(scope="module")
def ref():
    return load_reference()


# Published seconds → expected ratios, computed by hand from article 001's tables (K80 time / TPU time).
EXPECTED = {
    (1, "K80"): {"VGG19": 1866.703 / 213.0066, "Xception": 2188.83 / 211.558, "ResNet152V2": 2997.055 / 532.368},
    (1, "P100"): {"VGG19": 510.689 / 213.0066, "Xception": 683.13 / 211.558, "ResNet152V2": 813.402 / 532.368},
    (2, "K80"): {"VGG19": 1866.703 / 127.82, "Xception": 2188.83 / 132.0539, "ResNet152V2": 2997.055 / 295.56},
    (2, "P100"): {"VGG19": 510.689 / 127.82, "Xception": 683.13 / 132.0539, "ResNet152V2": 813.402 / 295.56},
}


@pytest.mark.parametrize(("table", "baseline"), list(EXPECTED))
def test_article_001_tpu_ratios_per_model(ref, table, baseline):
    got = time_ratios(seed_001_table(ref, table), "TPUv2", (baseline,), name="TPU")[f"TPU vs {baseline} (×)"]
    for model, expected in EXPECTED[(table, baseline)].items():
        assert got[model] == pytest.approx(expected, abs=0.005)


def test_article_001_claims(ref):
    t1 = time_ratios(seed_001_table(ref, 1), "TPUv2", ("K80", "P100"))
    vs_p100 = t1["TPUv2 vs P100 (×)"]
    assert vs_p100.iloc[0] < 1  # "small model: the TPU is even a little slower than the P100 (Table 1)"
    assert (vs_p100.iloc[1:] > 1.5).all()  # larger models: 1.5x and up
    assert t1.loc["VGG19", "TPUv2 vs K80 (×)"] == 8.76 and t1.loc["Xception", "TPUv2 vs K80 (×)"] == 10.35
    gm = geometric_mean(t1["TPUv2 vs K80 (×)"].tolist())
    assert gm == pytest.approx(math.exp(sum(math.log(v) for v in t1["TPUv2 vs K80 (×)"]) / 4))


def test_stated_ratios_checked_against_absolute_numbers(ref):
    checks = stated_vs_computed(ref).set_index("ref_id")
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
    assert speedup(10.0, 40.0, higher_is_better=False) == 4.0  # a time 4x shorter
    assert speedup(40.0, 10.0, higher_is_better=True) == 4.0  # a throughput 4x higher
    with pytest.raises(ValueError):
        speedup(0.0, 1.0, True)
