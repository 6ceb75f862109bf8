"""Native PyTorch (`--backend torch`, issue 23): real tiny runs on the CPU end ok with the same columns as
every backend, never import TensorFlow or Keras, and a compiled or mixed-precision run says whether its first
step matched eager float32 — and says so when a perturbed path does not."""

from __future__ import annotations

import shutil

import pytest
from test_backend_runs import TINY_TRAIN, run_worker

from engine.catalog.specs import SpecError, spec_from_dict

pytest.importorskip("torch")
COLUMNS = (
    "examples_per_sec",
    "examples_per_sec_windowed",
    "examples_per_sec_step_synced",
    "examples_per_sec_epoch",
    "time_to_first_step_s",
    "first_epoch_s",
    "step_time_ms_median",
    "gflops",
    "mfu_pct",
    "final_loss",
)


def _ok(row: dict) -> None:
    assert row["status"] == "ok", row["error"]
    assert row["backend"] == "torch" and row["framework_version"].startswith("torch ")
    assert row["keras_version"] is None and row["tf_version"] is None and row["devices_used"] == "cpu:0"
    for key in COLUMNS:
        assert row[key] is not None and row[key] > 0, key
    assert row["examples_per_sec"] == row["examples_per_sec_windowed"]
    assert "torch FlopCounterMode" in row["flops_source"]


def test_eager_native_run_is_ok_without_tensorflow_or_keras(db):
    raw = {**TINY_TRAIN, "steps_per_epoch": 4, "backend": "torch", "torch_compile": False}
    row, imported = run_worker(db, raw)
    _ok(row)
    assert imported["torch"] and not imported["tensorflow"] and not imported["jax"]  # no Keras: Keras pulls JAX
    assert "eager (--no-compile)" in row["notes"] and row["matches_eager_fp32"] is None
    assert "channels_last" in row["notes"] and "not needed" in row["notes"]


def test_a_text_model_with_validation_trains_natively(db):
    raw = {"kind": "train", "model": "reuters_conv1d", "dataset": "synthetic", "batch_size": 4, "epochs": 2}
    row, _ = run_worker(
        db, {**raw, "steps_per_epoch": 2, "backend": "torch", "torch_compile": False, "validation_steps": 1}
    )
    _ok(row)
    assert row["val_accuracy"] is not None and "contiguous" in row["notes"]


@pytest.mark.skipif(not shutil.which("cc") and not shutil.which("gcc"), reason="torch.compile needs a C compiler")
def test_compiled_bf16_run_matches_eager_float32(db):
    raw = {**TINY_TRAIN, "steps_per_epoch": 4, "backend": "torch", "precision": "mixed_bfloat16"}
    row, _ = run_worker(db, raw)
    _ok(row)
    assert "torch.compile" in row["notes"] and row["matches_eager_fp32"] is True
    assert "correctness vs eager float32 on one batch (torch.compile, mixed_bfloat16): matched" in row["notes"]
    # compile lands in time to first step, not in the steady windows
    assert row["time_to_first_step_s"] > 5 * row["step_time_ms_median"] / 1000


def test_a_path_that_changes_the_maths_is_reported_as_not_matching(db, monkeypatch):
    monkeypatch.setenv("ACCELBENCH_TEST_PERTURB_CHECK", "0.2")  # the checked path's outputs × 1.2
    raw = {**TINY_TRAIN, "steps_per_epoch": 2, "backend": "torch", "torch_compile": False}
    row, _ = run_worker(db, {**raw, "precision": "mixed_bfloat16"})
    assert row["status"] == "ok", row["error"]
    assert row["matches_eager_fp32"] is False and "DID NOT MATCH" in row["notes"]


@pytest.mark.parametrize(
    ("raw", "flag"),
    [
        ({"model": "xception"}, "--model"),
        ({"xla": True}, "--xla"),
        ({"torch_compile": False, "backend": "jax"}, "--no-compile"),
        ({"strategy": "mirrored"}, "--strategy"),
        ({"strategy": "mirrored", "logical_devices": 2}, "--logical-devices"),  # the message points to --processes
    ],
)
def test_native_torch_refusals_name_their_flag(raw, flag):
    with pytest.raises(SpecError) as err:
        spec_from_dict({**TINY_TRAIN, "backend": "torch", **raw})
    assert err.value.field == flag


def test_the_result_card_says_when_a_backend_is_known_to_be_slow_for_the_op():
    from engine.results.backend_text import backend_lines

    assert "XLA's CPU convolutions" in backend_lines({"backend": "jax", "device": "cpu", "model": "fashion_cnn"})[-1]
    assert not any(
        "Known slow" in x for x in backend_lines({"backend": "jax", "device": "gpu", "model": "fashion_cnn"})
    )


def test_a_jax_gpu_matmul_card_states_the_measured_gap_and_its_likely_cause():
    from engine.results.backend_text import backend_lines

    line = backend_lines({"backend": "jax", "device": "gpu", "model": "matmul"})[-1]
    assert "669 TFLOP/s" in line and "round trip" in line and "not yet re-measured" in line
    assert not any("Known gap" in x for x in backend_lines({"backend": "torch", "device": "gpu", "model": "matmul"}))
