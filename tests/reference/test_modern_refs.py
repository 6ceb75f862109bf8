"""Figures for today's accelerators (data/reference/modern_refs.py, issue 29 item 2): Lambda's v2 result names are
read by the one system-name parser History uses, repeats of a configuration on several hosts become one median row
with its spread, every row points at a file at a commit, none repeats a row already in the table, and the MLPerf
rates are derived from the logs' epoch times the way the notes say."""

from __future__ import annotations

import csv
import json
import re
import subprocess
from pathlib import Path

import pytest
from reference_scripts import load

from engine.reference.data import REFERENCE_CSV, load_reference, validate_records

ROOT = Path(__file__).resolve().parents[2]
MIRROR = Path("/work/.mirror/lambdal+deeplearning-benchmark/repo")

# Lambda's format: an unnamed first column of system names, one column per model. Three 1-GPU H100 hosts (one named
# as a 1-GPU run on an 8-GPU instance), a 2-GPU run on a 4-GPU instance, an HTOff variant, and a "no result" 0.
FP16 = """,ssd,bert_base_squad,resnet50
LambdaOD_Texas_1xH100_80GB_SXM5_192-222-52-102_v2,870.0,826.0,2790.0
LambdaOD_1x_Texas_1xH100_80GB_SXM5_192-222-52-129_v2,866.0,820.0,2800.0
LambdaOD_8x_Texas_1xH100_80GB_SXM5_192-222-52-149_v2,860.0,0.0,2683.0
LambdaOD_4x_Texas_2xH100_80GB_SXM5_192-222-52-139_v2,1719.0,1650.0,5527.0
LambdaBM_ENG04_HTOff_1xH200_140GB_SXM_h200_v2,946.0,932.0,3079.0
"""
FP32 = """,ssd,bert_base_squad,resnet50
LambdaOD_Texas_1xH100_80GB_SXM5_192-222-52-102_v2,586.0,410.0,1895.0
"""


def _batches(fp16: str, fp32: str) -> str:
    """A global_batch.csv for every system of the two texts (per GPU: resnet50 1280/640, bert 320/172, ssd 448/256)."""
    per_gpu = {"resnet50_AMP": 1280, "resnet50_FP32": 640, "bert_base_squad_FP16": 320, "bert_base_squad_FP32": 172,
               "SSD_AMP": 448, "SSD_FP32": 256}  # fmt: skip
    lines = ["system,benchmark,global_batch,gpu"]
    for text in (fp16, fp32):
        for row in list(csv.reader(text.splitlines()))[1:]:
            n = int(re.search(r"_(\d)x(?:H|B|GH)\d", row[0]).group(1))
            lines += [f"{row[0]},PyTorch_{b},{per_gpu[b] * n},{n}" for b in per_gpu]
    return "\n".join(dict.fromkeys(lines)) + "\n"


@pytest.fixture(scope="module")
def mod():
    return load("modern_refs")


@pytest.fixture(scope="module")
def ref():
    return load_reference()


@pytest.fixture(scope="module")
def modern(ref):
    # mosaic_refs.py's rows (origin modern_refs too, one from a blog post, not a file at a commit): test_mosaic_refs.py
    return ref[(ref["origin"] == "modern_refs") & (ref["source_id"] != "MOSAICML-XV")]


def test_repeats_on_several_hosts_become_one_median_row_with_its_spread(mod):
    rows = mod.lambda_rows(FP16, FP32, _batches(FP16, FP32))
    validate_records(rows)  # the schema accepts them as they are
    by = {(r["hardware_key"], r["hardware_count"], r["model"], r["precision"], r["hardware"]): r for r in rows}
    one = by[("h100", "1", "resnet50", "mixed_float16", "H100 80GB SXM5")]
    assert one["value"] == "2790" and one["value_kind"] == "derived"  # median of 2683, 2790, 2800
    assert "Median of 3 hosts (spread 2683–2800, n 3)" in one["notes"]
    assert "LambdaOD 8x Texas" in one["notes"]  # the instance size stays in the provider, not the count
    assert one["batch_size"] == "1280" and one["batch_scope"] == "global"
    # the 0.0 cell is "no result", so BERT-base on one H100 is the median of two hosts
    assert by[("h100", "1", "bert_base", "mixed_float16", "H100 80GB SXM5")]["value"] == "823"
    two = by[("h100", "2", "resnet50", "mixed_float16", "2× H100 80GB SXM5")]
    assert two["value"] == "5527" and two["value_kind"] == "exact" and two["batch_size"] == "2560"
    htoff = by[("h200", "1", "resnet50", "mixed_float16", "H200 140GB SXM (HTOff)")]
    assert htoff["value"] == "3079" and "One host" in htoff["notes"]
    tf32 = by[("h100", "1", "resnet50", "tf32", "H100 80GB SXM5")]
    assert tf32["value"] == "1895" and "TF32" in tf32["notes"]
    assert by[("h100", "1", "bert_base", "tf32", "H100 80GB SXM5")]["shape"] == "seq 384"
    assert len(rows) == len(by) == 12  # 3 workloads × (H100 1 GPU, H100 2 GPUs, H200 HTOff) fp16 + 3 fp32


