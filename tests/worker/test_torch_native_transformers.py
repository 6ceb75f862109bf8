"""Native PyTorch transformers (`--backend torch`, issue 23): gpt_tiny and bert_tiny train for real on the CPU,
eager and compiled, with tokens/s and the fused SDPA kernel in the row and no TensorFlow or Keras imported;
the torch.nn models have the Keras models' parameter counts; a user's torch.nn.Module runs from --model-fn,
and a build function handed to the wrong kind of backend is refused (exit 2, nothing stored)."""

from __future__ import annotations

import shutil

import pytest
import test_backend_runs
from conftest import last_json, run_cli

from engine.catalog import catalog, memory
from engine.runs.store import Store

torch = pytest.importorskip("torch")

# keras.Model.count_params() of engine.worker.transformers' models (tests/worker/test_transformer_zoo.py builds
# them; the tiny ones are rebuilt below): the torch.nn versions have the same layers, so the same counts
KERAS_PARAMS = {"gpt2_small": 124_439_808, "gpt_tiny": 544_256, "bert_base": 109_482_242, "bert_tiny": 4_385_922}
HAS_CC = bool(shutil.which("cc") or shutil.which("gcc"))


def _count(name: str) -> int:
    from engine.worker.torch_native import transformer

    info = catalog.resolve_dataset(name, "synthetic")
    with torch.device("meta"):  # shapes only: no memory, no initialisation cost
        module = getattr(transformer, name)(info.input_shape, info.num_classes)
    return sum(p.numel() for p in module.parameters())


@pytest.mark.parametrize("name", catalog.TRANSFORMERS)
def test_native_transformers_have_the_keras_parameter_counts(name):
    params = _count(name)
    assert abs(params / KERAS_PARAMS[name] - 1) < 0.01 and params == KERAS_PARAMS[name], (name, params)
    assert abs(params / memory.MODEL_SIZES[name][0] - 1) < 0.01  # the memory estimate's figure too


def test_tiny_native_counts_equal_freshly_built_keras_models():
    from engine.worker.models import build_model

    for name in ("gpt_tiny", "bert_tiny"):
        info = catalog.resolve_dataset(name, "synthetic")
        assert (
            build_model(name, info.input_shape, info.num_classes).count_params() == _count(name) == KERAS_PARAMS[name]
        )


def test_the_flop_count_includes_the_cpu_attention_kernel():
    """FlopCounterMode alone counts 0 for the CPU's flash kernel; the native counter adds it, so a GPT's count
    is within 5 % of 6·N + 12·L·T·d per token (N without the position table, as the Keras formula)."""
    from engine.worker.torch_native import attention, step, transformer

    module = transformer.gpt_tiny((128,), 1024)
    x = torch.randint(0, 1024, (2, 128))
    with attention.flop_counter() as counter:
        step.loss_of(module(x), x).backward()
    per_token = counter.get_total_flops() / (2 * 128)
    formula = 6 * (KERAS_PARAMS["gpt_tiny"] - 128 * 128) + 12 * 2 * 128 * 128
    assert abs(per_token / formula - 1) < 0.05, (per_token, formula)
    assert "fused" in attention.kernel(module, x, None)


def _run_native(db, monkeypatch, model: str, compile_on: bool) -> tuple[dict, dict]:
    probe = test_backend_runs._PROBE.replace(
        '"jax" in sys.modules}', '"jax" in sys.modules, "keras": "keras" in sys.modules}'
    )
    assert probe != test_backend_runs._PROBE
    monkeypatch.setattr(test_backend_runs, "_PROBE", probe)
    raw = {"kind": "train", "model": model, "dataset": "synthetic", "batch_size": 4, "epochs": 2}
    return test_backend_runs.run_worker(
        db, {**raw, "steps_per_epoch": 3, "backend": "torch", "torch_compile": compile_on}
    )


