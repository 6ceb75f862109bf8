"""A memory estimate before launch: a run that cannot fit is refused, exit 2 (issue 15, class 7)."""

from __future__ import annotations

from collections import namedtuple

import pytest

from engine.catalog.memory import estimate_bytes
from engine.catalog.specs import SpecError, spec_from_dict
from engine.cli import main
from engine.runs import hardware, jobs

VM = namedtuple("VM", "total available")


@pytest.fixture
def small_host(monkeypatch):
    monkeypatch.setattr("psutil.virtual_memory", lambda: VM(2 * 2**30, 1 * 2**30))


def test_the_estimate_grows_with_the_work():
    small = estimate_bytes(spec_from_dict({"kind": "matmul", "m": 512, "n": 512, "k": 512}))
    big = estimate_bytes(spec_from_dict({"kind": "matmul", "m": 50_000, "n": 50_000, "k": 50_000}))
    assert big > 2 * 50_000**2 * 4 > small
    t1 = estimate_bytes(
        spec_from_dict({"kind": "train", "model": "resnet50", "dataset": "synthetic", "batch_size": 32})
    )
    t2 = estimate_bytes(
        spec_from_dict({"kind": "train", "model": "resnet50", "dataset": "synthetic", "batch_size": 512})
    )
    assert t2 > t1


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"kind": "matmul", "m": 40_000, "n": 40_000, "k": 40_000}, "--m/--n/--k"),
        (
            {"kind": "conv2d", "batch_size": 512, "height": 256, "width": 256, "channels": 64, "filters": 64},
            "--batch-size",
        ),
        ({"kind": "train", "model": "resnet152v2", "dataset": "synthetic", "batch_size": 256}, "--batch-size"),
    ],
)
def test_a_run_that_cannot_fit_the_host_is_refused_naming_estimate_and_limit(db, small_host, raw, field):
    with pytest.raises(SpecError) as info:
        jobs.prepare(raw, demo=False)
    assert info.value.field == field
    assert "needs about" in info.value.message and "1.0 GB available" in info.value.message


def test_a_small_run_still_fits(db, small_host):
    jobs.prepare({"kind": "matmul", "m": 256, "n": 256, "k": 256}, demo=False)


def test_a_gpu_run_is_checked_against_the_gpu(db, monkeypatch):
    acc = hardware.Accelerators(gpus=(hardware.GpuInfo(0, "Small GPU", 1024.0, "550"),))
    monkeypatch.setattr(hardware, "detect_accelerators", lambda: acc)
    with pytest.raises(SpecError, match="of GPU memory"):
        jobs.prepare({"kind": "matmul", "m": 20_000, "n": 20_000, "k": 20_000, "device": "gpu"}, demo=False)


def test_cli_refuses_with_exit_2_and_one_line(db, small_host, capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", "--bench", "matmul", "--m", "40000", "--n", "40000", "--k", "40000"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "needs about" in err[0] and "available" in err[0]
