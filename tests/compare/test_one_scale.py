"""One scale for "Which device?" (issue 36 items 1–4), on a ResNet-50 CPU run's row at mixed bf16 and at float32
against the real reference table: every scaled or estimated row is its anchor row's rate × its ratio, the anchor a
row measured in the same table; every ranked row at the run's precision (a TPU at float32 says it runs bf16
passes); every TPU row per chip and priced per chip-hour; a published figure of another stack or precision only
beside the ranking; and the saturation rule, on small reference files written here."""

from __future__ import annotations

import csv
import math
import re

import pytest
from test_which_device import R50

from engine.catalog import prices
from engine.compare import which as wd
from engine.compare.estimate.tpu_family import TPU_LAW, law_band, law_beyond
from engine.compare.evidence.saturation import saturated
from engine.compare.facts import likeforlike as lfl
from engine.compare.scale.one_scale import TPU_FLOAT32
from engine.reference.data import REFERENCE_CSV, load_reference

PRECISIONS = {"mixed_bfloat16": ("mixed bf16", "mixed fp16"), "float32": ("fp32", "tf32")}


@pytest.fixture(scope="module", params=sorted(PRECISIONS))
def table(request, ref):
    return request.param, wd.which_device({**R50, "precision": request.param}, ref)


def test_every_row_is_its_anchor_row_times_its_ratio(table):
    precision, w = table
    by_key = {r.hardware_key: r for r in w.rows}
    measured = [r for r in w.rows if r.basis == "measured"]
    assert len(measured) >= 2 and all(r.anchor is None and r.ratio == 1.0 for r in measured)
    assert len({r.setting for r in measured}) == 1, "the anchors share one stack"
    for r in w.rows:
        if r.basis in ("scaled", "estimate"):
            anchor = by_key[r.anchor]  # a row of this same table: measured, or a TPU row hanging from the root TPU
            root = anchor if anchor.anchor is None else by_key[anchor.anchor]  # (estimate.tpu_chain, tpu_family)
            assert root.basis == "measured" and root.anchor is None, r
            assert anchor is root or r.device_type == anchor.device_type == "tpu", r
            assert r.rate_one_device == pytest.approx(anchor.rate_one_device * r.ratio, rel=1e-9)
            assert r.ratio_source and f"{r.ratio:.3g}" in r.how, (r.ratio, r.how)  # the source's own ratio
            assert wd.scale_text(r).startswith(f"= {anchor.device} × ")
    js = wd.to_json(w)
    assert js["scale"] == w.scale_note
    for d in js["devices"]:
        assert {"hardware_key", "rate_one_device", "basis", "anchor", "ratio", "ratio_source", "precision", "per",
                "devices_per_rental"} <= set(d)  # fmt: skip
        if d["anchor"] is not None:
            anchor = next(a for a in js["devices"] if a["hardware_key"] == d["anchor"])
            assert d["rate_one_device"] == pytest.approx(anchor["rate_one_device"] * d["ratio"], rel=1e-9)


def test_every_ranked_row_at_the_runs_precision_and_tpus_say_bf16_passes(table):
    precision, w = table
    for r in w.rows:
        assert r.precision in PRECISIONS[precision], (r.device, r.precision)
        if r.device_type == "tpu" and precision == "float32":
            assert r.precision_note == TPU_FLOAT32 and r.setting == "fp32 → bf16 (XLA)"
    assert all(r.basis != "published" for r in w.rows)
    for r in w.beside:  # another stack or precision: named beside, never ranked
        assert r.beside_why and r.hardware_key
    other = [r for r in w.beside if r.precision not in PRECISIONS[precision]]
    assert other and all("another precision" in r.beside_why for r in other)


def test_every_tpu_row_per_chip_priced_per_chip_hour(table):
    _, w = table
    tpus = [r for r in [*w.rows, *w.beside] if r.device_type == "tpu"]
    assert {"tpu_v2", "tpu_v3", "tpu_v4", "tpu_v5e", "tpu_v5p", "tpu_v6e"} <= {r.hardware_key for r in w.rows}
    assert tpus and all(r.per == "chip" for r in tpus)
    assert all(r.per == "gpu" and r.devices_per_rental == 1 for r in w.rows if r.device_type == "gpu")
    by_key = {r.hardware_key: r for r in w.rows}
    board = prices.price_for_device("tpu_v2_8")
    assert board is not None and board.per_unit == "board"
    assert by_key["tpu_v2"].devices_per_rental == 4 and by_key["tpu_v5e"].devices_per_rental == 1
    assert by_key["tpu_v2"].usd_per_hour == pytest.approx(board.usd_per_hour / 4)  # per chip-hour
    v2_8 = next(r for r in w.beside if r.hardware_key == "tpu_v2_8")  # the board's figure ÷ its 4 chips, said
    assert "÷ 4 chips" in v2_8.label and v2_8.rate_one_device == pytest.approx(2796 / 4, rel=0.01)


