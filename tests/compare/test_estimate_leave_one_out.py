"""Estimates where nothing was measured: ratio and the memory-aware step model on the real reference table, and
the leave-one-out check on a hand-made set whose every number can be worked out on paper."""

from __future__ import annotations

import contextlib
import io
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engine.compare.estimate import estimate as est
from engine.compare.estimate import estimate_check as chk
from engine.reference.data import load_reference

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def points():
    return est.points_from_reference(load_reference())


def test_points_are_per_device_and_skip_doubtful_rows(points):
    assert points and all(p.examples_per_sec > 0 and p.precision_class in est.CLASSES for p in points)
    # NVIDIA's 8-GPU ResNet-50 rows count per GPU: every A100 point is within one GPU's range
    a100 = [p.examples_per_sec for p in points if (p.model, p.hardware_key) == ("resnet50", "a100")]
    assert len(a100) >= 10 and max(a100) < 3000
    fashion = [p for p in points if p.model == "fashion_cnn"]  # its two seed rows are doubtful: left out
    # the H100 pack ran it on Keras-JAX and Keras-torch; only the faster backend's figure is a point
    assert [(p.basis, p.hardware_key, round(p.examples_per_sec)) for p in fashion] == [("measured", "h100", 190226)]


def test_accelbench_rows_count_as_measured():
    ref = load_reference()
    row = ref[(ref["model"] == "resnet50") & (ref["hardware_key"] == "v100") & ~ref["doubtful"]].head(1).copy()
    row["source_kind"] = "accelbench"
    (p,) = est.points_from_reference(row)
    assert p.basis == "measured"


def test_ratio_estimate_for_a_pair_that_has_data(points):
    # InceptionV3 was published on a K80 and a P100; ResNet-50 on those and a V100
    groups = est.group_points(points)
    r = est._by_ratio("inceptionv3", "v100", "float32", groups)
    assert r is not None and r.method == "ratio" and r.low <= r.examples_per_sec <= r.high
    assert r.anchor is not None and r.anchor.model == "inceptionv3" and r.anchor.hardware_key in ("k80", "p100")
    assert r.ratio_models == ("resnet50",) and r.rough  # one model behind the ratio
    assert r.how.startswith("Estimate: inceptionv3 on a ") and "V100/" in r.how
    # a ratio seen on a single other model gives way to the step model, which scales the same anchor figure
    e = est.estimate("inceptionv3", "v100", "float32", points)
    assert e is not None and e.method == "memory-aware" and e.anchor is not None and e.anchor.model == "inceptionv3"
    # seen on two or more other models, the ratio answers (BERT-large at 384 tokens on a V100: A100 × BERT ratios)
    b = est.estimate("bert_large@384", "v100", "mixed", points)
    assert b is not None and b.method == "ratio" and not b.rough and len(b.ratio_models) >= 2


def test_a_raw_precision_is_read_as_its_class(points):
    a = est.estimate("inceptionv3", "v100", "mixed_bfloat16", points)
    b = est.estimate("inceptionv3", "v100", "mixed", points)
    assert a == b and a is not None and a.precision_class == "mixed"


def test_no_figure_of_the_model_gives_a_rough_memory_aware_estimate(points):
    e = est.estimate("tiny_cnn", "a100", "float32", points)  # no figure of it anywhere
    assert e is not None and e.method == "memory-aware" and e.rough and e.anchor is None
    assert e.low <= e.examples_per_sec <= e.high
    assert e.how.startswith("Rough estimate (memory-aware): ") and "GFLOP per training example and " in e.how
    assert "on its 156 TFLOP/s peak and 1,555 GB/s" in e.how and "of conv models" in e.how
    # a user's own model is counted by the worker; its FLOPs come in explicitly (its kind's op mix stands in)
    mine = est.estimate("my_model", "h100", "mixed", points, flops_per_example=3e9)
    assert mine is not None and mine.method == "memory-aware" and mine.rough and "op mix of resnet50" in mine.how
    assert est.estimate("my_model", "h100", "mixed", points) is None  # nothing to count with


