"""Your own Keras model: a saved .keras file (two inputs) and a build function run like any zoo model, with
parameters, FLOPs and where they came from stored; a Lambda layer is refused in safe mode before anything
starts (exit 2, nothing stored)."""

from __future__ import annotations

import json

import pytest
from conftest import last_json, run_cli, save_fixture_models

from engine.runs.store import Store


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return save_fixture_models(tmp_path_factory.mktemp("user_models"), "build", "with_lambda")


@pytest.mark.parametrize("backend", ["tensorflow", "jax"])
def test_a_saved_two_input_model_runs_with_its_facts_stored(db, files, backend):
    two, _ = files
    proc = run_cli(
        "run", "--model-file", str(two), "--batch-size", "8", "--epochs", "2", "--steps-per-epoch", "3",
        "--backend", backend, "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-1500:] + proc.stderr[-1500:]
    assert "your model two_input_net: 981 parameters" in proc.stderr
    row = last_json(proc.stdout)
    assert row["status"] == "ok" and row["model"] == "two_input_net" and row["params"] == 981
    assert row["model_source"] == "file" and row["model_hash"].startswith("sha256:")
    assert row["gflops"] > 0 and row["flops_source"].startswith("counted by layer") and row["examples_per_sec"] > 0
    assert "synthetic, from the model's input specs" in row["notes"]


def test_a_lambda_layer_is_refused_in_safe_mode_and_nothing_is_stored(db, files):
    _, lam = files
    proc = run_cli("run", "--model-file", str(lam), "--batch-size", "8")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "holds a Lambda layer" in proc.stderr and "--unsafe-model-code" in proc.stderr
    assert "Traceback" not in proc.stderr and Store(db).count_runs() == 0


def test_a_build_function_runs_and_groups_by_its_source_hash(db):
    args = ("run", "--model-fn", "tests.fixtures.models:build", "--batch-size", "8", "--epochs", "2")
    first = run_cli(*args, "--steps-per-epoch", "2", "--json")
    assert first.returncode == 0, first.stdout[-1500:] + first.stderr[-1500:]
    row = last_json(first.stdout)
    assert row["status"] == "ok" and row["model"] == "two_input_net" and row["model_source"] == "function"
    # "how much faster would an H100 be" for a model nobody measured: an estimate, labelled, bounded by the
    # fastest step AccelBench measured on an accelerator (981 parameters at batch 8 is per-step overhead)
    answer = run_cli("compare", "--run", row["run_id"], "--device", "h100", "--json")
    assert answer.returncode == 0, answer.stderr[-1500:]
    out = json.loads(answer.stdout)  # compare --json prints one indented object
    assert out["basis"] == "estimate" and out["speedup"] > 0 and "An estimate, not a measurement" in out["headline"]
    # a ceiling: "up to about N× faster", or "at least about N× slower" where this CPU's step is already shorter
    ceiling = "up to about" in out["headline"] or "at least about" in out["headline"]
    assert ceiling and "per-step overhead" in out["headline"] and out["bound"] == "at most"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ("--model", "tiny_cnn", "--model-fn", "tests.fixtures.models:build"),
            "--model: give a zoo --model or your own",
        ),
        (("--model-fn", "tests.fixtures.models:not_a_model"), "returned str, not a keras.Model"),
        (("--model-fn", "tests.fixtures.nowhere:build"), "cannot import tests.fixtures.nowhere"),
        (("--model-fn", "no colon"), "must look like package.module:function"),
        (("--model-file", "missing.keras"), "must be an existing Keras 3 .keras file"),
        (("--model-fn", "tests.fixtures.models:build", "--dataset", "mnist"), "trains on synthetic data"),
    ],
)
def test_bad_user_model_requests_exit_2_with_one_line(db, args, says):
    proc = run_cli("run", *args)
    assert proc.returncode == 2 and says in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert Store(db).count_runs() == 0
