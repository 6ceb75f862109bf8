"""Efficiency on the like-for-like footing: examples per joule and dollars per million examples for runs
(measured energy only where measured) and reference rows (published watts, or estimates labelled so), and
article 000's 30–80× claim against what the rows support."""

from __future__ import annotations

import pytest

from engine.compare.facts import likeforlike as lfl
from engine.compare.rank import efficiency as eff
from engine.compare.words.tpu_claim import check_claim
from engine.reference.data import load_reference
from engine.reference.metrics import EFFICIENCY


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def _run(run_id: str, **extra) -> dict:
    """A finished training run's result row, as the store holds it."""
    row = {
        "run_id": run_id, "kind": "train", "status": "ok", "source": "local", "model": "resnet50",
        "dataset": "synthetic", "global_batch_size": 64, "epochs": 2, "steps_per_epoch": 10, "replicas": 1,
        "examples_per_sec": 500.0, "step_time_ms_median": 128.0, "total_s": 4.0, "device": "cpu", "device_name": "",
    }  # fmt: skip
    return row | extra


def _ref_rates(ref, *ids: str) -> list[lfl.Rate]:
    rows = ref[ref["ref_id"].isin(ids)].to_dict("records")
    return [r for r in (lfl.rate_of_reference(x) for x in rows) if r is not None]


def _one(rows: list[eff.Efficiency], rid: str) -> eff.Efficiency:
    (got,) = [e for e in rows if e.rate.id == rid]
    return got


def test_metrics_are_in_the_one_registry_with_units_and_direction():
    assert EFFICIENCY["examples_per_joule"].title == "Examples per joule (examples/J)"
    assert EFFICIENCY["examples_per_joule"].higher_is_better
    assert EFFICIENCY["usd_per_million_examples"].unit == "USD"
    assert not EFFICIENCY["usd_per_million_examples"].higher_is_better
    assert EFFICIENCY["gflops_per_watt"].unit == "GFLOP/J"


def test_a_measured_run_uses_its_measured_watts_and_its_own_price(ref):
    run = _run("r-gpu", device="gpu", device_name="NVIDIA A100-SXM4-40GB", energy_source="nvml-counter",
               avg_power_w=250.0, examples_per_joule=2.0, price_per_hour_usd=3.0)  # fmt: skip
    (rate,) = [lfl.rate_of_run(run)]
    (row,) = eff.efficiencies([rate], [run], ref)
    assert row.power is not None and row.power.basis == "measured" and row.power.watts == 250.0
    assert "nvml-counter" in row.power.how
    assert row.per_joule == pytest.approx(500.0 / 250.0)  # examples/s ÷ W = examples per joule
    assert row.usd_per_million_examples == pytest.approx(3.0 / 3600 * 1e6 / 500.0)
    assert row.price_how.startswith("user:")


def test_an_unmeasured_gpu_run_gets_a_labelled_tdp_estimate_and_the_table_price(ref):
    run = _run("r-t4", device="gpu", device_name="Tesla T4", energy_source="not measurable here")
    (row,) = eff.efficiencies([lfl.rate_of_run(run)], [run], ref)
    assert row.power is not None and row.power.basis == "estimate"
    assert row.power.watts == 70.0 and "TDP ESTIMATE, not measured (energy not measurable here)" in row.power.how
    # no price given with the run: the price table's T4 (AWS g4dn.xlarge, one GPU)
    assert row.price_usd_per_hour == 0.526 and "price table: AWS g4dn.xlarge" in row.price_how
    assert row.usd_per_million_examples == pytest.approx(0.526 / 3600 * 1e6 / 500.0)
    cpu = _run("r-cpu", energy_source="not measurable here")
    (none,) = eff.efficiencies([lfl.rate_of_run(cpu)], [cpu], ref)
    assert none.price_usd_per_hour is None and none.price_how.startswith("no price")


def test_a_cpu_run_without_energy_has_no_figure_and_says_why(ref):
    run = _run("r-cpu", energy_source="not measurable here")
    (row,) = eff.efficiencies([lfl.rate_of_run(run)], [run], ref)
    assert row.power is None and row.per_joule is None
    assert row.power_missing == "energy not measurable here"
    table = eff.frame([row])
    assert table.loc[0, "power_basis"] == "none" and table.loc[0, "power_how"] == "energy not measurable here"


