"""Issue 29 item 4: one consistent headline per device. A device AccelBench did not measure is anchored on one it
did, times the ratio of the two devices taken from ONE source that published both with one stack — never a ratio
between two stacks — so the order of devices does not flip because their figures come from different frameworks.

The case: AccelBench measured the H100 at 5,262 img/s on Keras-JAX; a PyTorch suite measured the H100 at 2,790
and the B200 at 4,400. Read raw, the B200 (4,400) would look slower than the H100 (5,262). (Lambda's real B200
figure, 3,076, sits on its H100 plateau: a pipeline-bound source whose ratio is not used, issue 36.)"""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.compare import answer as ans
from engine.reference.data import validate_records
from engine.results.schema import SCHEMA_VERSION
from engine.runs.store import Store

AB, LAMBDA = 5262.0, {"h100": 2790.0, "b200": 4400.0}
SCALED = AB * LAMBDA["b200"] / LAMBDA["h100"]

RUN = {
    "schema_version": SCHEMA_VERSION, "run_id": "20261125-120000-c0ffee", "created_at": "2026-11-25T12:00:00Z",
    "status": "ok", "source": "local", "kind": "train", "model": "resnet50", "dataset": "synthetic",
    "dtype": "float32", "precision": "mixed_bfloat16", "xla": False, "device": "cpu", "backend": "jax",
    "strategy": "default", "replicas": 1, "global_batch_size": 32, "per_replica_batch_size": 32, "epochs": 1,
    "steps_per_epoch": 3, "step_time_ms_median": 1000.0, "examples_per_sec": 32.0, "total_s": 4.0,
    "device_name": "AMD EPYC", "host_cores": 2,
}  # fmt: skip


def _row(
    ref_id: str, source_id: str, title: str, kind: str, key: str, name: str, fw: str, precision: str, value: float
):
    return {
        "ref_id": ref_id, "source_id": source_id, "source_title": title, "source_url": "", "source_kind": kind,
        "year": "2026", "origin": "shared_csv", "hardware": name, "hardware_label": name, "hardware_key": key,
        "device_type": "gpu", "hardware_count": "1", "count_unit": "gpu", "framework": fw, "task": "training",
        "model": "resnet50", "model_label": "ResNet-50", "dataset": "imagenet", "dataset_label": "synthetic",
        "data_kind": "synthetic", "batch_size": "256", "batch_scope": "global", "precision": precision,
        "metric": "images_per_s", "value": str(value), "unit": "images/s", "value_kind": "exact",
        "higher_is_better": "True", "doubtful": "False",
    }  # fmt: skip


LAMBDA_TITLE = "Lambda deeplearning-benchmark (PyTorch v2)"


def _reference(b200_framework: str = "pytorch"):
    rows = [
        _row("T-AB-H100", "T-AB", "AccelBench pack", "accelbench", "h100", "H100 80GB", "keras-jax", "mixed_bfloat16", AB),
        _row("T-L-H100", "T-LAMBDA", LAMBDA_TITLE, "benchmark-suite", "h100", "H100 SXM5", "pytorch", "mixed_float16",
             LAMBDA["h100"]),
        _row("T-L-B200", "T-LAMBDA", LAMBDA_TITLE, "benchmark-suite", "b200", "B200", b200_framework, "mixed_float16",
             LAMBDA["b200"]),
    ]  # fmt: skip
    return validate_records(rows, "test rows")


def test_the_b200_is_anchored_on_the_measured_h100_times_lambdas_own_ratio():
    a = ans.answer_for_run(RUN, _reference(), device="b200")
    assert a is not None and a.basis == "scaled"
    assert a.number == pytest.approx(SCALED / RUN["examples_per_sec"])
    assert "measured on H100 × Lambda's B200/H100 ratio" in a.headline
    assert a.evidence == "measured on H100 × Lambda's B200/H100 ratio"
    rows = {c.rate.id: c for c in a.rows}
    scaled = next(c for c in a.rows if c.rate.basis == "scaled")
    assert scaled.rate.value == pytest.approx(SCALED) and scaled.rate.hardware_key == "b200"
    assert "5,262" in scaled.rate.how and "4,400 / 2,790" in scaled.rate.how and "Lambda" in scaled.rate.how
    assert scaled.grade is not None and "scaled from another device" in scaled.grade.top
    # Lambda's own B200 figure is listed beside it, its stack named
    beside = rows["T-L-B200"]
    assert beside.rate.basis == "published" and beside.rate.label == "B200 (published, PyTorch, mixed fp16)"
    assert beside.rate.value == LAMBDA["b200"]
    out = ans.to_json(a)
    assert out["basis"] == "scaled" and out["evidence"].startswith("measured on H100")


