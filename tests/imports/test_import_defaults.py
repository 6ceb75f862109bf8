"""Units and defaults of other tools' tables (issue 22 items 4 and 5), on small files the tests write in the
shape of lambdal/deeplearning-benchmark's wide tables: the default metric is the rate of work, never a derived
per-USD/per-W column; every metric says its unit; a throughput file reaches Compare with no edits; a
batch-size table beside it is joined as batch size."""

from __future__ import annotations

import pytest

from engine.compare.answer import compare
from engine.compare.facts.likeforlike import Rate
from engine.imports.importer import apply_import, read_raw
from engine.imports.shape.companion import companions, is_batch_table, join_batch
from engine.imports.view.imported import default_target, scaling, time_to_target
from engine.imports.view.imported_rates import rates_of_rows
from engine.results import history

THROUGHPUT = (
    "name_gpu,num_gpu,watt,price,resnet50,bert_large_squad\n"
    "A100 80GB SXM4,1.0,400.0,15000.0,800.0,50.0\n"
    "A100 80GB SXM4,8.0,3200.0,120000.0,6000.0,380.0\n"
    "V100 16GB,1.0,300.0,9000.0,400.0,20.0\n"
)
BATCH = "name_gpu,num_gpu,resnet50,bert_large_squad\nA100 80GB SXM4,1.0,256,32\nA100 80GB SXM4,8.0,2048,OOM\nV100 16GB,1.0,128,16\n"
NAME = "pytorch-train-throughput-fp32.csv"


def test_the_default_metric_is_the_rate_of_work_with_its_unit_and_derived_columns_come_last():
    raw = read_raw(THROUGHPUT.encode(), NAME)
    rows, notes = apply_import(raw.frame, raw.guess, NAME)  # no edit of the mapping
    metrics = history.metric_columns(rows)
    assert metrics[0] == "examples_per_sec" and history.metric_title(metrics[0]) == "Throughput (examples/s)"
    assert metrics[1:] == [
        "Throughput per USD (examples/s per USD)",
        "Throughput per W (examples/s per W)",
    ]  # derived: listed, never the default
    assert all("(" in history.metric_title(m) for m in metrics)  # every metric shows its unit
    assert history.metric_title("score") == "score (no unit given)"  # or says that the file gave none
    sc = scaling(rows[rows["model"] == "resnet50"], metrics[0])
    assert sc["speedup"].max() == pytest.approx(6000 / 800)  # 8 devices are 7.5× faster than 1, not 0.71×


def test_a_mapped_throughput_reaches_compare_with_no_edits():
    raw = read_raw(THROUGHPUT.encode(), NAME)
    rows, _ = apply_import(raw.frame, raw.guess, NAME)
    rates = [r for r, _ in rates_of_rows(rows, NAME) if r.workload == "resnet50" and ":examples_per_sec:" in r.id]
    assert {r.unit for r in rates} == {"examples/s"}
    local = Rate(id="run:x", label="this machine", origin="this machine", task="training", workload="resnet50",
                 value=100.0, unit="examples/s", devices=1.0, derivation="measured", how="measured here",
                 settings={"model": "resnet50", "task": "training", "precision": "fp32"})  # fmt: skip
    answer = compare(local, rates)
    assert answer.left_out == () and len(answer.rows) == 1 + len(rates)
    # a unit that says its own direction is never marked: a user's "higher" changes nothing
    tta = read_raw(b"System,Accelerator,# of Accelerators,resnet\nX,A100,8,28.5\n", "mlperf.csv")
    long, _ = apply_import(tta.frame, tta.guess, "mlperf.csv")
    (minutes,) = rates_of_rows(long, "mlperf.csv")
    assert (
        minutes[0].unit.startswith("1 ÷ Time to train (min)")
        and history.higher_is_better("Time to train (min)") is False
    )


def test_a_batch_size_table_with_the_same_key_is_joined_not_imported():
    bs_name = "pytorch-train-bs-fp32.csv"
    raws = {NAME: read_raw(THROUGHPUT.encode(), NAME), bs_name: read_raw(BATCH.encode(), bs_name)}
    assert is_batch_table(bs_name) and not is_batch_table(NAME) and is_batch_table("batch_sizes.tsv")
    assert companions(raws) == {bs_name: NAME}
    rows, _ = apply_import(raws[NAME].frame, raws[NAME].guess, NAME)
    joined, matched = join_batch(rows, NAME, raws[NAME], raws[bs_name])
    assert matched == 5  # the OOM cell leaves its row's batch empty
    by = joined.set_index(["system", "device_count", "model"])["global_batch_size"]
    assert by[("A100 80GB SXM4", 8, "resnet50")] == 2048 and by[("V100 16GB", 1, "bert_large_squad")] == 16
    assert by.isna().sum() == 1 and len(joined) == len(rows)
    assert companions({bs_name: raws[bs_name]}) == {}  # alone, it is a table of its own


def test_a_dawnbench_style_log_starts_at_its_published_target_on_top5():
    tsv = "epoch\thours\ttop1Accuracy\ttop5Accuracy\n1\t0.25\t20.5\t41.0\n2\t0.5\t60.25\t83.0\n3\t0.75\t76.1\t93.1\n"
    raw = read_raw(tsv.encode(), "entry.tsv")
    raw.guess.constants["device"] = "8x V100"  # the entry's JSON names it; typed here
    rows, _ = apply_import(raw.frame, raw.guess, "entry.tsv")
    target, why = default_target(rows, "Top-5 accuracy (%)")
    assert target == 93.0 and "DAWNBench" in why
    assert time_to_target(rows, "Top-5 accuracy (%)", target)["hours"].tolist() == [0.75]
    top1, why1 = default_target(rows, "Top-1 accuracy (%)")  # no published top-1 target here: said so
    assert top1 == pytest.approx(72.93, abs=0.01) and "Top-5" in why1
