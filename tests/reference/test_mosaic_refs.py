"""MosaicML's MPT-7B rows (mosaic_refs.py, source MOSAICML-XV): a second AMD silicon (MI250, CDNA 2) beside NVIDIA's
A100s on one stack, per GPU, each with its source and how its per-GPU rate was read; the MI250 counted per OAM
package as the hardware table counts it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from reference_scripts import load

from engine.catalog import hardware_table as hw
from engine.compare.facts.model_flops import train_flops_per_example
from engine.compare.facts.silicon import DEVICES
from engine.reference.data import REFERENCE_CSV, load_reference

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def refs():
    return load("mosaic_refs")


@pytest.fixture(scope="module")
def rows():
    ref = load_reference()
    return ref[ref["source_id"] == "MOSAICML-XV"]


def test_the_mi250_row_is_the_posts_tflops_per_package_as_tokens_per_gpu(rows, refs):
    mi250 = rows[rows["hardware_key"] == "mi250"]
    assert len(mi250) == 1
    r = mi250.iloc[0]
    assert r["source_url"] == "https://www.databricks.com/blog/training-llms-scale-amd-mi250-gpus"
    assert r["year"] == 2023 and r["model"] == "mpt_7b" and r["shape"] == "seq 2048"
    assert (r["hardware_count"], r["count_unit"], r["value_kind"]) == (1, "gpu", "derived")
    # 166 TFLOP/s per GPU (the post) ÷ MPT-7B's FLOPs per token; one GPU = one OAM package of two GCDs
    assert r["value"] == 3845 == pytest.approx(166e12 / refs.FLOPS_PER_TOKEN, abs=0.5)
    assert "166 TFLOP/s/GPU" in r["notes"] and "(4 GPUs)" in r["hardware_label"]
    assert "ROCm 5.7" in r["framework_label"] and "ROCm 6.4" in r["notes"], "the stack's version, and the caveat"
    assert 0.4 < 166 / hw.peak_tflops("mi250", "bfloat16") < 0.5, "a package's peak: 46 % MFU (a GCD's: 92 %)"


def test_the_a100_rows_are_the_foundry_tables_tokens_per_gpu_at_a_commit(rows, refs):
    nvidia = rows[rows["hardware_key"] != "mi250"].set_index("hardware_key")
    assert dict(nvidia["value"]) == {"a100": 3679.0, "a100_80gb": 4641.0}
    for key, row in nvidia.iterrows():
        assert refs.FOUNDRY_COMMIT in row["source_url"] and refs.FOUNDRY_COMMIT[:12] in row["notes"], key
        assert row["value_kind"] == "exact" and f"| {int(row['value'])} |" in row["notes"], key
        assert "CUDA" in row["framework_label"] and "(8 GPUs)" in row["hardware_label"], key


def test_the_flops_per_token_give_back_the_tables_model_tflops(refs):
    # the README's A100 80GB row: 4,641 tokens/s per GPU is "Model TFLOP" 200; the MI250's 166 uses the same count
    assert abs(refs.FLOPS_PER_TOKEN * 4641 / 1e12 - 200) < 0.5
    assert train_flops_per_example("mpt_7b") == refs.FLOPS_PER_TOKEN


def test_the_mi250_is_one_oam_package_of_cdna2_in_the_hardware_table():
    dev = hw.BY_KEY["mi250"]
    assert (dev.peak_tflops["bfloat16"], dev.peak_tflops["float32"], dev.mem_gb, dev.mem_bw_gbs) == (
        362.1, 90.5, 128, 3200)  # fmt: skip
    assert dev.silicon == "cdna2" and dev.source and "tf32" not in dev.peak_tflops
    assert DEVICES["mi250"].vendor == "amd" and DEVICES["mi250"].unit == "gpu"
    assert dev.unit_sizes["gpu"] == 2 * dev.unit_sizes["die"], "a package holds two GCDs"
    # ROCm lists each GCD as a device: no alias, so a run on one GCD is not taken for a whole package
    assert hw.key_for_name("AMD Instinct MI250X / MI250") is None


def test_the_committed_csv_holds_exactly_the_builders_rows(refs):
    with REFERENCE_CSV.open(newline="", encoding="utf-8") as f:
        committed = [r for r in csv.DictReader(f) if r["source_id"] == "MOSAICML-XV"]
    assert committed == refs.mpt_rows() and len(committed) == 3
