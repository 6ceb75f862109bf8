"""Validation: every bad field is refused with one line naming it, before TensorFlow is imported."""

from __future__ import annotations

import pytest

from engine.catalog.specs import MicroSpec, SpecError, TrainSpec, spec_from_dict, spec_to_dict


def test_defaults_round_trip():
    for spec in (MicroSpec(), TrainSpec()):
        assert spec_from_dict(spec_to_dict(spec)) == spec


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"kind": "matmul", "m": 0}, "--m"),
        ({"kind": "matmul", "m": -5}, "--m"),
        ({"kind": "matmul", "m": 2.5}, "--m"),
        ({"kind": "matmul", "n": "many"}, "--n"),
        ({"kind": "matmul", "dtype": "float64"}, "--dtype"),
        ({"kind": "matmul", "device": "npu"}, "--device"),
        ({"kind": "matmul", "repeats": 0}, "--repeats"),
        ({"kind": "matmul", "m": 100000, "n": 100000, "k": 1}, "--m/--n"),
        ({"kind": "matmul", "timeout_s": float("nan")}, "--timeout-s"),
        ({"kind": "matmul", "xla": "maybe"}, "--xla"),
        ({"kind": "matmul", "colour": "red"}, "--colour"),
        ({"kind": "conv2d", "kernel_size": 300, "height": 256, "width": 256}, "--kernel-size"),
        ({"kind": "fft"}, "--bench"),
        ({"kind": "train", "model": "gpt5"}, "--model"),
        ({"kind": "train", "model": "fashion_cnn", "dataset": "imdb"}, "--dataset"),
        ({"kind": "train", "model": "xception", "dataset": "cifar10"}, "--dataset"),
        ({"kind": "train", "model": "vgg19", "dataset": "flowers"}, "--data-dir"),
        ({"kind": "train", "batch_size": 255, "logical_devices": 2}, "--batch-size"),
        ({"kind": "train", "strategy": "mirrored"}, "--strategy"),
        ({"kind": "train", "strategy": "tpu"}, "--strategy"),
        ({"kind": "train", "device": "tpu", "precision": "mixed_float16"}, "--precision"),
        ({"kind": "train", "logical_devices": 2, "strategy": "one_device"}, "--logical-devices"),
        ({"kind": "train", "memory_growth": True}, "--device"),
        ({"kind": "train", "device": "gpu", "visible_devices": "0;1"}, "--visible-devices"),
        ({"kind": "train", "epochs": 0}, "--epochs"),
        ({"kind": "train", "precision": "fp8"}, "--precision"),
    ],
)
def test_bad_field_is_named(raw, field):
    with pytest.raises(SpecError) as err:
        spec_from_dict(raw)
    assert err.value.field == field
    assert "\n" not in str(err.value)


def test_batch_must_divide_across_gpus():
    with pytest.raises(SpecError, match="does not divide across 4 replicas"):
        spec_from_dict({"kind": "train", "device": "gpu", "batch_size": 30}, gpu_count=4)
    spec = spec_from_dict({"kind": "train", "device": "gpu", "batch_size": 32}, gpu_count=4)
    assert spec.batch_size == 32


def test_mirrored_over_logical_cpus_is_allowed():
    spec = spec_from_dict({"kind": "train", "logical_devices": 2, "batch_size": 64})
    assert spec.logical_devices == 2 and spec.strategy == "auto"


def test_a_relative_data_dir_is_the_users_folder_not_the_workers(tmp_path, monkeypatch):
    """The worker starts in the repository (or the package's) folder: `data sample --out flowers` then
    `run --data-dir flowers` must read the user's ./flowers, so the spec holds it absolute; gs:// stays as given."""
    monkeypatch.chdir(tmp_path)
    raw = {"kind": "train", "model": "flowers_cnn", "dataset": "flowers", "data_dir": "flowers"}
    assert spec_from_dict(raw).data_dir == str(tmp_path / "flowers")
    assert spec_from_dict({**raw, "data_dir": "gs://bucket/flowers"}).data_dir == "gs://bucket/flowers"