@pytest.mark.parametrize(
    "compile_on",
    [False, pytest.param(True, marks=pytest.mark.skipif(not HAS_CC, reason="torch.compile needs a C compiler"))],
)
@pytest.mark.parametrize("model", ["gpt_tiny", "bert_tiny"])
def test_tiny_transformers_train_natively_with_tokens_per_second(db, monkeypatch, model, compile_on):
    row, imported = _run_native(db, monkeypatch, model, compile_on)
    assert row["status"] == "ok", row["error"]
    assert imported["torch"] and not imported["tensorflow"] and not imported["keras"] and not imported["jax"]
    assert row["backend"] == "torch" and row["params"] == KERAS_PARAMS[model]
    assert row["tokens_per_sec"] == pytest.approx(row["examples_per_sec"] * 128)
    assert "tokens/s " in row["notes"] and "128 tokens per sequence" in row["notes"]
    assert "scaled_dot_product_attention → fused CPU flash-attention kernel" in row["notes"]
    assert row["gflops"] > 0 and row["mfu_pct"] > 0 and "torch FlopCounterMode" in row["flops_source"]
    assert 0 <= row["final_accuracy"] <= 1 and row["final_loss"] > 0
    if compile_on:
        assert row["matches_eager_fp32"] is True and "torch.compile" in row["notes"]
    else:
        assert row["matches_eager_fp32"] is None and "eager (--no-compile)" in row["notes"]


def test_a_torch_module_from_model_fn_runs_natively_with_its_parameters_stored(db):
    proc = run_cli(
        "run", "--backend", "torch", "--model-fn", "tests.fixtures.torch_models:build", "--batch-size", "8",
        "--epochs", "2", "--steps-per-epoch", "2", "--no-compile", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-1500:] + proc.stderr[-1500:]
    row = last_json(proc.stdout)
    assert row["status"] == "ok" and row["model"] == "TinyNet" and row["model_source"] == "function"
    stored = Store(db).get_run(row["run_id"])
    assert stored["params"] == 8 * 3 * 9 + 8 + 8 * 5 + 5 and stored["examples_per_sec"] > 0
    assert stored["model_kind"] == "conv"  # read from its modules, for Compare's estimate


@pytest.mark.parametrize(
    ("fn", "backend", "says"),
    [
        ("tests.fixtures.models:build", "torch", "returned Functional, not a torch.nn.Module"),
        ("tests.fixtures.torch_models:build", "jax", "returned TinyNet, not a keras.Model"),
    ],
)
def test_a_model_for_the_other_kind_of_backend_is_refused(db, fn, backend, says):
    proc = run_cli("run", "--backend", backend, "--model-fn", fn, "--batch-size", "8", "--steps-per-epoch", "2")
    assert proc.returncode == 2 and says in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr and Store(db).count_runs() == 0


def test_inceptionv3_is_torchvisions_and_xception_resnet152v2_stay_on_keras():
    """torchvision's inception_v3(aux_logits=False) count; Keras says 23,851,784: no BatchNorm gamma, but its
    moving mean and variance counted (17,216 BN channels: one number more per channel than torch's gamma+beta)."""
    from engine.catalog.specs import SpecError, spec_from_dict
    from engine.worker.torch_native import inception

    with torch.device("meta"):
        module = inception.inceptionv3((224, 224, 3), 1000)
    bn_channels = sum(m.num_features for m in module.modules() if isinstance(m, torch.nn.BatchNorm2d))
    assert sum(p.numel() for p in module.parameters()) == 23_834_568 == 23_851_784 - bn_channels
    small = inception.inceptionv3((75, 75, 3), 5)  # the smallest input the catalog allows
    small(torch.rand(2, 3, 75, 75)).sum().backward()
    raw = {"kind": "train", "dataset": "synthetic", "batch_size": 2, "backend": "torch"}
    assert spec_from_dict({**raw, "model": "inceptionv3"}).model == "inceptionv3"
    for name in ("xception", "resnet152v2"):
        with pytest.raises(SpecError, match="not in the native PyTorch zoo yet"):
            spec_from_dict({**raw, "model": name})
