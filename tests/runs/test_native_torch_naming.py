"""`torch` is native PyTorch from schema_version 2 on; before, it meant Keras on the torch backend. An old
database (migration 0006) and an old export (read-time mapping) keep meaning Keras-torch, and Compare's
labels tell the two apart."""

from __future__ import annotations

import sqlite3

from conftest import ROOT

from engine.catalog import backends
from engine.compare.facts import likeforlike
from engine.reference.normalize import local_settings
from engine.results import csvio
from engine.runs.store import Store

H100_CSV = ROOT / "data" / "history" / "h100_gpu_check_2026-11-23.csv"


def test_an_old_database_keeps_its_torch_rows_as_keras_torch(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE runs (schema_version INTEGER, run_id TEXT PRIMARY KEY, status TEXT, kind TEXT, backend TEXT)"
        )
        conn.execute("INSERT INTO runs VALUES (1, 'old', 'ok', 'train', 'torch')")
        conn.execute("INSERT INTO runs VALUES (1, 'jax', 'ok', 'train', 'jax')")
    store = Store(path)
    assert store.get_run("old")["backend"] == "keras-torch"
    assert store.get_run("jax")["backend"] == "jax"
    store.insert_run({"run_id": "new", "status": "ok", "kind": "train", "backend": "torch"})
    row = store.get_run("new")
    assert row["backend"] == "torch" and row["schema_version"] == 2
    assert Store(path).get_run("new")["backend"] == "torch"  # opening again migrates nothing twice


def test_an_old_export_reads_torch_as_keras_torch_and_a_new_one_as_native():
    df = csvio.read_export(H100_CSV.read_bytes())
    assert set(df["backend"]) == {"jax", "keras-torch"}
    text = H100_CSV.read_text().splitlines()
    header, first = text[0], text[1].split(",")
    first[0] = "2"
    first[header.split(",").index("backend")] = "torch"
    new = csvio.read_export("\n".join([header, ",".join(first)]) + "\n")
    assert list(new["backend"]) == ["torch"]


def test_labels_and_frameworks_tell_native_pytorch_from_keras_torch():
    assert backends.short_label("torch") == "PyTorch" and backends.short_label("keras-torch") == "Keras-torch"
    assert backends.INFO["torch"].label == "PyTorch" and backends.INFO["keras-torch"].label == "Keras-torch"
    assert backends.FRAMEWORK_OF["torch"] == "pytorch" and backends.FRAMEWORK_OF["keras-torch"] == "keras-torch"
    base = {"kind": "train", "model": "resnet50", "device": "gpu", "precision": "mixed_bfloat16", "status": "ok"}
    native = likeforlike.rate_of_run({**base, "backend": "torch", "examples_per_sec": 2000.0, "global_batch_size": 256})
    keras_torch = likeforlike.rate_of_run(
        {**base, "backend": "keras-torch", "examples_per_sec": 700.0, "global_batch_size": 256}
    )
    assert native is not None and keras_torch is not None
    assert "(PyTorch, " in native.label and "(Keras-torch, " in keras_torch.label
    # the grade sees native PyTorch as PyTorch, like-for-like with published PyTorch rows
    assert local_settings({**base, "backend": "torch"})["framework"] == "pytorch"
    assert local_settings({**base, "backend": "keras-torch"})["framework"] == "keras-torch"
