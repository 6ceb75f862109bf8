"""Issue 23's "done when": the same model trained for real on native PyTorch, Keras on the torch backend and
Keras-JAX (tiny steps on this CPU), then Compare shows the three side by side as one workload — one ratio per
row, each labelled by its framework, none sent to "Other workloads"."""

from __future__ import annotations

import pytest
from conftest import run_cli
from page_helpers import no_exception, page

from engine.runs.store import Store

TRAIN = ("run", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "16", "--epochs", "2",
         "--steps-per-epoch", "3", "--json")  # fmt: skip
BACKENDS = {"torch": ("--no-compile",), "keras-torch": (), "jax": ()}


@pytest.fixture(scope="module")
def three_backends(tmp_path_factory):
    db = tmp_path_factory.mktemp("backends") / "results.db"
    for backend, extra in BACKENDS.items():
        proc = run_cli(*TRAIN, "--backend", backend, *extra, env={"ACCELBENCH_DB": str(db)})
        assert proc.returncode == 0, proc.stderr[-2000:]
    return db, {r["backend"]: r["run_id"] for r in Store(db).list_runs()}


def test_compare_shows_native_pytorch_beside_keras_torch_and_jax_for_the_same_model(three_backends, monkeypatch):
    db, ids = three_backends
    assert set(ids) == set(BACKENDS)
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = page("compare")
    at.run()
    at.multiselect(key="cmp_runs").set_value([ids["torch"], ids["keras-torch"], ids["jax"]]).run()
    no_exception(at)
    (table,) = [d.value for d in at.dataframe if "Like for like" in d.value.columns]
    mine = table[table["Row"].str.startswith("this CPU (")]
    labels = " | ".join(mine["Row"])
    assert len(mine) == 3, labels
    for framework in ("(PyTorch, ", "(Keras-torch, ", "(JAX, "):
        assert framework in labels, labels
    assert mine["× faster"].notna().all() and (mine["× faster"] > 0).all()
    # what differs is the framework, named beside the ratio; the model never is (same workload)
    assert all("pytorch" in d or "keras-torch" in d for d in mine["What differs most"][1:]), mine["What differs most"]
    others = [e for e in at.expander if e.label.startswith("Other workloads")]
    assert not any("this CPU" in " ".join(str(m.value) for m in e.markdown) for e in others)
    # an estimate for another device says it is one, not that a source left the batch out
    estimates = table[table["Basis"] == "ESTIMATE"]
    assert len(estimates) and all(d.startswith("estimated, not measured") for d in estimates["What differs most"])
