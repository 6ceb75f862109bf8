"""Cost: per run and per million examples, at the one price per device (engine.catalog.prices) × the row's devices,
the same price on the Cost tab and the Efficiency tab."""

from __future__ import annotations

import pytest

from engine.compare.facts import likeforlike as lfl
from engine.compare.rank import cost as analysis
from engine.compare.rank import efficiency as eff
from engine.compare.words import tables as cmp
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


def test_hardware_price_is_per_device_times_devices():
    eight = analysis.hardware_price("v100", 8, "gpu")
    assert eight is not None and eight.usd_per_hour == pytest.approx(8 * 3.06) and eight.devices == 8
    assert "price table: AWS p3.16xlarge" in eight.text and eight.text.endswith("× 8")
    board = analysis.hardware_price("tpu_v2_8", 8, "core")  # 8 cores = one v2-8 board
    assert board is not None and board.usd_per_hour == 6.5 and "× " not in board.text
    chips = analysis.hardware_price("tpu_v2", 4, "chip")  # chips are priced through their family's board
    assert chips is not None and chips.usd_per_hour == 6.5
    assert analysis.hardware_price("cpu", 1, "host") is None
    assert analysis.hardware_price("v100", None, "gpu") is None  # a source that gives no device count


def test_a_users_price_is_taken_as_given_and_labelled_yours():
    got = analysis.hardware_price("v100", 8, "gpu", user_usd_h=10.0)
    assert got is not None and got.usd_per_hour == 10.0 and got.choice.whose == "yours"
    assert got.text == "$10/h (your price)"


def test_cost_tab_and_efficiency_tab_charge_a_tpu_v2_8_the_same(ref):
    rows = ref[(ref["hardware_key"] == "tpu_v2_8") & (ref["metric"] == "examples_per_s")].head(1)
    long = cmp.long_rows([], rows)
    cost_tab = cmp.default_prices(long, [], ref)
    (label,) = cost_tab
    rate = lfl.rate_of_reference(rows.to_dict("records")[0])
    assert rate is not None
    efficiency_tab, how = eff.price_for(rate)
    assert cost_tab[label] == efficiency_tab == 6.5 and "2018-02" in how
    starts = analysis.starting_prices(long, {})
    assert starts[label].text.startswith("$6.5/h per board (price table: Google Cloud")


def test_cost_tab_and_efficiency_tab_agree_for_multi_gpu_rows(ref):
    rows = ref[ref["ref_id"] == "LAMBDA-DLB-13"]  # 8x V100
    long = cmp.long_rows([], rows)
    (cost_tab,) = cmp.default_prices(long, [], ref).values()
    rate = lfl.rate_of_reference(rows.to_dict("records")[0])
    assert rate is not None
    assert cost_tab == pytest.approx(eff.price_for(rate)[0]) == pytest.approx(8 * 3.06)


def test_cost_table(ref):
    lstm = ref[(ref["source_id"] == "SEED-RISEML") & (ref["metric"] == "examples_per_s")]
    table = analysis.cost_table(lstm, {"TPU v2-8": 6.5, "V100": 3.06}).set_index("label")
    assert set(table.index) == {"TPU v2-8", "V100"}  # no P100 price given: left out
    assert table.loc["TPU v2-8", "usd_per_million_examples"] < table.loc["V100", "usd_per_million_examples"]
    times = ref[(ref["source_id"] == "SEED-VN-FLOWERS") & (ref["metric"] == "train_time_s") & (ref["model"] == "vgg19")]
    t = analysis.cost_table(times, {"TPU v2-8": 4.5})
    assert sorted(t["usd_per_run"].round(4)) == [round(127.82 / 3600 * 4.5, 4), round(213.0066 / 3600 * 4.5, 4)]


def test_an_offer_names_its_provider_once():
    from engine.catalog.prices import offer_text, price_for_device

    assert offer_text("Google Cloud", "Cloud TPU v5e") == "Google Cloud TPU v5e"
    assert offer_text("AWS", "p5.48xlarge (8x H100 80GB) / 8") == "AWS p5.48xlarge (8x H100 80GB) / 8"
    assert offer_text("Lambda", "Lambda Cloud 1x H100") == "Lambda Cloud 1x H100"
    choice = price_for_device("tpu_v5e")
    assert choice is not None and "Cloud Cloud" not in choice.text and "Google Cloud TPU v5e" in choice.text
