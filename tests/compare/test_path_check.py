"""The error each row really has (issue 42 item 5): every path an estimate takes, held out on the real reference table
(engine.compare.estimate.path_check; bench/bench_estimates.py --json prints it). The quoted conversion constants are
tied to check_conversions in test_any_shape.py (test_the_conversion_constants_are_the_checks_own)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from engine.compare.estimate import launch_check as lc
from engine.compare.estimate import path_check as pc
from engine.compare.estimate.points import reference_points
from engine.compare.facts.silicon import silicon
from engine.compare.scale.conversion_check import check_conversions, conformal_band, conversion_errors, conversion_pairs

SUMMARY = {"points", "median_abs_error_pct", "coverage_pct", "median_width"}


@pytest.fixture(scope="module")
def rates(ref):
    return pc.training_rates(ref)


@pytest.fixture(scope="module")
def points(rates):
    return reference_points(rates)


def _sane(s: dict) -> None:
    assert set(s) >= SUMMARY and s["points"] > 0
    assert 0 <= s["median_abs_error_pct"] < 1000 and 0 <= s["coverage_pct"] <= 100 and s["median_width"] >= 1


def test_the_stack_factor_leaves_the_chips_silicon_out_of_its_factor(rates, points):
    got = pc.stack_factor_check(rates, points)
    _sane(got)
    assert set(got["by_vendor"]) == {"amd", "google"}
    for p in got["pairs"]:
        assert p["vendor"] in ("amd", "google") and p["truth"] > 0 and p["low"] <= p["estimate"] <= p["high"]
    # AMD has two silicons: MLPerf's MI300X/MI325X (CDNA 3) and MosaicML's MI250 (CDNA 2); each is held out with a
    # factor, the other's; Google's v5p and v6e likewise
    amd = [p for p in got["pairs"] if p["vendor"] == "amd"]
    assert {p["silicon"] for p in amd} == {"cdna3", "cdna2"} and {silicon("mi300x"), silicon("mi250")} == {"cdna3", "cdna2"}
    assert all(p["factor"] for p in got["pairs"]) and got["by_vendor"]["amd"]["without_factor"] == 0


def test_an_amd_silicon_held_out_takes_the_factor_of_the_other_silicons_pairs_alone(rates, points):
    """The factor an MI300X pair is scored with is the median of the MI250's pairs only (and the other way round):
    neither the held-out chip's own pairs nor its silicon sibling's (the MI325X) enter it."""
    from engine.compare.estimate import stack_factor as sf
    from engine.compare.estimate.estimate import estimate_batch
    from engine.compare.estimate.points import group_points, without_pipeline_bound

    groups = group_points(without_pipeline_bound(points))
    reqs = [q for q in sf.pair_requests(rates, groups) if sf.vendor(q[0].hardware_key) == "amd"]
    made = estimate_batch([q for *_, q in reqs])
    by_silicon = {}
    for q, got in zip(reqs, made, strict=True):
        by_silicon.setdefault(silicon(q[0].hardware_key), []).append((q, got))
    assert set(by_silicon) == {"cdna3", "cdna2"}
    scored = [p for p in pc.stack_factor_check(rates, points)["pairs"] if p["vendor"] == "amd"]
    for held, other in (("cdna3", "cdna2"), ("cdna2", "cdna3")):
        qs, ms = zip(*by_silicon[other], strict=True)
        want = sf.stack_factors(list(qs), list(ms))["amd"].factor
        assert all(p["factor"] == round(want, 3) for p in scored if p["silicon"] == held), held


def test_the_tpu_law_takes_alpha_from_the_other_pairs(rates):
    got = pc.tpu_law_check(rates)
    assert got["points"] >= 4 and 0 <= got["median_abs_error_pct"] < 200
    for p in got["pairs"]:
        assert p["alpha_from"] in ("model", "kind", "all") and 0 <= p["alpha"] <= 1 and p["width"] >= 1


def test_the_tpu_law_rows_quote_the_checks_own_figures_and_range(rates):
    """Every TPU-law row carries TPU_LAW (engine.compare.estimate.tpu_family): this check's error, coverage and
    band, not numbers typed apart from it."""
    from engine.compare.estimate.tpu_family import TPU_LAW

    got = pc.tpu_law_check(rates)
    assert (got["median_abs_error_pct"], got["coverage_pct"], got["points"], got["median_width"]) == TPU_LAW


def test_the_tpu_law_range_spans_every_alpha_and_at_least_the_new_silicon_band(rates):
    """Three chip pairs with α 0.51, 1.0 and 0.48: a band from the other two pairs' errors held 2 of 6 directions.
    The range from α 0 (bandwidth alone) to α 1 (compute alone), at least the step model's new-silicon band about
    the law, holds each — and is what the check scores (its width)."""
    from engine.compare.estimate.estimate_check import CHECK, NEW_SILICON
    from engine.compare.estimate.tpu_family import law_band

    got = pc.tpu_law_check(rates)
    assert got["coverage_pct"] >= 80 and all(p["held"] for p in got["pairs"])
    # TPU v4 from v3 (123 → 275 TFLOP/s, 900 → 1,200 GB/s) at α 0.48: the law 1.71 × the general band reaches 2.38
    low, high = law_band("tpu_v4", "tpu_v3", 0.48, "mixed") or (0.0, 0.0)
    half = math.sqrt(CHECK[NEW_SILICON].median_width)
    law = (275 / 123) ** 0.48 * (1200 / 900) ** 0.52
    assert (low, high) == pytest.approx((law / half, law * half)) and low < 1200 / 900 and high > 275 / 123
    # v6e from v5p at α 1: 2.0 compute, 0.59 bandwidth: the range reaches down to bandwidth alone
    low, high = law_band("tpu_v6e", "tpu_v5p", 1.0, "mixed") or (0.0, 0.0)
    assert low == pytest.approx(1640 / 2765) and high == pytest.approx(2.0 * half)


def test_the_conformal_band_holds_more_than_the_quantiles_of_a_few(rates):
    # 12 values: the 1st smallest and largest (k = ⌊13 × 0.1⌋); 42: the 4th (⌊43 × 0.1⌋)
    assert conformal_band(list(range(12))) == (0, 11) and conformal_band(list(range(42))) == (3, 38)
    assert conformal_band([1.0, 2.0]) == (1.0, 2.0)


def test_the_traced_cost_classes_leave_one_pair_out(rates):
    got = pc.traced_cost_check(rates)
    assert set(got) == {"near", "from_larger", "from_smaller"}
    checked = check_conversions(rates)
    for name, s in got.items():
        _sane(s)
        assert s["points"] == checked[name].n
        # the band is chosen inside each leave-out to hold ≥ 80 %: the check says whether it did
        assert s["coverage_pct"] >= 80, (name, s)
    # the labelled pairs are the check's own errors, class by class
    assert conversion_errors(rates) == {
        n: [e for c, _, e in conversion_pairs(rates) if c == n] for n in ("near", "from_larger", "from_smaller")
    }


def test_chronological_uses_only_what_came_before(rates, points):
    years, firsts = lc.point_years(rates), lc.first_years(rates)
    assert firsts["h100"] == 2023 and firsts["a100"] == 2020
    by_device = lc.chronological(points, years, firsts)
    got = lc.chronological_json(by_device, firsts)
    _sane(got)
    assert {"nvidia", "google"} <= set(got["by_vendor"]) and set(got["by_case"]) == {
        "own figure elsewhere",
        "no figure of the model",
    }
    # an estimate's anchor is a figure published strictly before the held-out device's first
    for device, pairs in by_device.items():
        for _, e in pairs:
            assert e.anchor is None or (e.anchor.hardware_key != device and years[e.anchor] < firsts[device])
    by_method = pc.by_method([x for pairs in by_device.values() for x in pairs])
    assert set(by_method) == {"step model", "ratio"}


def test_an_mlperf_round_dates_a_row_without_a_year(rates):
    r = next(r for r in rates if "MLPerf Training v4.1" in str(r.settings.get("source_title")))
    undated = replace(r, settings={**r.settings, "year": None})
    assert lc.year_of(undated) == 2024


def test_the_stack_factor_error_rows_quote_is_the_checks_own(rates, points):
    """Every AMD and TPU row on the stack-factor path quotes STACK_CHECK (engine.compare.estimate.error_case): the
    numbers are this check's, not typed apart from it."""
    from engine.compare.estimate.stack_factor import STACK_CHECK

    got = pc.stack_factor_check(rates, points)["by_vendor"]
    for v, (err, held, n) in STACK_CHECK.items():
        assert (err, held, n) == (got[v]["median_abs_error_pct"], got[v]["coverage_pct"], got[v]["points"]), v