def test_the_order_of_devices_does_not_flip_with_the_stack():
    a = ans.answer_for_run(RUN, _reference())
    assert a is not None
    best = {}
    for c in a.rows[1:]:  # the headline figure per device: the best evidence (measured, then scaled)
        if c.rate.basis in ("measured", "scaled"):
            best.setdefault(c.rate.hardware_key, c.rate.value)
    assert best["b200"] == pytest.approx(SCALED) and best["h100"] == AB
    assert best["b200"] > best["h100"]  # raw, the suite's 4,400 would put the B200 below AccelBench's 5,262
    order = [c.rate.id for c in a.rows[1:]]
    assert order.index(next(i for i in order if i.startswith("scaled:b200"))) < order.index("T-AB-H100")
    assert "one H100 80GB (mixed bf16, measured by AccelBench)" in a.headline
    assert "one B200 (mixed bf16, measured on H100 × Lambda's B200/H100 ratio)" in a.headline


def test_never_a_ratio_between_two_stacks():
    """Lambda's H100 row on PyTorch and a B200 row on TensorFlow: no ratio; the B200's own figure is listed beside
    the scale (another stack's), and the answer is the one "Which device?" ranks: the step model from the measured
    H100 (issue 45: one answer per screen)."""
    a = ans.answer_for_run(RUN, _reference(b200_framework="tensorflow"), device="b200")
    assert a is not None and a.basis == "estimate"
    assert not any(c.rate.basis == "scaled" for c in a.rows)
    (published,) = [c for c in a.rows if c.rate.basis == "published"]
    assert published.rate.settings["scale_role"] == "beside" and "TF" in published.rate.settings["beside_why"]


def test_cli_json_says_scaled_and_the_help_documents_every_basis(db, capsys):
    Store(db).insert_run(RUN)
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for word in ("measured", "scaled", "published", "estimate", "peak"):
        assert word in help_text
    assert main(["compare", "--run", RUN["run_id"], "--device", "b200", "--reference", "auto", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # the real table: B200 is scaled once it holds Lambda's v2 rows
    assert out["basis"] in ("scaled", "published", "estimate")


def test_the_real_table_keeps_devices_in_order_once_it_holds_one_source_of_both(ref):
    """The curated table: Lambda published the B200 and the H100 on ResNet-50 with one stack, but at mixed
    precision its figures sit on one plateau from H100 to B200 (pipeline-bound, issue 36): the B200's headline
    is not scaled by that ratio nor Lambda's own figure; it falls to the step model from a measured device and
    still comes out above the H100."""
    same = ref[(ref["model"] == "resnet50") & (ref["task"] == "training") & (ref["hardware_count"] == 1)]
    sources = set(same[same["hardware_key"] == "b200"]["source_id"]) & set(
        same[same["hardware_key"] == "h100"]["source_id"]
    )
    if not sources:
        pytest.skip("the curated table has no source with both a B200 and an H100 ResNet-50 figure yet")
    a = ans.answer_for_run(RUN, ref)
    assert a is not None
    best: dict[str, float] = {}
    for c in a.rows[1:]:
        if c.rate.basis in ("measured", "scaled", "estimate") and c.one is not None:
            best.setdefault(c.rate.hardware_key, c.one.value)
    assert best["b200"] > best["h100"]
    b200 = ans.answer_for_run(RUN, ref, device="b200")
    assert b200 is not None and b200.basis in ("scaled", "estimate") and "Lambda" not in b200.evidence
    assert any(f"on an {d} (" in b200.headline or f"measured on {d} ×" in b200.headline for d in ("H100", "H200"))
    flagged = [c for c in b200.rows if c.rate.settings.get("saturated")]  # Lambda's own figure: flagged, beside
    assert flagged and all(c.rate.doubtful and "pipeline-bound" in c.rate.doubt_reason for c in flagged)
    assert all(any("pipeline-bound" in d for d in c.grade.details) for c in flagged if c.grade)  # on Compare
