"""One answer per screen (issue 45): the Compare box and its table, `compare --device X` and "Which device?" read
one pipeline, so a device has one figure wherever it is shown — the same rate, range and bound."""

from __future__ import annotations

import pytest

from engine.compare.answer import answer_for_run
from engine.compare.which import per_chip, which_device
from engine.reference.data import load_reference


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def _run(model: str, batch: int, eps: float, backend: str = "torch") -> dict:
    return {
        "run_id": "20261128-000000-one", "kind": "train", "model": model, "dataset": "synthetic", "device": "cpu",
        "backend": backend, "precision": "float32", "global_batch_size": batch, "epochs": 2, "steps_per_epoch": 10,
        "examples_per_sec": eps, "step_time_ms_median": batch / eps * 1000, "replicas": 1, "status": "ok",
    }  # fmt: skip


def _box(run: dict, ref, device: str | None = None) -> dict[str, tuple[float, float | None, float | None, str]]:
    a = answer_for_run(run, ref, device=device)
    assert a is not None
    out = {}
    for c in a.rows[1:]:
        if c.one is None or c.rate.origin == "peak" or c.rate.settings.get("scale_role") == "beside":
            continue
        one = per_chip(c.one)
        out[one.hardware_key] = (one.value, one.low, one.high, one.bound or "exact")
    return out


CASES = [("reuters_conv1d", 32, 1500.0), ("reuters_conv1d", 256, 3000.0), ("resnet50", 16, 9.0)]


@pytest.mark.parametrize(("model", "batch", "eps"), CASES)
def test_the_box_and_which_device_agree_row_for_row(ref, model, batch, eps):
    run = _run(model, batch, eps)
    which = which_device(run, ref)
    assert which is not None
    ranked = {r.hardware_key: (r.rate_one_device, r.low, r.high, r.bound) for r in which.rows}
    box = _box(run, ref)
    assert {"t4", "h100", "b200"} <= set(box)
    assert any(k.startswith("tpu_v6e") for k in box)  # a TPU row too (the TPU chain is in the one pipeline)
    for key, row in box.items():
        assert key in ranked, f"{key}: in the box, not in 'Which device?'"
        for got, want in zip(row[:3], ranked[key][:3], strict=True):  # same rate and range
            assert (got is None and want is None) or got == pytest.approx(want, rel=1e-9), (key, row, ranked[key])
        assert row[3] == ranked[key][3], key  # and bound ("at most" shown as such on both)


@pytest.mark.parametrize(("model", "batch", "eps"), CASES[:1])
def test_compare_device_x_gives_the_which_device_row(ref, model, batch, eps):
    run = _run(model, batch, eps)
    which = which_device(run, ref)
    assert which is not None
    ranked = {r.hardware_key: r.rate_one_device for r in which.rows}
    for key in ("t4", "b200", "tpu_v5e"):
        (got,) = [v for k, v in _box(run, ref, device=key).items() if k == key]
        assert got[0] == pytest.approx(ranked[key], rel=1e-9), key
