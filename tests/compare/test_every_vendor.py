"""Right on every vendor (issue 42 items 2 and 3): AMD and TPU estimates carry their stack's factor beside CUDA,
learned from same-round MLPerf pairs and shown in the row's basis; the TPU chips keep their order for every zoo
model (the TPU law of the model's kind where it has no TPU pair); a larger family member's same-source ratio enters
with its family term (BERT-large's L40S/H100 for BERT-base)."""

from __future__ import annotations

import re

import pytest
from test_which_device import R50

from engine.catalog import catalog
from engine.compare import which as wd
from engine.compare.estimate.points import evidence_points
from engine.compare.estimate.stack_factor import cross_vendor_pairs, estimates_on_stacks
from engine.compare.facts import likeforlike as lfl
from engine.compare.scale.family_check import check_families
from engine.compare.scale.scaled import FAMILY_MARGIN


@pytest.fixture(scope="module")
def rates(ref):
    return [r for r in (lfl.rate_of_reference(x) for x in ref[ref["task"] == "training"].to_dict("records")) if r]


def _which(ref, model: str, precision: str, backend: str = "tensorflow") -> dict[str, wd.DeviceRow]:
    w = wd.which_device({**R50, "model": model, "precision": precision, "backend": backend}, ref)
    assert w is not None
    return {r.hardware_key: r for r in w.rows}


def test_the_pairs_are_same_round_and_cross_vendor(rates):
    pairs = cross_vendor_pairs(rates)
    assert {x.hardware_key for x, _, _ in pairs} >= {"mi300x", "mi325x", "tpu_v5p", "tpu_v6e"}
    for x, y, rnd in pairs:
        assert rnd in str(x.settings["source_title"]) and rnd in str(y.settings["source_title"])
        assert x.workload == y.workload and x.precision_class == y.precision_class
        assert not re.search(r"MLPerf Training v(5\.[1-9]|[6-9])", rnd), "later rounds are the hold-out"
    # MosaicML's one-stack MPT-7B figures pair the MI250 (CDNA 2) with the A100s: a second AMD silicon
    assert {y.hardware_key for x, y, rnd in pairs if x.hardware_key == "mi250"} == {"a100", "a100_80gb"}


def test_amd_and_tpu_rows_rest_on_a_stack_factor_in_their_basis(ref):
    for model in ("resnet50", "bert_base"):
        rows = _which(ref, model, "mixed_bfloat16")
        for key, stack in (("mi300x", "ROCm"), ("tpu_v6e", "XLA on TPU")):
            r = rows[key]
            up = rows.get(r.anchor or "")
            root = up if up is not None and up.device_type == "tpu" and r.anchor != key else r  # from the root TPU
            assert f"{stack} stack factor" in root.ratio_source, (model, key, root.ratio_source)
            assert "same-round pair" in root.how
        assert rows["mi300x"].error_case.startswith("another vendor's stack (ROCm)"), rows["mi300x"].error_case
        # the factor pulls AMD back to what MLPerf saw: an MI300X about an H100, not 1.3×
        assert 0.8 < rows["mi300x"].rate_one_device / rows["h100"].rate_one_device < 1.2, model


def test_a_vendors_factor_is_of_the_runs_work_and_its_chips_are_estimated_without_its_own_figures(ref, rates):
    """AMD's factor is below one on every model (ROCm reached less of the MI300X's modelled speed than CUDA did);
    Google's depends on the work: above one on ResNet-50 (TensorFlow on TPU v3/v4 in MLPerf v0.7), below on a
    GPT decoder (MaxText's int8 GPT-3 in v4.1) — each from the vendor's pairs of that model or its family."""
    groups, _ = evidence_points(rates, [], None)
    es, took = estimates_on_stacks("resnet50", ["h100", "mi300x", "tpu_v5e"], "mixed", groups, rates, None,
                                   kind="conv")  # fmt: skip
    assert {e.hardware_key for e in es} == {"h100", "mi300x", "tpu_v5e"}
    assert set(took) == {"mi300x", "tpu_v5e"} and "h100" not in took
    assert all(f.low <= f.factor <= f.high for f in took.values())
    assert took["mi300x"].vendor == "amd" and took["mi300x"].factor < 1 and took["mi300x"].on == ""  # no conv pair
    assert took["tpu_v5e"].vendor == "google" and took["tpu_v5e"].factor > 1 and took["tpu_v5e"].on == "on resnet50"
    _, gpt = estimates_on_stacks("gpt2_small", ["tpu_v5e"], "mixed", groups, rates, None, kind="transformer")
    assert gpt["tpu_v5e"].factor < 1 and gpt["tpu_v5e"].on == "on its family (gpt3_175b)"


