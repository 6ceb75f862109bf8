"""Runtimes that lack a framework (issue 45), as real venvs linking this one's packages minus some
(runtime_without): JAX with neither Keras nor TensorFlow nor PyTorch runs a matmul; without TensorFlow
`data sample` writes the folder layout (saying so) and a TFRecord request is one line naming the install."""

from __future__ import annotations

import json

import pytest
from runtime_without import run_engine, runtime_without

from engine.catalog.backends import INFO
from engine.catalog.framework_support import pillow_install_command


@pytest.fixture(scope="module")
def bare_jax(tmp_path_factory):
    return runtime_without(tmp_path_factory.mktemp("bare"), "keras", "tensorflow", "tensorboard", "torch")


@pytest.mark.parametrize("named", [False, True])
def test_jax_without_keras_runs_matmul(bare_jax, db, named):
    backend = ("--backend", "jax") if named else ()
    done = run_engine(bare_jax, "run", "--bench", "matmul", *backend, "--m", "64", "--n", "64", "--k", "64",
                      "--repeats", "3", "--warmup", "1", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    row = json.loads(done.stdout.strip().splitlines()[-1])
    assert row["status"] == "ok" and row["backend"] == "jax" and row["gflops"] > 0
    assert row["keras_version"] is None and row["framework_version"].startswith("jax ")
    assert ("running on JAX" in done.stderr) != named and "Keras" not in done.stderr


def test_without_tensorflow_data_sample_writes_the_folder_layout(bare_jax, tmp_path):
    done = run_engine(bare_jax, "data", "sample", "flowers", "--out", str(tmp_path / "set"), "--examples", "5")
    assert done.returncode == 0, done.stderr[-3000:]
    assert (
        done.stderr.strip()
        == "accelbench: TensorFlow is not installed here: writing the folder layout (--layout picks)"
    )
    assert sorted(p.parent.name for p in (tmp_path / "set").glob("*/*.jpg")) == [
        "daisy", "dandelion", "roses", "sunflowers", "tulips"
    ]  # fmt: skip
    asked = run_engine(bare_jax, "data", "sample", "flowers", "--out", str(tmp_path / "tf"), "--examples", "5",
                       "--layout", "tfrecord")  # fmt: skip
    assert asked.returncode == 2 and asked.stderr.strip().splitlines() == [
        "accelbench: error: --layout tfrecord: writing TFRecords needs TensorFlow; use --layout folder (every "
        f"backend reads it), or install it with: {INFO['tensorflow'].install}"
    ]
    assert not (tmp_path / "tf").exists()


def test_without_pillow_jpegs_are_refused_in_one_line_naming_the_install(tmp_path, db):
    python = runtime_without(tmp_path, "PIL", "pillow", "tensorflow", "torch")
    runs = run_engine(python, "run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(tmp_path))
    assert runs.returncode == 2 and runs.stderr.strip().splitlines()[-1] == (
        "accelbench: error: --dataset: flowers JPEGs are decoded by Pillow on --backend jax, which is not installed "
        f"here; install it with: {pillow_install_command('jax')}"
    )
    sample = run_engine(python, "data", "sample", "flowers", "--out", str(tmp_path / "set"), "--examples", "5")
    assert sample.returncode == 2 and sample.stderr.strip().splitlines() == [
        f"accelbench: error: writing JPEGs needs Pillow, which is not installed here; install it with: {pillow_install_command()}"
    ]
    assert not (tmp_path / "set").exists()
