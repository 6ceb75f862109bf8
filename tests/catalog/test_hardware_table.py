"""The one hardware table: every accelerator people rent today is in it with its dense peaks, memory, bandwidth,
TDP where published and the datasheet it came from, and the names frameworks report find the right row."""

from __future__ import annotations

import pytest

from engine.catalog import hardware_table as hw

TODAY = ("b200", "gh200", "h200", "h100", "h100_pcie", "a100", "a100_80gb", "l40s", "l4", "a10g", "t4",
         "mi300x", "mi325x", "tpu_v5e", "tpu_v5p", "tpu_v6e",
         "b300", "gb300", "mi355x", "mi350x", "rtx_pro_6000", "tpu_v7")  # fmt: skip


@pytest.mark.parametrize("key", TODAY)
def test_every_device_of_today_has_peaks_memory_bandwidth_and_a_source(key):
    dev = hw.BY_KEY[key]
    half = max(dev.peak_tflops.get("bfloat16") or 0, dev.peak_tflops.get("float16") or 0)
    assert half > 0, "a half-precision dense peak"
    assert dev.mem_gb and dev.mem_bw_gbs and dev.source
    # bandwidth per FLOP is what makes a device memory- or compute-bound: a sane ridge point (FLOP per byte)
    assert 20 < half * 1e12 / (dev.mem_bw_gbs * 1e9) < 600


def test_peaks_are_dense_not_the_sparsity_figures():
    # the datasheets quote 2:4 sparsity for Hopper/Blackwell (H100 1,979 and B200 4,500 bf16 TFLOP/s)
    assert hw.peak_tflops("h100", "bfloat16") == 989.0
    assert hw.peak_tflops("b200", "bfloat16") == 2250.0


def test_one_silicon_shares_its_peaks():
    gh100 = [d for d in hw.DEVICES if d.silicon == "gh100"]
    assert {d.key for d in gh100} == {"h100", "h100_pcie", "h200", "gh200"}
    assert hw.BY_KEY["h200"].peak_tflops == hw.BY_KEY["h100"].peak_tflops == hw.BY_KEY["gh200"].peak_tflops
    assert hw.BY_KEY["h200"].mem_bw_gbs > hw.BY_KEY["h100"].mem_bw_gbs  # the H200's one real difference


@pytest.mark.parametrize(
    ("reported", "key"),
    [
        ("NVIDIA H100 PCIe", "h100_pcie"),
        ("NVIDIA H100 80GB HBM3", "h100"),
        ("NVIDIA GH200 480GB", "gh200"),  # "h200" is inside "gh200"
        ("NVIDIA H200", "h200"),
        ("NVIDIA L40S", "l40s"),  # "l4" is inside "l40s"
        ("NVIDIA L4", "l4"),
        ("AMD Instinct MI300X", "mi300x"),
        ("TPU v5 lite", "tpu_v5e"),
        ("TPU v5p", "tpu_v5p"),
        ("TPU v6 lite", "tpu_v6e"),
    ],
)
def test_the_name_a_framework_reports_finds_its_row(reported, key):
    assert hw.key_for_name(reported) == key


@pytest.mark.parametrize(
    ("name", "stack", "op", "allow", "math"),
    [
        ("NVIDIA A100-SXM4-80GB", "cuda", "train", True, "tf32"),  # Ampere under JAX's default precision
        ("NVIDIA H100 80GB HBM3", "cuda", "matmul", False, "float32"),  # PyTorch's default matmul: full fp32
        ("Tesla T4", "cuda", "train", True, "float32"),  # Turing: no TF32 units, whatever the switch
        ("Tesla V100-SXM2-16GB", "cuda", "matmul", True, "float32"),
        ("AMD Instinct MI300X", "rocm", "train", True, "float32"),  # MIOpen convolutions run full fp32
        ("AMD Instinct MI300X", "rocm", "matmul", True, "tf32"),  # hipBLASLt XF32 when asked for
        ("AMD Instinct MI355X", "rocm", "matmul", True, "float32"),  # CDNA 4: no XF32
        ("Some New GPU", "cuda", "matmul", True, "float32"),  # not in the table: no TF32 claimed
    ],
)
def test_float32_math_is_tf32_only_where_the_chip_and_its_stack_run_it(name, stack, op, allow, math):
    assert hw.float32_math(name, stack, op, allow) == math
    if math == "float32" and name != "Some New GPU":  # the peak a run's MFU is taken for follows the math
        key = hw.key_for_name(name)
        assert hw.peak_tflops(key, math) == hw.BY_KEY[key].peak_tflops["float32"]