def test_a_name_and_its_runs_gpu_count_must_agree(mod):
    wrong = _batches(FP16, FP32).replace("LambdaOD_4x_Texas_2xH100_80GB_SXM5_192-222-52-139_v2,PyTorch_resnet50_AMP,"
                                         "2560,2", "LambdaOD_4x_Texas_2xH100_80GB_SXM5_192-222-52-139_v2,"
                                         "PyTorch_resnet50_AMP,5120,4")  # fmt: skip
    with pytest.raises(ValueError, match="the name reads 2 GPUs, benchmark.para says 4"):
        mod.lambda_rows(FP16, FP32, wrong)


def test_different_batches_on_two_hosts_are_two_configurations(mod):
    batches = _batches(FP16, FP32).replace(
        "LambdaOD_1x_Texas_1xH100_80GB_SXM5_192-222-52-129_v2,PyTorch_resnet50_AMP,1280",
        "LambdaOD_1x_Texas_1xH100_80GB_SXM5_192-222-52-129_v2,PyTorch_resnet50_AMP,1360",
    )
    rows = [r for r in mod.lambda_rows(FP16, FP32, batches) if r["model"] == "resnet50" and r["hardware_count"] == "1"]
    h100 = sorted(
        (r["batch_size"], r["value"]) for r in rows if r["hardware_key"] == "h100" and "mixed" in r["precision"]
    )
    assert h100 == [("1280", "2736.5"), ("1360", "2800")]


def test_the_committed_csv_holds_exactly_the_builders_rows(mod):
    with REFERENCE_CSV.open(newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f)
        others = ("MLPERF-TPU", "MLPERF-XV", "MOSAICML-XV")
        committed = [r for r in rows if r["origin"] == "modern_refs" and r["source_id"] not in others]
    # (the TPU rows of tpu_refs.py: test_tpu_refs.py; the cross-vendor rows: test_cross_vendor_refs.py and
    # test_mosaic_refs.py)
    assert committed == mod.modern_rows()


def test_every_row_names_a_github_file_or_folder_at_a_commit(modern):
    assert len(modern) > 200 and modern["ref_id"].is_unique
    for r in modern.to_dict("records"):
        url = r["source_url"]
        assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+/(blob|tree)/[0-9a-f]{40}/\S+", url), r["ref_id"]
        assert r["notes"] and r["year"] and r["value_kind"] in ("exact", "derived", "approx"), r["ref_id"]
        sd_slices = r["model"] == "stable_diffusion_v2"  # tpu_refs.SD_DOUBT: exact digits, slices 32× apart
        assert r["doubtful"] == (r["value_kind"] == "approx" or sd_slices), r["ref_id"]
        assert r["count_unit"] == {"gpu": "gpu", "tpu": "chip"}[r["device_type"]], r["ref_id"]


def test_no_row_repeats_one_already_in_the_table(ref, modern):
    key = ["hardware_key", "hardware_count", "model", "shape", "precision", "metric", "value"]
    others = ref[ref["origin"] != "modern_refs"]
    clash = modern.merge(others, on=key, suffixes=("", "_old"))
    assert clash.empty, clash[["ref_id", "ref_id_old"]].to_string()
    config = ["hardware_label", "hardware_count", "model", "precision", "batch_size", "source_id"]
    assert not modern.duplicated(config).any()  # one row per configuration
    # Lambda's v1 BERT rows (transformer_refs) stay, the v2 rows are other runs with their own digits
    v1 = ref[ref["ref_id"] == "LAMBDA-DLB-BERT-09"].iloc[0]
    v2 = modern[(modern["hardware_key"] == "h100") & (modern["hardware_count"] == 1) & (modern["model"] == "bert_base")]
    assert v1["value"] == 812 and 812 not in set(v2["value"])


