"""A device's figure is a plain framework's where one exists (issue 42, sixth round): a closed-division MLPerf
Training per-GPU share is a vendor-tuned ceiling (its notes say so), so it enters a group's middle — the figure that
anchors an estimate and checks one — only where no other source measured that model on that device (a TPU slice);
its same-source ratios count either way."""

from __future__ import annotations

import pytest

from engine.compare.estimate.path_check import training_rates
from engine.compare.estimate.points import Point, group_points, reference_points, tuned_ceiling
from engine.reference.data import load_reference


@pytest.fixture(scope="module")
def rates():
    return training_rates(load_reference())


@pytest.fixture(scope="module")
def groups(rates):
    return group_points(reference_points(rates))


def test_only_closed_division_mlperf_rows_are_tuned_ceilings(rates):
    tuned = {r.source_id for r in rates if tuned_ceiling(r)}
    assert {"MLPERF-XV", "MLPERF-TPU", "MLPERF-V40"} <= tuned
    assert not {s for s in tuned if not s.startswith("MLPERF")}, tuned  # Lambda, NVIDIA's DLE, AccelBench: plain


def test_a_tuned_ceiling_is_no_groups_middle_beside_a_plain_figure(groups):
    a100 = groups["resnet50", "a100", "mixed"]
    assert "MLPERF-XV" in a100.by_source  # MLPerf v0.7's 2,816 images/s per GPU is kept for same-source ratios
    assert not a100.middle.tuned and a100.middle.source_id != "MLPERF-XV"
    plain = sorted(p.examples_per_sec for s, p in a100.by_source.items() if not p.tuned)
    assert a100.middle.examples_per_sec == plain[(len(plain) - 1) // 2]  # the middle of the plain sources alone
    h100 = groups["resnet50", "h100", "mixed"]
    assert h100.middle.source_id != "MLPERF-V40"  # 7,161 per GPU of an 8-GPU DGX run, not the H100's plain figure


def test_where_only_mlperf_measured_a_device_its_figure_stands(groups):
    v4 = groups["resnet50", "tpu_v4", "mixed"]
    assert v4.middle.tuned and v4.middle.source_id == "MLPERF-TPU"


def test_a_tuned_group_alone_keeps_its_middle():
    def pt(v: float, source: str, tuned: bool) -> Point:
        return Point("resnet50", "a100", "mixed", v, "published", source, source, tuned=tuned)

    only_tuned = group_points([pt(2816.0, "MLPERF-XV", True)])["resnet50", "a100", "mixed"]
    assert only_tuned.middle.examples_per_sec == 2816.0
    mixed = group_points([pt(2816.0, "MLPERF-XV", True), pt(1500.0, "LAMBDA", False), pt(2200.0, "NV", False)])
    assert mixed["resnet50", "a100", "mixed"].middle.examples_per_sec == 1500.0  # median_low of the two plain