def test_unknown_or_cpu_device_gives_none(points):
    assert est.estimate("resnet50", "no_such_gpu", "float32", points) is None
    assert est.estimate("resnet50", "cpu", "float32", points) is None
    assert est.estimate("resnet50", "gpu_unknown", "float32", points) is None


def test_an_estimate_never_uses_the_figure_it_stands_in_for(points):
    alone = [p for p in points if (p.model, p.hardware_key) != ("resnet50", "k80")]
    assert est.estimate("resnet50", "k80", "float32", points) == est.estimate("resnet50", "k80", "float32", alone)


def _p(model: str, key: str, eps: float, source: str = "S") -> est.Point:
    return est.Point(model, key, "float32", eps, "published", source, f"{model} {key}")


# three conv models on an A100 and a V100: A100/V100 ratios 2.75 (resnet50), 3 (vgg19), 2 (xception)
HAND = [
    _p("resnet50", "a100", 1100), _p("resnet50", "v100", 400), _p("vgg19", "a100", 300), _p("vgg19", "v100", 100),
    _p("xception", "a100", 500), _p("xception", "v100", 250),
]  # fmt: skip


def test_leave_one_out_on_a_hand_made_set():
    pairs = chk.leave_one_out(HAND)
    got = {(p.model, p.hardware_key): e for p, e in pairs}
    assert len(pairs) == 6 and all(e.method == "ratio" and not e.rough for e in got.values())
    r = got[("resnet50", "a100")]  # V100 400 × median(3, 2)
    assert r.examples_per_sec == pytest.approx(1000) and r.ratio_models == ("vgg19", "xception")
    assert (r.low, r.high) == pytest.approx((400 * 2 / 1.25, 400 * 3 * 1.25))
    assert got[("vgg19", "v100")].examples_per_sec == pytest.approx(300 * (1 / 2.75 + 1 / 2) / 2)
    estimates = {
        ("resnet50", "a100"): 400 * 2.5, ("resnet50", "v100"): 1100 * (1 / 3 + 1 / 2) / 2,
        ("vgg19", "a100"): 100 * 2.375, ("vgg19", "v100"): 300 * (1 / 2.75 + 1 / 2) / 2,
        ("xception", "a100"): 250 * 2.875, ("xception", "v100"): 500 * (1 / 2.75 + 1 / 3) / 2,
    }  # fmt: skip
    truth = {(p.model, p.hardware_key): p.examples_per_sec for p in HAND}
    errors = [abs(v - truth[k]) / truth[k] * 100 for k, v in estimates.items()]
    c = chk.summarise(pairs)
    assert c is not None and c.n_points == 6 and c.median_error_pct == pytest.approx(statistics.median(errors))
    assert c.median_error_pct == pytest.approx((100 * 62.5 / 300 + 100 * 29.5454545 / 100) / 2)
    # xception is the odd one out (ratio 2, outside 2.75–3 even widened by 25 %): the two others' ranges hold
    assert c.coverage_pct == pytest.approx(100 * 4 / 6)
    assert chk.summarise(pairs, "memory-aware") is None


def test_a_source_that_measured_both_devices_gives_the_ratio():
    # vgg19's two sources disagree by 10× in level, but each saw the same 3× between the devices
    points = [*HAND[1:2], _p("vgg19", "a100", 3000, "T"), _p("vgg19", "v100", 1000, "T"), *HAND[2:4]]
    e = est._by_ratio("resnet50", "a100", "float32", est.group_points(points))
    assert e is not None and e.examples_per_sec == pytest.approx(400 * 3)


def test_a_device_figure_is_its_run_alone_and_each_source_counts_once():
    # a source's 8-GPU run gives each device a share that carries the all-reduce (the step model has no term for
    # it): its single-GPU run is the device's figure; three rows of one source do not outvote another source
    on = lambda eps, n, src: replace(_p("tacotron2", "h200", eps, src), devices=n)  # noqa: E731
    rows = [on(119e3, 1, "L"), on(44e3, 8, "L"), on(46e3, 8, "L"), on(69e3, 8, "L"), on(128e3, 1, "M")]
    g = est.group_points(rows)[("tacotron2", "h200", "float32")]
    assert g.by_source["L"].examples_per_sec == 119e3 and g.middle.examples_per_sec == 119e3