def test_every_modern_device_has_resnet50_and_a_transformer_figure(modern):
    one = modern[modern["hardware_count"] == 1]
    for key in ("h100", "h100_pcie", "h200", "gh200", "b200"):
        models = set(one.loc[one["hardware_key"] == key, "model"])
        assert {"resnet50", "bert_base", "bert_large"} <= models, key
    resnet = modern[(modern["source_id"] == "MLPERF-V40") & (modern["model"] == "resnet50")]
    assert {"l40s", "h100", "h200", "h100_pcie"} == set(resnet["hardware_key"])


def test_some_digits_as_the_source_prints_them(modern):
    by = modern.set_index("hardware")
    b200 = modern[(modern["hardware"] == "B200 192GB") & (modern["model"] == "resnet50")]
    assert sorted(b200["value"]) == [2967.0, 3076.0]  # one host each: the CSV's own digits
    h100 = modern[(modern["hardware"] == "H100 80GB SXM5") & (modern["model"] == "resnet50")]
    assert set(h100["value"]) == {2790.0, 1895.0}  # medians over 39 hosts
    assert "Median of 39 hosts" in h100.iloc[0]["notes"]
    assert by.loc["8× L40S 48GB", "value"] == 14868.0


def _mllog(key: str, t: int, **meta: object) -> str:
    event = {"key": key, "value": None, "time_ms": t, "metadata": meta}
    if key == "train_samples":
        event["value"] = 1000
    if key == "global_batch_size":
        event["value"] = 256
    return ":::MLLOG " + json.dumps(event)


def test_an_mlperf_rate_is_the_median_epoch_after_the_first(mod):
    lines = [_mllog("global_batch_size", 0), _mllog("train_samples", 0), "noise without a tag"]
    for epoch, (start, stop) in enumerate([(0, 4000), (4000, 5000), (5000, 6250), (6250, 7250)], start=1):
        lines += [_mllog("epoch_start", start, epoch_num=epoch), _mllog("epoch_stop", stop, epoch_num=epoch)]
    rate, batch, epochs = mod.mlperf_epoch_rate("\n".join(lines))
    assert (rate, batch, epochs) == (1000.0, 256, 4)  # 1000/s, 800/s, 1000/s after the 250/s warm-up
    with pytest.raises(ValueError, match="fewer than two"):
        mod.mlperf_epoch_rate("\n".join(lines[:5]))


def test_an_mlperf_bert_rate_is_the_logs_own_throughput_after_the_first(mod):
    def stat(t: float, n: int) -> str:
        return ":::MLLOG " + json.dumps(
            {"key": "tracked_stats", "value": {"throughput": t}, "metadata": {"epoch_num": n}}
        )

    lines = [_mllog("global_batch_size", 0), stat(300.0, 1), stat(480.0, 2), stat(500.0, 3), stat(490.0, 4)]
    assert mod.mlperf_bert_rate("\n".join(lines)) == (490.0, 256, 4)


def test_mlperf_and_maxtext_rows_give_l40s_and_the_tpus_a_transformer_figure(modern):
    bert = modern[(modern["source_id"] == "MLPERF-V40") & (modern["model"] == "bert_large")]
    assert set(bert["hardware_key"]) == {"h100", "h200", "l40s"} and set(bert["shape"]) == {"seq 512"}
    l40s = bert[bert["hardware_key"] == "l40s"].iloc[0]
    assert (l40s["hardware_count"], l40s["value"], l40s["batch_size"]) == (4, 485.0, 176)
    tpu = modern[modern["source_id"] == "MAXTEXT-TIERING"]
    assert set(tpu["hardware_key"]) == {"tpu_v6e", "tpu_v5p"} and set(tpu["device_type"]) == {"tpu"}
    assert tpu["doubtful"].all() and set(tpu["value_kind"]) == {"approx"}  # "Approx tokens/sec/device"
    assert 7207.0 in set(tpu["value"]) and set(tpu["count_unit"]) == {"chip"}


@pytest.mark.skipif(not MIRROR.exists(), reason="needs the local git mirror of lambdal/deeplearning-benchmark")
def test_the_kept_csvs_are_the_source_files_byte_for_byte(mod):
    for p in ("fp16", "fp32"):
        path = f"pytorch/pytorch-train-throughput-v2-{p}.csv"
        src = subprocess.run(["git", "-C", str(MIRROR), "show", f"{mod.LAMBDA_CSV_COMMIT}:{path}"], capture_output=True,
                             check=True).stdout  # fmt: skip
        assert (mod.LAMBDA_DIR / f"pytorch-train-throughput-v2-{p}.csv").read_bytes() == src
