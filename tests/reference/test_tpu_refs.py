"""TPU figures from TPU results (issue 36 item 5): every TPU v3/v4/v5e/v5p/v6e row derived from Google's MLPerf logs is
one chip's rate, keeps the chips its slice used and the whole-slice rate it was divided from, and names the log
folder at a 40-character commit; Google's block-timed logs (both the v0.6 `:::MLL` and the later `:::MLLOG` lines)
give the rate the notes describe."""

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
def tpu():
    ref = load_reference()
    return ref[ref["source_id"] == "MLPERF-TPU"]


@pytest.fixture(scope="module")
def refs():
    return load("tpu_refs")


def test_every_new_tpu_generation_has_a_per_chip_row(tpu):
    assert set(tpu["hardware_key"]) == {"tpu_v3", "tpu_v4", "tpu_v5e", "tpu_v5p", "tpu_v6e"}
    assert set(tpu["device_type"]) == {"tpu"} and set(tpu["count_unit"]) == {"chip"}
    assert set(tpu["hardware_count"]) == {1} and set(tpu["precision"]) == {"mixed_bfloat16", "int8"}
    # the GPT-3 slices train with int8 (AQT) matmuls, as their launch scripts say; every other slice in bf16
    assert (
        set(tpu[tpu["precision"] == "int8"]["model"]) == {"gpt3_175b"} == set(tpu[tpu["model"] == "gpt3_175b"]["model"])
    )
    assert set(tpu[tpu["doubtful"]]["model"]) == {"stable_diffusion_v2"} and set(tpu["value_kind"]) == {"derived"}
    resnet = tpu[tpu["model"] == "resnet50"]
    assert set(resnet["hardware_key"]) == {"tpu_v3", "tpu_v4"} and set(resnet["metric"]) == {"images_per_s"}


def test_a_row_is_its_slice_rate_divided_by_the_chips_the_slice_used(tpu):
    for _, row in tpu.iterrows():
        chips = int(re.search(r"\((\d+) chips\), per chip$", row["hardware_label"]).group(1))
        slice_rate = float(re.search(r"= ([\d.]+) \w+/s per chip", row["notes"]).group(1))
        whole = float(re.search(r": ([\d,.]+) \w+/s for the whole slice", row["notes"]).group(1).replace(",", ""))
        assert f"÷ {chips} chips" in row["notes"]
        assert slice_rate == row["value"] and abs(row["value"] * chips / whole - 1) < 0.01, row["ref_id"]


def test_every_row_names_its_log_folder_at_a_commit(tpu, refs):
    for _, row in tpu.iterrows():
        url = re.fullmatch(
            r"https://github\.com/mlcommons/training_results_v[\d.]+/tree/([0-9a-f]{40})/Google/results/(\S+)",
            row["source_url"],
        )
        assert url, row["source_url"]
        assert url.group(1)[:12] in row["notes"] and f"{url.group(2)}/result_*.txt" in row["notes"]


def test_a_v4_chip_outruns_a_v3_chip_on_the_same_benchmark(tpu):
    for model in ("resnet50", "bert_large"):
        rows = tpu[tpu["model"] == model].groupby("hardware_key")["value"].max()
        assert rows["tpu_v4"] > rows["tpu_v3"], model


def _mllog(key: str, t_ms: int, value=None, **meta) -> str:
    return ":::MLLOG " + json.dumps({"key": key, "time_ms": t_ms, "value": value, "metadata": meta})


def test_a_block_rate_is_the_median_block_after_the_first():
    logs = load("mlperf_logs")
    lines = [_mllog("global_batch_size", 0, 256), _mllog("train_samples", 0, 1000)]
    for first, (start, stop) in zip(
        (0, 4, 8, 12), [(0, 9000), (9000, 13000), (13000, 18000), (18000, 22000)], strict=True
    ):
        lines += [_mllog("block_start", start, first_epoch_num=first, epoch_count=4), _mllog("block_stop", stop,
                  first_epoch_num=first)]  # fmt: skip
    assert logs.mlperf_block_rate("\n".join(lines), "resnet") == (1000.0, 256, 4)  # 4000 images in 4 s, 5 s, 4 s
    assert logs.mlperf_block_rate("\n".join(lines), "bert") == (256.0, 256, 4)  # blocks count steps of 256
    with pytest.raises(ValueError, match="one timed block whose examples the log does not count"):
        logs.mlperf_block_rate("\n".join(lines[:4]), "resnet")  # one block of one epoch's count: not a whole run


def test_the_v06_log_lines_and_sample_counted_blocks_are_read():
    logs = load("mlperf_logs")
    old = [':::MLL 10.0 global_batch_size: {"value": 64, "metadata": {}}',
           ':::MLL 10.0 num_train_examples: {"value": 100, "metadata": {}}']  # fmt: skip
    for i, t in enumerate((10.0, 30.0, 32.0, 34.0)):
        old.append(
            f':::MLL {t} block_start: {{"value": null, "metadata": {{"first_epoch_num": {i}, "epoch_count": 1}}}}'
        )
        old.append(
            f':::MLL {t + (20 if i == 0 else 2)} block_stop: {{"value": null, "metadata": {{"first_epoch_num": {i}}}}}'
        )
    assert logs.block_rates("\n".join(old), "resnet") == [5.0, 50.0, 50.0, 50.0]
    sd = [_mllog("global_batch_size", 0, 8), _mllog("block_start", 0, samples_count=0),
          _mllog("block_stop", 2000, samples_count=800), _mllog("block_start", 2000, samples_count=800),
          _mllog("block_stop", 3000, samples_count=1600), _mllog("block_start", 3000, samples_count=1600),
          _mllog("block_stop", 5000, samples_count=2400)]  # fmt: skip
    assert logs.block_rates("\n".join(sd), "stable_diffusion") == [400.0, 800.0, 400.0]


@pytest.mark.parametrize("index", [0, 3, 9])
def test_a_stored_slice_rate_is_what_derive_mlperf_gives_from_the_logs(refs, index):
    m = refs.TPU_RESULTS[index]
    mirror = MIRRORS / f"mlcommons+training_results_{m.round}/repo"
    if not mirror.exists():
        pytest.skip(f"needs the local git mirror of {m.repo}")
    modern = load("modern_refs")
    rate, low, high, runs = modern.derive_mlperf(mirror, f"Google/results/{m.system}", m.benchmark)
    assert (round(rate, 2), round(low, 2), round(high, 2), runs) == (m.slice_rate, m.low, m.high, m.runs)


def test_the_committed_csv_holds_exactly_the_builders_tpu_rows(refs):
    with REFERENCE_CSV.open(newline="", encoding="utf-8") as f:
        committed = [r for r in csv.DictReader(f) if r["source_id"] == "MLPERF-TPU"]
    assert committed == refs.tpu_rows()
