"""Any shape and any data on the one scale (issue 42 item 1): a ResNet-50 run on flowers JPEGs at 192×192 sits on the
same scale as the same model on synthetic 224×224 data — its anchors are AccelBench's 224×224 rows rescaled by the
model's traced cost — and a model nobody measured (flowers_cnn, a user's own model) hangs from a sibling model's
measured rows converted by traced cost, with the conversion's checked correction and range."""

from __future__ import annotations

import re

import pytest
from test_which_device import R50

from engine.compare import which as wd
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.cost import cost_of, cost_ratio
from engine.compare.scale.conversion_check import check_conversions
from engine.compare.scale.converted import CONVERSION, CONVERSION_ERROR_PCT


@pytest.fixture(scope="module", params=["float32", "mixed_bfloat16"])
def pair(request, ref):
    synthetic = wd.which_device({**R50, "precision": request.param}, ref)
    flowers = wd.which_device({**R50, "precision": request.param, "dataset": "flowers"}, ref)
    return request.param, synthetic, flowers


def test_the_192_cost_is_traced_not_guessed():
    got = cost_of("resnet50@192x192x3")
    assert got is not None and got.how.startswith("XLA, zoo model at 192×192×3 (flowers)")
    assert got.total_flops < cost_of("resnet50").total_flops  # type: ignore[union-attr]


def test_a_flowers_run_has_every_row_on_the_scale(pair):
    _, _, flowers = pair
    assert flowers is not None and not flowers.scale_note.startswith("No device was measured")
    for r in flowers.rows:
        if r.basis != "measured":
            assert r.anchor is not None and r.ratio is not None, (r.device, r.basis, r.how)
    anchors = [r for r in flowers.rows if r.basis == "measured"]
    assert anchors and all("rescaled from 224×224×3 to 192×192×3 by cost" in r.how for r in anchors)


def test_its_h100_row_is_the_synthetic_h100_row_times_the_traced_cost_ratio(pair):
    precision, synthetic, flowers = pair
    s = next(r for r in synthetic.rows if r.hardware_key == "h100")
    f = next(r for r in flowers.rows if r.hardware_key == "h100")
    klass = "mixed" if precision != "float32" else "float32"
    k = cost_ratio("resnet50", "resnet50@192x192x3", "h100", klass)
    assert k is not None and 1.3 < k < 1.4  # (224/192)² = 1.36: a convnet's work follows its pixels
    assert f.rate_one_device == pytest.approx(s.rate_one_device * k, rel=1e-9)
    # every device moves by about the same traced ratio (its own: more or less memory-bound at 192²), so the table
    # is the same table, shifted
    syn = {r.hardware_key: r.rate_one_device for r in synthetic.rows}
    moved = {r.hardware_key: r.rate_one_device / syn[r.hardware_key] for r in flowers.rows}
    assert set(moved) == set(syn) and all(0.9 * k < m < 1.1 * k for m in moved.values()), moved


def test_a_model_nobody_measured_hangs_from_a_sibling_converted_by_traced_cost(ref):
    w = wd.which_device({**R50, "model": "flowers_cnn", "dataset": "flowers"}, ref)
    assert w is not None and "converted to flowers_cnn by their traced costs" in w.scale_note
    roots = [r for r in w.rows if r.anchor_model]
    assert roots and all(r.basis == "estimate" and r.anchor == r.hardware_key and r.ratio for r in roots)
    # fashion_cnn is 5.6× smaller in FLOPs: corrected by the checked exponent of that ratio, said so
    exponent = CONVERSION["from_smaller"][0]
    for r in roots:
        m = re.search(
            r"× ([\d.]+) = \(FLOPs ratio ([\d.]+)\)\^−([\d.]+) for a conversion from a far smaller model", r.how
        )
        assert m and float(m[3]) == pytest.approx(exponent, abs=0.005), r.how
        assert float(m[1]) == pytest.approx(float(m[2]) ** -exponent, rel=0.01) and float(m[1]) > 1, r.how
    assert all(r.anchor is not None and r.ratio is not None for r in w.rows), "every row on the one scale"
    assert not [r for r in w.rows if r.basis == "published"]
    # the seed article's TPU v2-8 board (Keras-TF, 2018) is listed beside, no longer the root of every estimate
    assert any(r.hardware_key == "tpu_v2_8" for r in w.beside)
    assert not any("on a TPU v2-8 (" in r.how for r in w.rows if r.basis == "estimate")
    assert all("converted by traced cost" in r.error_case for r in w.rows), "each row quotes its path's error"
    js = wd.to_json(w)
    assert all(d["anchor"] and d["ratio"] for d in js["devices"])
    assert any(d["anchor_model"] for d in js["devices"])


def test_a_users_own_model_the_same_way(ref):
    run = {**R50, "model": "two_input_net", "model_source": "file", "gflops": 40.0, "global_batch_size": 64,
           "per_replica_batch_size": 64, "examples_per_sec": 20.0}  # fmt: skip
    base = lfl.rate_of_run(run)
    assert base is not None and base.settings.get("flops_per_example")
    w = wd.which_device(run, ref)
    assert w is not None and "converted to two_input_net" in w.scale_note
    assert all(r.anchor is not None and r.ratio is not None for r in w.rows)
    h100 = next(r for r in w.rows if r.hardware_key == "h100")
    assert h100.anchor_model and "× " in h100.how and h100.low < h100.rate_one_device <= h100.high


def test_the_conversion_constants_are_the_checks_own(ref):
    """The correction and range every converted row carries are what the check computes on the reference table
    (bench/bench_estimates.py prints the same), not numbers typed apart from it."""
    rates = [r for r in (lfl.rate_of_reference(x) for x in ref[ref["task"] == "training"].to_dict("records")) if r]
    got = check_conversions(rates)
    assert set(got) == set(CONVERSION)
    for name, (exponent, low, high) in CONVERSION.items():
        c = got[name]
        assert (exponent, low, high) == pytest.approx((c.exponent, c.low, c.high), abs=0.011), name
        assert CONVERSION_ERROR_PCT[name] == pytest.approx(c.median_error_pct, abs=0.6), name
    # a far conversion is corrected by one exponent of the FLOPs ratio: too fast from a larger model, too slow from
    # a smaller one, the same law both ways
    assert got["near"].exponent == 0.0 and got["from_larger"].exponent == got["from_smaller"].exponent > 0


def test_the_cli_folds_the_many_rows_of_another_shape_into_one_line():
    """A run on files at 192×192 has every 224×224 row of its model beside it; `compare --device h100` says so in one
    line per reason (rows counted, three named) and lists each only with --verbose."""
    from engine.cli.compare_table import _other_workloads

    why = "another input shape (224×224×3, not 192×192×3)"
    others = [(f"{d} (published, fp32)", why) for d in ("P100", "P100", "K80 (1 die)", "V100", "TPU v2-8")] + [
        ("GPU (model not stated) (published, fp32)", "another model (vgg16)")
    ]
    folded = _other_workloads(others, verbose=False)
    assert folded == [
        f"other workloads, not comparable — {why}: 5 rows (P100 (published, fp32); K80 (1 die) (published, fp32); "
        "V100 (published, fp32); 1 more)",
        "other workload, not comparable: GPU (model not stated) (published, fp32) — another model (vgg16)",
    ]
    assert len(_other_workloads(others, verbose=True)) == len(others)