def test_no_a100_80gb_below_the_a100_nor_a_v6e_chip_below_an_older_tpu_chip(table):
    _, w = table
    rate = {r.hardware_key: r.rate_one_device for r in w.rows}
    assert rate["a100_80gb"] >= rate["a100"]
    assert all(rate["tpu_v6e"] > rate[k] for k in ("tpu_v2", "tpu_v3", "tpu_v4", "tpu_v5e", "tpu_v5p"))
    assert all(r.rate_one_device > 0 for r in w.rows)


def test_tpus_no_pair_reached_follow_the_models_own_tpu_law(ref):
    """v2, v5e, v5p, v6e: the root TPU row × (peak ratio)^α × (bandwidth ratio)^(1 − α), α from Google's v3/v4 pair
    (ResNet-50 per chip 2,004 / 3,478 between chips 123 / 275 TFLOP/s and 900 / 1,200 GB/s: α ≈ 0.51)."""
    w = wd.which_device({**R50, "precision": "mixed_bfloat16"}, ref)
    by_key = {r.hardware_key: r for r in w.rows}
    lp, lb = math.log(275 / 123), math.log(1200 / 900)
    alpha = (math.log(3478 / 2004) - lb) / (lp - lb)
    assert 0.4 < alpha < 0.6
    peaks, bws = (
        {"tpu_v2": 45, "tpu_v5e": 197, "tpu_v5p": 459, "tpu_v6e": 918},
        {"tpu_v2": 600, "tpu_v5e": 819, "tpu_v5p": 2765, "tpu_v6e": 1640},
    )
    for key in peaks:
        r = by_key[key]
        law = (peaks[key] / 275) ** alpha * (bws[key] / 1200) ** (1 - alpha)
        assert r.basis == "estimate" and r.anchor == "tpu_v4" and r.ratio == pytest.approx(law, rel=1e-3), key
        assert r.ratio_source.startswith("TPU scaling law of this model (α 0.51") and r.low and r.high, r
        # the law's own range (every α, at least the new-silicon band: tpu_family.law_band) and checked error;
        # stretched where the chip lies further from TPU v4 than TPU v3 does (2.24× in peak, 1.33× in bandwidth)
        root = r.rate_one_device / r.ratio
        far = max(0.0, abs(math.log(peaks[key] / 275)) - lp, abs(math.log(bws[key] / 1200)) - lb)  # v2 1.0, v5p 0.5
        assert far == pytest.approx(law_beyond(key, "tpu_v4", "mixed", [("tpu_v3", "tpu_v4")]), abs=0.01)
        assert (far > 0) == ("further apart than the pair" in r.how), key
        # and its quoted error says the check's pairs were nearer than this (one words for every such row: the
        # screen groups the rows by it)
        assert ("further from its root than any pair checked" in r.error_case) == (far > 0)
        low, high = law_band(key, "tpu_v4", alpha, "mixed", far) or (0.0, 0.0)
        assert (r.low, r.high) == pytest.approx((root * low, root * high), rel=1e-2)
        assert r.error_case.startswith(
            f"TPU law from other TPU pairs: ~28 % median error, range held {TPU_LAW[1]:.0f} %"
        )
    assert by_key["tpu_v6e"].rate_one_device / by_key["tpu_v5p"].rate_one_device == pytest.approx(1.10, abs=0.01)


def test_tpu_v3_is_the_tpu_v4_row_times_googles_mlperf_ratio(ref):
    w = wd.which_device({**R50, "precision": "mixed_bfloat16"}, ref)
    by_key = {r.hardware_key: r for r in w.rows}
    v3, v4 = by_key["tpu_v3"], by_key["tpu_v4"]
    # MLPerf Training v0.7, Google's logs, per chip: TPU v3 2,004 (16 chips), TPU v4 3,478 (8 chips) images/s
    assert v3.basis == "scaled" and v3.anchor == "tpu_v4" and v3.ratio == pytest.approx(2004 / 3478, rel=1e-9)
    assert v3.ratio_source.startswith("Google, MLPerf Training v0.7") and "per chip" in v3.ratio_source
    assert v3.rate_one_device == pytest.approx(v4.rate_one_device * 2004 / 3478, rel=1e-9)
    assert v3.low == pytest.approx(v4.low * 2004 / 3478) and v3.high == pytest.approx(v4.high * 2004 / 3478)
    assert "MLPERF-TPU-02" in v3.how and "MLPERF-TPU-03" in v3.how
    assert v4.basis == "estimate" and v4.anchor is not None and by_key[v4.anchor].basis == "measured"
    assert wd.scale_text(v3).startswith("= TPU v4 × 0.576 (Google, MLPerf Training v0.7")


