"""The one price table (data/reference/prices.csv): one sourced, dated default per device, and the one price
function every tab and the CLI use."""

from __future__ import annotations

import pytest

from engine.catalog import hardware_table, prices

DEVICES = (
    "t4", "l4", "a10g", "a100", "a100_80gb", "h100", "h200", "b200", "tpu_v5e", "tpu_v6e",
    "tpu_v2_8", "k80", "p100", "v100",
)  # fmt: skip


@pytest.mark.parametrize("key", DEVICES)
def test_every_device_has_exactly_one_sourced_dated_default(key):
    rows = [p for p in prices.load_prices() if p.hardware_key == key]
    defaults = [p for p in rows if p.default]
    assert len(defaults) == 1, f"{key}: {len(defaults)} default rows"
    (p,) = defaults
    assert p.usd_per_hour > 0 and p.provider and p.offering and p.source
    assert p.date and p.date != "undated" or key == "p100"  # the P100's source does not date its price
    assert p.source_url.startswith("https://")
    assert key in hardware_table.BY_KEY


def test_every_row_names_a_known_device_and_its_device_unit():
    units = {"tpu_v2_8": "board", "k80": "die", "tpu_v5e": "chip", "tpu_v5p": "chip", "tpu_v6e": "chip"}
    for p in prices.load_prices():
        assert p.hardware_key in hardware_table.BY_KEY
        assert p.per_unit == units.get(p.hardware_key, "gpu")


def test_the_seed_tpu_prices_stay_with_the_dated_one_as_default():
    tpu = {p.usd_per_hour: p for p in prices.load_prices() if p.hardware_key == "tpu_v2_8"}
    assert set(tpu) == {6.5, 4.5} and tpu[6.5].default and not tpu[4.5].default


def test_price_for_device_from_the_table():
    got = prices.price_for_device("h100")
    assert got is not None and got.usd_per_hour == 6.88 and got.whose == "price table" and got.per_unit == "gpu"
    assert got.text.startswith("$6.88/h per gpu (price table: AWS p5.48xlarge") and "2026" in got.text
    tpu = prices.price_for_device("tpu_v2_8")
    assert tpu is not None and tpu.usd_per_hour == 6.5 and "2018-02" in tpu.text and tpu.row is not None
    assert prices.price_for_device("cpu") is None and prices.price_for_device(None) is None


def test_a_users_price_overrides_the_table_and_is_labelled_yours():
    got = prices.price_for_device("tpu_v2_8", 2.1)
    assert got is not None and got.usd_per_hour == 2.1 and got.whose == "yours" and got.row is None
    assert got.text == "$2.1/h (your price)" and got.per_unit == "board"
    mine = prices.price_for_device("cpu", "0.5")
    assert mine is not None and mine.usd_per_hour == 0.5 and mine.per_unit == "device"
    for nothing in (None, 0, -1, "", "abc", float("nan")):
        table = prices.price_for_device("h100", nothing)
        assert table is not None and table.whose == "price table"


def test_usd_per_million_examples():
    assert prices.usd_per_million_examples(1000.0, 3.6) == pytest.approx(1.0)  # 1,000 s per million at $3.6/h
    assert prices.usd_per_million_examples(21402, 6.5) == pytest.approx(0.08437, abs=1e-5)  # article 003
    assert prices.usd_per_million_examples(500.0, 0.0) == 0.0
    with pytest.raises(ValueError):
        prices.usd_per_million_examples(0.0, 1.0)
    with pytest.raises(ValueError):
        prices.usd_per_million_examples(10.0, -1.0)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("NVIDIA H200", "h200"), ("NVIDIA H200 NVL", "h200"), ("NVIDIA B200", "b200"),
        ("NVIDIA A100-SXM4-80GB", "a100_80gb"), ("NVIDIA A100 80GB PCIe", "a100_80gb"),
        ("NVIDIA A100-SXM4-40GB", "a100"), ("NVIDIA H100 80GB HBM3", "h100"), ("TPU v6e", "tpu_v6e"),
        ("TPU v6 lite", "tpu_v6e"), ("TPU v5 lite", "tpu_v5e"), ("Tesla T4", "t4"),
    ],
)  # fmt: skip
def test_hardware_table_finds_the_new_devices(name, key):
    assert hardware_table.key_for_name(name) == key


def test_new_devices_have_datasheet_peaks_and_tdp():
    assert hardware_table.peak_tflops("b200", "bfloat16") == 2250.0 and hardware_table.peak_tflops("b200") == 75.0
    assert hardware_table.peak_tflops("h200", "tf32") == 494.7 and hardware_table.BY_KEY["h200"].tdp_w == 700
    assert hardware_table.peak_tflops("a100_80gb", "mixed_float16") == 312.0
    assert hardware_table.peak_tflops("tpu_v6e", "bfloat16") == 918.0