def test_lambda_rows_carry_their_nominal_watts_as_an_estimate_and_the_table_price(ref):
    rows = eff.efficiencies(_ref_rates(ref, "LAMBDA-DLB-02", "LAMBDA-DLB-13"), [], ref)
    one, eight = _one(rows, "LAMBDA-DLB-02"), _one(rows, "LAMBDA-DLB-13")
    assert one.power is not None and one.power.watts == 300.0 and one.power.basis == "estimate"
    assert "nominal board power" in one.power.how and "not measured" in one.power.how
    assert one.per_joule == pytest.approx(369.0 / 300.0)
    assert eight.power is not None and eight.power.watts == 8 * 300.0
    assert eight.price_usd_per_hour == pytest.approx(8 * 3.06) and "× 8" in eight.price_how
    assert eight.usd_per_million_examples == pytest.approx(8 * 3.06 / 3600 * 1e6 / eight.rate.value)


def test_a_tpu_v3_rate_uses_the_published_power_measurement_per_chip(ref):
    rate = lfl.Rate(id="x", label="TPU v3-8", origin="reference", task="training", workload="resnet50",
                    value=2000.0, unit="examples/s", devices=8.0, derivation="measured", how="",
                    hardware_key="tpu_v3_8", device_type="tpu")  # fmt: skip
    power = eff.reference_power(rate, ref, {})
    assert power is not None and power.basis == "published" and power.watts == 4 * 220.0  # 8 cores = 4 chips
    assert "GCP-TPU-V3-DOC-04" in power.how


def test_price_table_for_a_tpu_board_and_the_users_price_first():
    rate = lfl.Rate(id="y", label="TPU v2-8", origin="reference", task="training", workload="bilstm",
                    value=21402.0, unit="examples/s", devices=8.0, derivation="measured", how="",
                    hardware_key="tpu_v2_8", device_type="tpu")  # fmt: skip
    usd, how = eff.price_for(rate)
    assert usd == 6.5 and "2018-02" in how and "seed 003" in how  # the dated default, named
    assert eff.price_for(rate, 4.5) == (4.5, "user: $4.5/h (your price)")


def test_the_claim_is_checked_against_named_rows(ref):
    rows = eff.efficiencies(_ref_rates(ref, "RISEML-2018B-02", "LAMBDA-DLB-02"), [], ref)
    check = check_claim(rows)
    tpu, v100 = _one(rows, "RISEML-2018B-02"), _one(rows, "LAMBDA-DLB-02")
    assert check.checked and check.low == pytest.approx(tpu.per_joule / v100.per_joule)
    assert "RISEML-2018B-02" in check.text and "LAMBDA-DLB-02" in check.text
    assert "below the claimed 30–80×" in check.text and "not all measured" in check.text


def test_the_claim_says_what_is_missing(ref):
    cpu = _run("r-cpu", energy_source="not measurable here")
    rows = eff.efficiencies([lfl.rate_of_run(cpu)], [cpu], ref)
    assert "cannot check it: no TPU row is chosen" in check_claim(rows).text
    tpu_only = eff.efficiencies(_ref_rates(ref, "RISEML-2018B-02"), [], ref)
    assert "no CPU or GPU row is chosen" in check_claim(tpu_only).text
    both = eff.efficiencies([lfl.rate_of_run(cpu), *_ref_rates(ref, "RISEML-2018B-02")], [cpu], ref)
    assert "no chosen CPU or GPU row has a power figure (energy not measurable here)" in check_claim(both).text


def test_peaks_are_not_efficiencies(ref):
    peak = lfl.peak_rate("a100")
    assert peak is not None and eff.efficiencies([peak], [], ref) == []


def test_history_can_rank_runs_by_dollars_per_million_examples_and_examples_per_joule():
    import pandas as pd

    from engine.results import history

    df = pd.DataFrame(
        {"device_label": ["cpu", "gpu"], "cost_usd_per_million_examples": [4.0, 1.0], "examples_per_joule": [0.5, 3.0]}
    )
    cols = history.metric_columns(df)
    assert {"cost_usd_per_million_examples", "examples_per_joule"} <= set(cols)
    assert history.metric_title("cost_usd_per_million_examples") == "Cost per million examples (USD)"
    assert history.higher_is_better("cost_usd_per_million_examples") is False
    agg = history.aggregate(df, ["device_label"], "cost_usd_per_million_examples")
    ranked = history.baseline_delta(agg, "cost_usd_per_million_examples", "cpu").set_index("group")
    assert ranked.loc["gpu", "times"] == pytest.approx(4.0) and bool(ranked.loc["gpu", "better"])  # 4× cheaper
