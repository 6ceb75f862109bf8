"""Cross-vendor MLPerf rows (cross_vendor_refs.py, source MLPERF-XV): per-GPU rates of AMD and NVIDIA systems that
ran the same benchmark in one round, beside Google's TPU slices of that round; each row is its system's rate divided
by its GPUs, names its log folder at a commit and the config that states its precision; no round from v5.1 on."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from reference_scripts import load

from engine.reference.data import REFERENCE_CSV, load_reference

ROOT = Path(__file__).resolve().parents[2]
MIRRORS = Path("/work/.mirror")


@pytest.fixture(scope="module")
def ref():
    return load_reference()


@pytest.fixture(scope="module")
def xv(ref):
    return ref[ref["source_id"] == "MLPERF-XV"]


@pytest.fixture(scope="module")
def refs():
    return load("cross_vendor_refs")


def _mllog(key: str, t_ms: int, value=None, **meta) -> str:
    return ":::MLLOG " + json.dumps({"key": key, "time_ms": t_ms, "value": value, "metadata": meta})


def _lora_log(nvidia: bool) -> str:
    """A Llama-2-70B LoRA log: a first block of 1536 sequences (warm-up), then blocks of 384, each followed by an
    evaluation. AMD's logger states the block's end count at block_stop; NVIDIA's repeats the start's count there
    and states the end at the eval_start that follows."""
    lines = [_mllog("global_batch_size", 0, 8), _mllog("train_samples", 0, 3901)]
    t, count = 1000, 0
    # 2.0, 1.92, 2.0 sequences/s after the first block
    for size, seconds in ((1536, 700), (384, 192), (384, 200), (384, 192)):
        lines.append(_mllog("block_start", t, samples_count=count))
        t += seconds * 1000
        lines.append(_mllog("tracked_stats", t, {"throughput": size / seconds}, step=count + size))
        lines.append(_mllog("block_stop", t, samples_count=count if nvidia else count + size))
        count += size
        lines += [_mllog("eval_start", t, samples_count=count), _mllog("eval_accuracy", t + 30_000, 0.93,
                  samples_count=count), _mllog("eval_stop", t + 30_000, samples_count=count)]  # fmt: skip
        t += 30_000
    lines.append(_mllog("run_stop", t, samples_count=count, status="success"))
    return "\n".join(lines)


@pytest.mark.parametrize("nvidia", [False, True])
def test_a_lora_block_counts_the_sequences_it_trained_by_either_logger(nvidia):
    logs = load("mlperf_logs")
    text = _lora_log(nvidia)
    assert logs.block_rates(text, "llama2_70b_lora") == pytest.approx([1536 / 700, 2.0, 1.92, 2.0])
    rate, batch, blocks = logs.mlperf_block_rate(text, "llama2_70b_lora")
    assert (rate, batch, blocks) == (pytest.approx(2.0), 8, 4)  # median of the blocks after the first
    modern = load("modern_refs")
    assert modern.mlperf_rate(text, "llama2_70b_lora")[0] == pytest.approx(2.0)  # the path derive_mlperf takes


def test_a_block_with_no_later_count_is_not_timed():
    logs = load("mlperf_logs")  # a repeated count and nothing after it: no examples, so no rate (not a zero rate)
    text = "\n".join([_mllog("global_batch_size", 0, 8), _mllog("block_start", 0, samples_count=0),
                      _mllog("block_stop", 5000, samples_count=0)])  # fmt: skip
    assert logs.block_rates(text, "llama2_70b_lora") == []
    with pytest.raises(ValueError, match="fewer than two"):
        logs.mlperf_block_rate(text, "llama2_70b_lora")


def _whole_run_log(train_samples: int) -> str:
    """NVIDIA's v0.7 BERT logger: ONE block around the whole run (epoch_count 1), one evaluation at its end, and the
    sequences trained stated once, at the end (train_samples)."""
    return "\n".join([
        _mllog("global_batch_size", 0, 256), _mllog("run_start", 0), _mllog("block_start", 1000, first_epoch_num=1,
        epoch_count=1), _mllog("eval_accuracy", 2_001_000, 0.713, epoch_num=1), _mllog("block_stop", 2_001_000,
        first_epoch_num=1), _mllog("train_samples", 2_001_000, train_samples), _mllog("run_stop", 2_001_000),
    ])  # fmt: skip


def test_a_log_that_times_the_whole_run_as_one_block_gives_its_whole_run_rate():
    logs = load("mlperf_logs")
    rate, batch, blocks = logs.mlperf_block_rate(_whole_run_log(2_000_000), "bert")
    assert (rate, batch, blocks) == (pytest.approx(1000.0), 256, 1)  # 2,000,000 sequences over 2,000 s
    # a lone block whose train_samples counts no more than the block itself does (one epoch's worth): no rate
    with pytest.raises(ValueError, match="one timed block"):
        logs.mlperf_block_rate(_whole_run_log(256), "bert")


def test_round_v07_pairs_nvidia_gpus_with_googles_tpus_on_resnet_and_bert(xv, ref):
    v07 = xv[xv["year"].astype(str) == "2020"]
    assert {(k, m) for k, m in zip(v07["hardware_key"], v07["model"], strict=True)} == {
        (k, m) for k in ("a100", "v100") for m in ("resnet50", "bert_large")
    }
    assert v07["precision_label"].str.contains("fp16").all() and set(v07["precision"]) == {"mixed_float16"}
    tpu = ref[(ref["source_id"] == "MLPERF-TPU") & (ref["year"].astype(str) == "2020")]
    assert set(tpu["hardware_key"]) == {"tpu_v3", "tpu_v4"} and set(tpu["model"]) == {"resnet50", "bert_large"}
    bert = v07[v07["model"] == "bert_large"]
    assert set(bert["shape"]) == set(tpu[tpu["model"] == "bert_large"]["shape"]) == {"seq 512"}
    assert bert["notes"].str.contains("ONE block").all()  # the whole-run rate says it holds warm-up and evaluation
    per = v07.set_index(["hardware_key", "model"])["value"]
    assert per["a100", "resnet50"] > 1.8 * per["v100", "resnet50"] and per["a100", "bert_large"] > per["v100", "bert_large"]


def test_amd_and_nvidia_gpus_share_a_round_and_a_benchmark(xv):
    lora = xv[xv["model"] == "llama2_70b"]
    assert {"mi300x", "mi325x"} <= set(lora["hardware_key"]) and {"h100", "h200", "b200"} <= set(lora["hardware_key"])
    assert set(lora["year"].astype(str)) == {"2025"} and set(lora["shape"]) == {"seq 8192"}
    assert set(lora["precision"]) == {"fp8"} and lora["precision_label"].str.contains("FP8=True").all()
    amd = lora[lora["hardware_key"].isin(["mi300x", "mi325x"])]
    assert amd["framework_label"].str.contains("ROCm").all() and set(amd["framework"]) == {"pytorch"}
    nvidia = lora[lora["hardware_key"].isin(["h100", "h200", "b200"])]
    assert nvidia["framework_label"].str.contains("CUDA").all()
    assert set(xv["device_type"]) == {"gpu"} and set(xv["count_unit"]) == {"gpu"} and set(xv["hardware_count"]) == {1}


def test_a_row_is_its_system_rate_divided_by_its_gpus(xv, refs):
    assert len(xv) == len(refs.XV_RESULTS)
    for (_, row), m in zip(xv.iterrows(), refs.XV_RESULTS, strict=True):
        chips = int(re.search(r"\((\d+) GPUs\), per GPU$", row["hardware_label"]).group(1))
        whole = float(re.search(r": ([\d,.]+) \w+/s for the whole system", row["notes"]).group(1).replace(",", ""))
        assert chips == m.chips and f"÷ {chips} GPUs" in row["notes"]
        assert whole == pytest.approx(m.slice_rate, rel=0.005)
        assert row["value"] == pytest.approx(whole / chips, rel=0.005), row["ref_id"]


def test_every_row_names_its_logs_at_a_commit_and_no_round_from_v51_on(xv, ref):
    for _, row in xv.iterrows():
        url = re.fullmatch(
            r"https://github\.com/mlcommons/training_results_(v[\d.]+)/tree/([0-9a-f]{40})/(\S+)", row["source_url"]
        )
        assert url and url.group(1) in ("v0.7", "v4.1", "v5.0"), row["source_url"]
        assert url.group(2)[:12] in row["notes"] and f"{url.group(3)}/result_*.txt" in row["notes"]
    mlperf = ref[ref["source_url"].str.contains("training_results_v", na=False)]
    rounds = {re.search(r"training_results_v(\d+)\.(\d+)", u).groups() for u in mlperf["source_url"]}
    assert rounds and all((int(a), int(b)) < (5, 1) for a, b in rounds), rounds


def test_googles_gpt3_slices_are_int8_and_say_where(ref):
    tpu = ref[(ref["source_id"] == "MLPERF-TPU") & (ref["model"] == "gpt3_175b")]
    v41 = tpu[tpu["source_url"].str.contains("training_results_v4.1")]
    assert len(v41) == 2 and set(v41["precision"]) == {"int8"}
    assert v41["precision_label"].str.contains("quantization=int8").all()
    assert set(tpu["precision"]) == {"int8"}  # v3.1's v5e slice too (PAX, ENABLE_LOCAL_AQT)
    v5p = v41[v41["hardware_key"] == "tpu_v5p"].iloc[0]
    assert v5p["batch_size"] == 4096  # per_device_batch_size=2 × 2048 chips, as the log's global_batch_size


def test_a_chips_rate_orders_as_the_chips_do(xv):
    lora = xv[xv["model"] == "llama2_70b"].groupby("hardware_key")["value"].median()
    assert lora["b200"] > lora["mi325x"] > lora["h200"] > lora["mi300x"]


@pytest.mark.parametrize("index", [0, 8, 19, 25, 27])
def test_a_stored_system_rate_is_what_derive_mlperf_gives_from_the_logs(refs, index):
    m = refs.XV_RESULTS[index]
    mirror = MIRRORS / f"mlcommons+training_results_{m.round}/repo"
    if not mirror.exists():
        pytest.skip(f"needs the local git mirror of {m.repo}")
    modern = load("modern_refs")
    rate, low, high, runs = modern.derive_mlperf(mirror, f"{m.submitter}/results/{m.system}", m.benchmark)
    assert (round(rate, 2), round(low, 2), round(high, 2), runs) == (m.slice_rate, m.low, m.high, m.runs)


def test_the_committed_csv_holds_exactly_the_builders_rows(refs):
    with REFERENCE_CSV.open(newline="", encoding="utf-8") as f:
        committed = [r for r in csv.DictReader(f) if r["source_id"] == "MLPERF-XV"]
    assert committed == refs.xv_rows()