def test_chronological_with_own_run_starts_only_from_older_devices(rates, points):
    """The product's situation (an answer starts from the user's run): a device's figure anchored on the same model's
    figure on a device out in an earlier year — never the device itself, a same-year sibling or a later one; the
    fit still sees only what was published before (its `fitted on N figures` is the strict variant's)."""
    years, firsts = lc.point_years(rates), lc.first_years(rates)
    strict = lc.chronological(points, years, firsts)
    own = lc.chronological(points, years, firsts, own_run=True)
    assert set(own) == set(strict)
    anchored = [(d, t, e) for d, pairs in own.items() for t, e in pairs if e.anchor is not None]
    assert len(anchored) > sum(e.anchor is not None for pairs in strict.values() for _, e in pairs)
    for device, truth, e in anchored:
        assert e.anchor.model == truth.model and e.anchor.precision_class == truth.precision_class
        assert e.anchor.hardware_key != device and firsts[e.anchor.hardware_key] < firsts[device]
    _sane(lc.chronological_json(own, firsts))


def test_the_size_trend_fitted_before_a_chip_never_carries_it_to_its_whole_bandwidth(rates, points):
    """Fitted on the figures published before 2023 (the H100's first year), the trend's slopes are ≤ 0: a bigger chip
    reaches no larger share of its peak or bandwidth (a slope of +0.53 once put the H100 at 100 % of its bandwidth)."""
    from engine.compare.estimate.estimate import fit_figures, group_points, without_pipeline_bound
    from engine.compare.estimate.step_fit import fit

    years = lc.point_years(rates)
    before = [p for p in points if years.get(p, 2023) < 2023]
    got = fit(fit_figures(group_points(without_pipeline_bound(before))))
    assert got is not None and got.trend[0] <= 0 and got.trend[2] <= 0
    assert got.efficiencies("h100", "mixed")[1] < 0.9