def test_check_note_reads_the_measured_check():
    assert set(chk.CHECK) == {"ratio", "memory-aware", "all", chk.LEFT_OUT, chk.SIBLING, chk.NEW_SILICON, chk.LAUNCH}
    note = chk.check_note("ratio")
    assert note.startswith(f"Checked leave-one-out on {chk.CHECK['ratio'].n_points} ") and "median error" in note
    assert "device left out" not in note
    # the method that answers for a device with no figures says its error by case (issue 36 item 6), against the
    # new-silicon targets; never the single device-left-out figure
    sib, new = chk.CHECK[chk.SIBLING], chk.CHECK[chk.NEW_SILICON]
    memory = chk.check_note("memory-aware")
    assert f"a sibling of its chip measured ({sib.n_points} figures): {sib.median_error_pct:.0f} %" in memory
    assert f"new silicon, every device of it left out ({new.n_points}): {new.median_error_pct:.0f} %" in memory
    assert "whole device left out" not in memory
    launch = chk.CHECK[chk.LAUNCH]  # and a chip beyond every one with a figure: the launches' figures
    assert f"as each chip was at its launch ({launch.n_points}): {launch.median_error_pct:.0f} %" in memory
    assert ("meets its targets" in memory) == (
        new.median_error_pct <= 18 and new.coverage_pct >= 80 and new.median_width <= 2.5
    )
    assert chk.check_note(chk.LEFT_OUT).startswith("Checked with the whole device left out")
    assert chk.check_note("guess") == "Not yet checked against held-out figures."


@pytest.fixture(scope="module")
def bench_prints() -> dict[str, str]:
    """What `bench/bench_estimates.py --json` and then `--markdown` print, run here in one process: the markdown
    tables reuse the fits the JSON checks made (step_fit.fit's cache), ~1 s instead of a second ~70 s run."""
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_estimates

    out = {}
    for flag in ("--json", "--markdown"):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert bench_estimates.main([flag]) == 0
        out[flag] = buf.getvalue()
    return out


def test_the_bench_runs(bench_prints):
    out = bench_prints["--markdown"]
    assert "| held out | points |" in out and "| model | device | precision |" in out and "| ratio |" in out
    assert "| memory-aware |" in out


def test_the_error_every_estimate_quotes_is_what_the_bench_computes(bench_prints):
    """CHECK and DEVICE_MISSES (quoted beside every estimate on the screen and in the CLI) are the bench's own
    figures, not constants typed apart from it (issue 45): a change to the fit or the table that moves them fails
    here until they are updated from `bench/bench_estimates.py --json`."""
    got = json.loads(bench_prints["--json"])

    def quoted(c: chk.Checked) -> tuple:
        return (c.n_points, c.median_error_pct, c.coverage_pct, c.median_width)

    def printed(s: dict) -> tuple:
        return (s["points"], s["median_abs_error_pct"], s["coverage_pct"], s["median_width"])

    one, device = got["leave_one_out"], got["leave_device_out"]
    assert quoted(chk.CHECK["ratio"]) == printed(one["by_method"]["ratio"])
    assert quoted(chk.CHECK["memory-aware"]) == printed(one["by_method"]["memory-aware"])
    assert quoted(chk.CHECK["all"]) == printed(one)
    assert quoted(chk.CHECK[chk.LEFT_OUT]) == printed(device)
    assert quoted(chk.CHECK[chk.SIBLING]) == printed(device["sibling_measured"])
    assert quoted(chk.CHECK[chk.NEW_SILICON]) == printed(got["leave_silicon_out"])
    assert quoted(chk.CHECK[chk.LAUNCH]) == printed(got["chronological_with_own_run"]["beyond_the_span"])
    band = got["leave_silicon_out"]["band"]
    assert band["stretch_in_use"] == band["stretch_on_every_launch"]  # extrapolation.EXTRAPOLATION_C is the choice
    assert band["widening_in_use"] == band["widening_on_every_silicon"]  # step_fit.NEW_SILICON_WIDENING is the choice
    worst = sorted(device["by_device"].items(), key=lambda kv: -kv[1]["median_abs_error_pct"])[:6]
    assert {k: v["median_abs_error_pct"] for k, v in worst} == chk.DEVICE_MISSES
