"""The one system-name parser (issue 22 item 1): vendor/cloud prefixes, N×/Nx counts, memory, form factor,
host addresses and variants read from names like Lambda's; the device looked up by the hardware table's
aliases; repeats on different hosts make one noise band, a variant (HTOff) its own; the user's corrections
are kept in the mapping by name."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.imports.facts.import_mapping import DEFAULT_RULES, mapping_from_json
from engine.imports.facts.system_names import parse_system
from engine.imports.identity.systems import ambiguous, preview
from engine.imports.importer import apply_import, read_raw
from engine.imports.view.imported import noise, scaling
from engine.results.errors import CsvError


@pytest.mark.parametrize(
    ("name", "want"),
    [
        ("LambdaOD_Texas_1xH100_80GB_SXM5_10_0_3_7_v2",
         {"device_model": "H100", "hardware_key": "h100", "device_count": 1, "memory_gb": 80.0, "form_factor": "SXM5",
          "host": "10.0.3.7", "provider": "LambdaOD Texas", "variant": "v2"}),
        ("Lambda Cloud — RTX A6000", {"device_model": "RTX A6000", "hardware_key": None, "provider": "Lambda Cloud"}),
        ("H100_80GB_SXM5_HTOff_bk", {"device_model": "H100", "variant": "HTOff bk", "device_count": None}),
        ("8 × H100 PCIe test", {"device_count": 8, "form_factor": "PCIe", "variant": "test"}),
        ("A100-SXM4-80GB", {"hardware_key": "a100_80gb", "device_model": "A100 80GB", "memory_gb": 80.0}),
        ("8xA100_80GB_SXM4", {"hardware_key": "a100_80gb", "device_count": 8, "form_factor": "SXM4"}),
        ("ip-172-31-5-9 NVIDIA H100 x8", {"host": "172.31.5.9", "device_count": 8, "provider": ""}),
        ("n1-standard-2 + TPU v2-8", {"hardware_key": "tpu_v2_8", "device_model": "TPU v2-8"}),
        ("NVIDIA Tesla P100 (DGX-1)", {"hardware_key": "p100", "note": "DGX-1", "provider": ""}),
        ("Xeon 8480C", {"hardware_key": None, "device_model": "Xeon 8480C"}),
        # DAWNBench's TPU entries: the cores in parentheses make the board; the machine type's 2 is not a count
        ("TPUv2 (8 cores)", {"hardware_key": "tpu_v2_8", "device_model": "TPU v2-8", "device_count": None}),
        ("n1-standard-2, TPUv2 (8 cores)", {"hardware_key": "tpu_v2_8", "device_count": None}),
        ("DGX-1 with 8 V100", {"hardware_key": "v100", "device_count": 8}),
        # Lambda's runs on 1, 2, 4 of an 8-GPU instance: the count glued to the device wins, the instance size is
        # part of the provider
        ("LambdaOD_8x_Texas_1xH100_80GB_SXM5_192-222-52-149_v2",
         {"hardware_key": "h100", "device_count": 1, "provider": "LambdaOD 8x Texas", "host": "192.222.52.149"}),
        ("LambdaOD_4x_Texas_2xH100_80GB_SXM5_192-222-52-139_v2", {"device_count": 2, "provider": "LambdaOD 4x Texas"}),
        ("LambdaOD_1x_1xGH200_96GB_192-222-57-0_v2", {"hardware_key": "gh200", "device_count": 1, "memory_gb": 96.0}),
        ("LambdaOD_1x_Texas_1xH100_80GB_PCIe_209-20-158-50_v2", {"hardware_key": "h100_pcie", "device_count": 1}),
        ("LambdaOD_test_8xB200_192GB_129-213-83-251_v2", {"hardware_key": "b200", "device_count": 8}),
        ("LambdaOD_8x_Texas", {"device_count": None}),  # no device: nothing to count
        ("Dell 8x H100 80GB SXM5", {"device_count": 8, "provider": "Dell"}),  # one count, next to the device
        # a setting (hyper-threading off) is a variant wherever it stands, never the provider
        ("LambdaBM_ENG04_HTOff_1xH200_140GB_SXM_h200_v2",
         {"hardware_key": "h200", "device_count": 1, "provider": "LambdaBM ENG04", "variant": "HTOff v2"}),
    ],
)  # fmt: skip
def test_a_name_reads_into_its_parts(name, want):
    got = parse_system(name)
    assert {k: getattr(got, k) for k in want} == want


LAMBDA = "system,resnet50 (images/s)\n" + "".join(
    f"LambdaOD_Texas_1xH100_80GB_SXM5_10_0_{i // 200}_{i % 200}_v2,{1750 + (i % 7) * 3}\n" for i in range(39)
) + "".join(f"LambdaOD_Texas_1xH100_80GB_SXM5_10_1_0_{i}_HTOff,{1600 + i}\n" for i in range(3)) + "".join(
    f"LambdaOD_Texas_{n}xH100_80GB_SXM5_10_2_0_{n}_v2,{1750 * n * 0.9}\n" for n in (2, 8)
)  # fmt: skip


def test_runs_on_part_of_an_instance_are_counted_by_the_device_token():
    """`LambdaOD_8x_…_1xH100` ran on 1 GPU of an 8-GPU instance: scaling must see 1, 2, 4, 8 GPUs, not four 8s."""
    names = [f"LambdaOD_8x_Texas_{n}xH100_80GB_SXM5_192-222-52-149_v2" for n in (1, 2, 4, 8)]
    assert [parse_system(n).device_count for n in names] == [1, 2, 4, 8]
    assert {parse_system(n).provider for n in names} == {"LambdaOD 8x Texas"}


def test_repeats_on_39_hosts_are_one_noise_band_and_counts_scale():
    raw = read_raw(LAMBDA.encode(), "lambda.csv")
    rows, _ = apply_import(raw.frame, raw.guess, "lambda.csv")
    metric = "examples_per_sec"
    assert rows["host"].nunique() == 44  # every row has its own host …
    band = noise(rows, metric).set_index("group")
    assert band["rows"].max() == 39  # … yet the 39 v2 repeats are one configuration
    assert (band["rows"] == 3).any()  # HTOff is a variant of its own
    sc = scaling(rows[rows["variant"] == "v2"], metric)
    assert sorted(sc["device_count"].tolist()) == [1, 2, 8]
    assert sc.set_index("device_count").loc[8, "speedup"] == pytest.approx(1750 * 8 * 0.9 / 1759, rel=0.01)


def test_corrections_are_kept_by_name_and_saved_with_the_mapping():
    raw = read_raw(LAMBDA.encode(), "lambda.csv")
    name = raw.frame["system"].iloc[0]
    raw.guess.system_fixes = {name: {"device_model": "H200", "variant": "v2 fixed"}}
    table = preview(raw.frame["system"], fixes=raw.guess.system_fixes).set_index("system")
    assert table.loc[name, ["device_label", "hardware_key", "variant"]].tolist() == ["H200", "h200", "v2 fixed"]
    back = mapping_from_json(raw.guess.to_json())
    assert back.system_fixes == raw.guess.system_fixes
    rows, _ = apply_import(raw.frame, back, "lambda.csv")
    assert (rows["device_label"] == "H200").sum() == 1
    with pytest.raises(CsvError, match="corrected device_count is not a number"):
        preview(raw.frame["system"], fixes={name: {"device_count": "eight"}})


def test_an_older_saved_mapping_with_the_old_default_rules_uses_the_parser():
    raw = read_raw(LAMBDA.encode(), "lambda.csv")
    raw.guess.system_rules = list(DEFAULT_RULES)
    back = mapping_from_json(raw.guess.to_json())
    assert back.system_rules == []
    table = preview(pd.Series(["LambdaOD_Texas_1xH100_80GB_SXM5_10_0_3_7_v2"]), back.system_rules)
    assert table["host"].iloc[0] == "10.0.3.7"


def test_suffixes_that_make_another_gpu_are_part_of_its_name():
    """Issue 31 item 8: RTX 6000 Ada is not an RTX 6000, an RTX 2080 SUPER Max-Q not an RTX 2080 Max-Q."""
    read = {n: parse_system(n) for n in ("RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation", "Quadro RTX 6000",
                                         "RTX 2080 SUPER Max-Q", "RTX 2080 Max-Q", "GeForce RTX 2080 Super",
                                         "RTX 3080 Laptop GPU", "2x RTX 4070 Ti SUPER 16GB")}  # fmt: skip
    assert read["RTX 6000 Ada"].device_model == read["NVIDIA RTX 6000 Ada Generation"].device_model == "RTX 6000 Ada"
    assert read["Quadro RTX 6000"].device_model == "RTX 6000" and read["RTX 6000 Ada"].variant == ""
    assert read["RTX 2080 SUPER Max-Q"].device_model == "RTX 2080 SUPER Max-Q"
    assert read["RTX 2080 Max-Q"].device_model == "RTX 2080 Max-Q"
    assert read["GeForce RTX 2080 Super"].device_model == "RTX 2080 SUPER"
    assert read["RTX 3080 Laptop GPU"].device_model == "RTX 3080 Laptop"
    four = read["2x RTX 4070 Ti SUPER 16GB"]
    assert (four.device_model, four.device_count, four.memory_gb) == ("RTX 4070 Ti SUPER", 2, 16.0)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("LambdaOD_8x_Texas_1xH100_80GB_SXM5_1-2-3-4_v2", "two counts (8x, 1x): read as 1 × H100"),
        ("2x RTX 3090 + A100", "two devices (A100, RTX 3090): read as 2 × A100"),
        ("DGX-1 with 8 V100", "the bare number 8 before the device taken as the count: read as 8 × V100"),
        ("2x RTX 6000 Ada", "read as 2 × RTX 6000 Ada — Ada makes a GPU of its own, not the RTX 6000"),
        ("16 p3.16xlarge (AWS)", "a cloud instance type (16 × p3.16xlarge (AWS)): read as 128 × V100"),
        ("8x H100 80GB SXM5", None),  # reads one way only: not listed
        ("LambdaBM_ENG04_HTOff_1xH200_140GB_SXM_h200_v2", None),  # the same device named twice
    ],
)
def test_names_that_read_more_than_one_way_are_listed_with_the_reading_chosen(name, said):
    found = dict(ambiguous(pd.Series([name])))
    assert found[name].startswith(said) if said else name not in found, found
