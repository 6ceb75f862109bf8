"""Cost: per run and per million examples; prices per device from the references."""

from __future__ import annotations

import pytest

from engine.compare import cost as analysis
from engine.reference.data import load_reference


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def test_cost_per_run_and_million_examples():
    assert analysis.cost_usd(3600, 6.5) == 6.5
    assert analysis.cost_usd(1800, 4.5) == 2.25
    assert analysis.cost_per_million_examples_usd(736.0, 4.5) == pytest.approx(1e6 / 736 / 3600 * 4.5)
    with pytest.raises(ValueError):
        analysis.cost_usd(-1, 1)


def test_article_003_cost_per_result():
    # $6.50/h Cloud TPU at 21,402 examples/s: about 8.4 cents per million examples
    assert analysis.cost_per_million_examples_usd(21402, 6.5) == pytest.approx(0.08437, abs=1e-5)


def test_reference_prices_per_device(ref):
    v100 = analysis.reference_prices(ref, "v100", per="gpu").set_index("ref_id")
    assert v100.loc["DAWNBENCH-17", "price_per_unit_usd_h"] == pytest.approx(24.48 / 8)
    assert v100.loc["SPEC-V100-AVENSUN-02", "price_per_unit_usd_h"] == 3.06
    tpu = analysis.reference_prices(ref, "tpu_v2_8")
    assert {4.5, 6.5, 6.595, 4.595} <= set(tpu["value"])


def test_cost_table(ref):
    lstm = ref[(ref["source_id"] == "SEED-RISEML") & (ref["metric"] == "examples_per_s")]
    table = analysis.cost_table(lstm, {"TPU v2-8": 6.5, "V100": 3.06}).set_index("label")
    assert set(table.index) == {"TPU v2-8", "V100"}  # no P100 price given: left out
    assert table.loc["TPU v2-8", "usd_per_million_examples"] < table.loc["V100", "usd_per_million_examples"]
    times = ref[(ref["source_id"] == "SEED-VN-FLOWERS") & (ref["metric"] == "train_time_s") & (ref["model"] == "vgg19")]
    t = analysis.cost_table(times, {"TPU v2-8": 4.5})
    assert sorted(t["usd_per_run"].round(4)) == [round(127.82 / 3600 * 4.5, 4), round(213.0066 / 3600 * 4.5, 4)]