@pytest.mark.parametrize("precision", ["mixed_bfloat16", "float32"])
def test_tpu_chips_keep_their_order_for_every_zoo_model(ref, precision):
    for model in catalog.MODEL_NAMES:
        rows = _which(ref, model, precision)
        got = [rows[k].rate_one_device for k in ("tpu_v6e", "tpu_v5p", "tpu_v4", "tpu_v3")]
        assert got == sorted(got, reverse=True), (model, precision, got)


def test_bert_base_l40s_takes_bert_larges_mlperf_ratio_as_a_family_transfer(ref):
    rows = _which(ref, "bert_base", "mixed_bfloat16")
    l40s = rows["l40s"]
    assert "family transfer from bert_large" in l40s.ratio_source and l40s.basis == "scaled"
    # MLPerf v4.0's same-round L40S and H100 BERT-large give 0.128 per GPU
    assert 0.11 < l40s.rate_one_device / rows["h100"].rate_one_device < 0.16
    assert l40s.low is not None and l40s.high is not None and l40s.high / l40s.low >= (1 + FAMILY_MARGIN) ** 2 * 0.99


def test_the_family_margin_is_the_checks_own(rates):
    got = check_families(rates)
    assert got is not None and got.n >= 20
    assert pytest.approx(got.p80_error_pct / 100, abs=0.01) == FAMILY_MARGIN


def test_8bit_training_rows_are_labelled_and_never_pipeline_bound_for_being_fast(rates):
    """Google's GPT-3 slices of MLPerf v4.1 train in int8 (AQT): labelled so from their launch scripts, they sit
    within 10 % of each other on chips 2× apart — at 8-bit peaks the plateau rule does not see, and on slices 4×
    apart in size — so the rule must not call them pipeline-bound (issue 42 item 6)."""
    from engine.compare.evidence.saturation import saturated

    gpt3 = [r for r in rates if r.workload == "gpt3_175b" and r.device_type == "tpu"]
    assert gpt3 and all(r.precision == "int8" for r in gpt3)
    flagged = saturated(rates)
    assert not [r.id for r in gpt3 if r.id in flagged]
    assert flagged, "the rule still flags a real plateau (Lambda's ResNet-50 on Hopper)"


def test_round_v07_pairs_tpu_v3_and_v4_with_a100_and_v100_on_resnet_and_bert(rates):
    """MLPerf Training v0.7 ran ResNet-50 and BERT on NVIDIA's 8-GPU DGX systems and Google's small TPU v3/v4 slices:
    Google's factor rests on eight such pairs besides the three int8 GPT-3 ones."""
    v07 = {(x.hardware_key, y.hardware_key, x.workload) for x, y, rnd in cross_vendor_pairs(rates) if rnd.endswith("v0.7")}
    assert v07 == {(t, g, m) for t in ("tpu_v3", "tpu_v4") for g in ("a100", "v100") for m in ("resnet50", "bert_large")}


@pytest.mark.parametrize("backend", ["tensorflow", "jax", "torch"])
def test_a_tpu_row_takes_the_factor_of_the_runs_model_whatever_its_framework(ref, backend):
    """A stack's share of its peak depends on the work more than on the framework over XLA: TPU v4 / A100 on
    ResNet-50 is what MLPerf v0.7 measured on both (3,478 / 2,816 = 1.235) for a TensorFlow, JAX or PyTorch run, and
    on BERT-base the ratio of BERT-large's pairs (137 / 128.6 = 1.07)."""
    for model, measured in (("resnet50", 3478 / 2816), ("bert_base", 137 / 128.6)):
        rows = _which(ref, model, "mixed_bfloat16", backend)
        tpu = rows["tpu_v4"]
        on = "on resnet50" if model == "resnet50" else "on its family (bert_large)"
        assert f"same-round pairs {on}" in tpu.how, tpu.how
        assert rows["tpu_v4"].rate_one_device / rows["a100"].rate_one_device == pytest.approx(measured, rel=0.15)


def test_a_float32_run_is_costed_at_the_peak_its_stack_runs_by_default():
    """float32 is TF32 where the stack makes it the default (CUDA on Ampere and later) and FP32 on ROCm, where TF32
    is opt-in (pytorch/pytorch#190711, #139869): an MI300X's float32 run at its 163 TFLOP/s FP32 matrix peak, not its
    654 TF32 one; CDNA 4 has no TF32 at all."""
    from engine.compare.facts.silicon import DEVICES

    assert DEVICES["h100"].peak_flops["float32"] == pytest.approx(494.7e12)  # TF32, dense
    assert DEVICES["mi300x"].peak_flops["float32"] == pytest.approx(163.4e12)
    assert DEVICES["mi325x"].peak_flops["float32"] == pytest.approx(163.4e12)
    assert DEVICES["mi355x"].peak_flops["float32"] == pytest.approx(157.3e12)
    assert DEVICES["mi300x"].peak_flops["mixed"] == pytest.approx(1307.4e12)  # bf16 unchanged