def test_b200_is_not_scaled_by_a_pipeline_bound_ratio(ref):
    w = wd.which_device({**R50, "precision": "mixed_bfloat16"}, ref)
    b200 = next(r for r in w.rows if r.hardware_key == "b200")
    h200 = next(r for r in w.rows if r.hardware_key == "h200")
    assert "Lambda" not in b200.ratio_source and b200.rate_one_device > h200.rate_one_device
    flagged = {r.hardware_key for r in w.beside if r.flag}
    assert {"b200", "gh200"} <= flagged and all("pipeline-bound" in r.flag for r in w.beside if r.flag)
    assert any("flagged pipeline-bound" in line for line in wd.lines(w))


def _write_rows(path, rows: list[tuple[str, str, str, float]]) -> None:
    """A small reference file: Lambda's real H100 ResNet-50 row as the template, one row per (model, device,
    precision, images/s) given."""
    with REFERENCE_CSV.open(newline="") as f:
        reader = csv.DictReader(f)
        template = next(r for r in reader if r["ref_id"] == "LAMBDA-DLB-V2-01")
        fields = reader.fieldnames
    with path.open("w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=fields)
        out.writeheader()
        for i, (model, key, precision, value) in enumerate(rows):
            out.writerow({**template, "ref_id": f"TEST-SAT-{i:02d}", "source_id": "TEST-SAT", "model": model,
                          "hardware_key": key, "hardware": key, "precision": precision, "value": f"{value:g}"})  # fmt: skip


def test_saturation_rule_on_small_files(tmp_path):
    path = tmp_path / "lambda_like.csv"
    _write_rows(path, [
        ("resnet50", "h100", "mixed_float16", 2790), ("resnet50", "h200", "mixed_float16", 3079),
        ("resnet50", "gh200", "mixed_float16", 2846), ("resnet50", "b200", "mixed_float16", 3076),
        ("resnet50", "h100_pcie", "mixed_float16", 1976), ("resnet50", "a100", "mixed_float16", 1527),
        ("resnet50", "b200", "tf32", 2967), ("resnet50", "h200", "tf32", 2260), ("resnet50", "h100", "tf32", 1895),
        ("bert_base", "h200", "mixed_float16", 1000), ("bert_base", "b200", "mixed_float16", 1500),
        ("gpt2_small", "h100", "mixed_float16", 500), ("gpt2_small", "h200", "mixed_float16", 530),
    ])  # fmt: skip
    rates = [r for r in (lfl.rate_of_reference(x) for x in load_reference(path).to_dict("records")) if r]
    assert len(rates) == 13
    why = saturated(rates)
    flagged = {(r.workload, r.hardware_key, r.precision) for r in rates if r.id in why}
    assert flagged == {("resnet50", k, "mixed_float16") for k in ("h100", "h200", "gh200", "b200")}
    text = next(iter(why.values()))
    assert re.search(r"within ±10 % \(2,790–3,079\) on H100, GH200, B200, H200", text), text
    # one figure further than ±10 % from the rest leaves the plateau: B200 at 1.5× H200 is no longer flagged
    _write_rows(path, [("resnet50", "h100", "mixed_float16", 2790), ("resnet50", "b200", "mixed_float16", 4200)])
    rates = [r for r in (lfl.rate_of_reference(x) for x in load_reference(path).to_dict("records")) if r]
    assert saturated(rates) == {}


def test_the_real_table_flags_lambdas_resnet50_figures(ref):
    rates = [r for r in (lfl.rate_of_reference(x) for x in ref.to_dict("records")) if r]
    why = saturated(rates)
    flagged = {r.hardware_key for r in rates if r.id in why and r.source_id == "LAMBDA-DLB-V2"
               and r.workload == "resnet50"}  # fmt: skip
    assert {"h100", "h200", "gh200", "b200"} <= flagged and "h100_pcie" not in flagged
