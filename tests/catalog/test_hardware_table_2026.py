"""Today's devices (issue 42 item 4): B300 and GB300 (Blackwell Ultra), MI355X and MI350X (CDNA 4), the RTX PRO 6000
Blackwell Server Edition and TPU7x (Ironwood) are in the one hardware table with their datasheet peaks, memory and
bandwidth; the names NVML, ROCm and JAX report find them; and "Which device?" estimates each from its peak and
bandwidth like any device (the step model), the B300 at least the B200."""

from __future__ import annotations

import pytest

from engine.catalog import hardware_table as hw
from engine.compare import which as wd
from engine.compare.facts.silicon import DEVICES as FACTS
from engine.compare.picks import all_device_keys
from tests.compare.test_which_device import R50

NEW = ("b300", "gb300", "mi355x", "mi350x", "rtx_pro_6000", "tpu_v7")

# key: (dense half-precision TFLOP/s, GB, GB/s, silicon) as the datasheets give them (see the table's sources)
FIGURES = {
    "b300": (2250.0, 288, 8000, "blackwell_ultra"),
    "gb300": (2500.0, 279, 8000, "blackwell_ultra"),
    "mi355x": (2516.6, 288, 8000, "cdna4"),
    "mi350x": (2306.9, 288, 8000, "cdna4"),
    "rtx_pro_6000": (500.0, 96, 1597, "gb202"),
    "tpu_v7": (2307.0, 192, 7370, "tpu_v7"),
}


@pytest.mark.parametrize("key", NEW)
def test_each_new_device_has_its_dense_peak_memory_bandwidth_silicon_and_source(key):
    dev = hw.BY_KEY[key]
    half, mem, bw, silicon = FIGURES[key]
    assert hw.peak_tflops(key, "mixed_bfloat16") == half
    assert (dev.mem_gb, dev.mem_bw_gbs, dev.silicon) == (mem, bw, silicon)
    assert dev.source and dev.device_type == ("tpu" if key == "tpu_v7" else "gpu")
    # a sane ridge point (FLOP per byte), as for every device of today (test_hardware_table)
    assert 20 < half * 1e12 / (bw * 1e9) < 600
    assert FACTS[key].estimable and FACTS[key].peak_flops["mixed"] and FACTS[key].bandwidth


def test_peaks_are_dense_halves_of_the_sparsity_figures():
    # HGX B300: FP16/BF16 36 PF and TF32 18 PF with sparsity for 8 GPUs; GB300 NVL72: 360 / 180 PF for 72
    assert hw.peak_tflops("b300", "bfloat16") == 36_000 / 8 / 2
    assert hw.peak_tflops("b300", "tf32") == 18_000 / 8 / 2
    assert hw.peak_tflops("gb300", "bfloat16") == 360_000 / 72 / 2
    assert hw.peak_tflops("gb300", "tf32") == 180_000 / 72 / 2
    assert hw.peak_tflops("b300", "float16") >= hw.peak_tflops("b200", "float16")
    assert hw.BY_KEY["b300"].mem_bw_gbs >= hw.BY_KEY["b200"].mem_bw_gbs


def test_cdna4_has_no_tf32_and_the_tpu_v7_only_its_bf16_peak():
    assert "tf32" not in hw.BY_KEY["mi355x"].peak_tflops and hw.peak_tflops("mi355x", "float32") == 157.3
    assert hw.BY_KEY["mi355x"].tdp_w == 1400 and hw.BY_KEY["mi350x"].tdp_w == 1000
    assert hw.BY_KEY["tpu_v7"].peak_tflops == {"bfloat16": 2307.0} and hw.BY_KEY["tpu_v7"].tdp_w is None


def test_a_tpu_v7_chip_is_two_cores_as_the_v5p_and_rents_by_the_chip():
    from engine.compare.facts.workload import device_unit
    from engine.reference.units import units_between

    assert hw.BY_KEY["tpu_v7"].unit_sizes == hw.BY_KEY["tpu_v5p"].unit_sizes
    assert device_unit("tpu_v7") == "chip" and units_between("tpu_v7", "core", "chip") == 0.5


@pytest.mark.parametrize(
    ("reported", "key"),
    [
        ("NVIDIA B300 SXM6 AC", "b300"),
        ("NVIDIA GB300", "gb300"),  # "b300" is inside "gb300"
        ("NVIDIA B200", "b200"),
        ("AMD Instinct MI355X", "mi355x"),
        ("AMD Instinct MI350X", "mi350x"),
        ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx_pro_6000"),
        ("TPU v7", "tpu_v7"),
        ("TPU7x", "tpu_v7"),  # what JAX reports as the device kind
        ("TPU v6 lite", "tpu_v6e"),
        ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", None),  # other clocks and memory: not the server row
    ],
)
def test_the_name_a_framework_reports_finds_its_row(reported, key):
    assert hw.key_for_name(reported) == key


def test_which_device_lists_every_new_device():
    assert set(NEW) <= set(all_device_keys())


@pytest.mark.parametrize("precision", ["float32", "mixed_float16"])
def test_which_device_estimates_each_new_device_for_resnet50_the_b300_at_least_the_b200(ref, precision):
    w = wd.which_device({**R50, "precision": precision}, ref)
    by_key = {r.hardware_key: r for r in w.rows}
    for key in NEW:
        row = by_key[key]
        assert row.basis == "estimate" and row.rate_one_device > 0 and row.low <= row.rate_one_device <= row.high
    assert by_key["b300"].rate_one_device >= by_key["b200"].rate_one_device
    rates = [r.rate_one_device for r in w.rows]
    assert rates == sorted(rates, reverse=True)


def test_short_names_fit_the_device_column_of_compare_device_all():
    # a name longer than the longest before (H100 PCIe, A100 80GB) widens the column and cuts the precision's
    assert max(len(d.short) for d in hw.DEVICES if d.peak_tflops) <= 9
    assert hw.BY_KEY["rtx_pro_6000"].short == "PRO 6000"
