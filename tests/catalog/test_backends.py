"""--backend on specs, the CLI and the store: defaults, refusals, and old databases gaining the column."""

from __future__ import annotations

import sqlite3

import pytest

from engine.catalog import backends
from engine.catalog.processes import cores_warning
from engine.catalog.specs import SpecError, spec_from_dict
from engine.runs.store import Store


def test_backend_defaults_to_tensorflow_on_every_kind_of_run():
    assert spec_from_dict({"kind": "train", "model": "fashion_cnn"}).backend == "tensorflow"
    assert spec_from_dict({"kind": "matmul"}).backend == "tensorflow"


def test_unknown_backend_is_refused_naming_the_flag():
    with pytest.raises(SpecError) as err:
        spec_from_dict({"kind": "matmul", "backend": "mxnet"})
    assert err.value.field == "--backend" and "tensorflow, jax, torch" in str(err.value)


def test_backend_not_installed_is_one_line_with_the_pip_command(monkeypatch):
    monkeypatch.setattr(backends, "installed", lambda name: name != "jax")
    with pytest.raises(SpecError) as err:
        spec_from_dict({"kind": "train", "model": "fashion_cnn", "backend": "jax"})
    message = str(err.value)
    assert err.value.field == "--backend" and "\n" not in message
    assert "pip install jax==0.10.2" in message


def test_torch_refuses_several_devices_with_a_reason():
    if not backends.installed("torch"):
        pytest.skip("torch not installed")
    with pytest.raises(SpecError, match=r"one process per device \(DDP\): use --processes N") as err:
        spec_from_dict({"kind": "train", "model": "fashion_cnn", "backend": "torch", "logical_devices": 2})
    assert err.value.field == "--logical-devices" and "no DDP run yet" not in str(err.value)
    with pytest.raises(SpecError, match="--backend torch --processes N"):
        spec_from_dict({"kind": "train", "model": "fashion_cnn", "backend": "keras-torch", "logical_devices": 2})


def test_cpu_ranks_beyond_the_cores_are_warned_about_not_refused():
    assert cores_warning(2, "cpu", 2) is None and cores_warning(4, "gpu", 2) is None
    warning = cores_warning(4, "cpu", 2) or ""
    assert "--processes 4 on 2 CPU core(s)" in warning and "contention" in warning and "at most 2" in warning


def test_jax_accepts_logical_cpu_devices_under_mirrored():
    spec = spec_from_dict(
        {"kind": "train", "model": "fashion_cnn", "backend": "jax", "logical_devices": 2, "strategy": "mirrored"}
    )
    assert spec.backend == "jax" and spec.logical_devices == 2


def test_without_tensorflow_flowers_on_this_machine_runs_and_a_gs_path_is_refused(monkeypatch):
    """Local files go through the NumPy/PIL pipeline on Keras backends; only tf.data reads object storage."""
    monkeypatch.setattr(backends, "installed", lambda name: name != "tensorflow")
    raw = {"kind": "train", "model": "flowers_cnn", "dataset": "flowers", "data_dir": "/x", "backend": "jax"}
    assert spec_from_dict(raw).data_dir == "/x"
    with pytest.raises(SpecError, match="a gs:// path is read through tf.data only, which needs TensorFlow"):
        spec_from_dict({**raw, "data_dir": "gs://bucket/flowers"})


def test_an_old_database_gains_the_backend_column_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE runs (schema_version INTEGER, run_id TEXT PRIMARY KEY, status TEXT, kind TEXT)")
        conn.execute("INSERT INTO runs VALUES (1, 'r1', 'ok', 'matmul')")
    store = Store(path)
    row = store.get_run("r1")
    assert row["status"] == "ok" and row["backend"] is None
    store.update_run("r1", {"backend": "jax", "examples_per_sec_windowed": 1.5})
    assert store.get_run("r1")["backend"] == "jax"


def test_compare_warns_that_backend_changes_speed_and_old_rows_count_as_tensorflow():
    import pandas as pd

    from engine.results import history

    old_and_new_tf = pd.DataFrame({"backend": [None, "tensorflow"], "model": ["m", "m"]})
    assert history.speed_warnings(old_and_new_tf) == []
    mixed = pd.DataFrame({"backend": ["tensorflow", "jax"], "model": ["m", "m"]})
    assert any(w.startswith("framework (Keras backend") and "jax" in w for w in history.speed_warnings(mixed))


def test_result_card_lines_put_framework_next_to_blas_peak_and_sync_cost():
    from engine.results.backend_text import backend_lines

    micro = {"backend": "jax", "framework_version": "jax 0.10.2", "gflops": 90.0, "blas_gflops": 100.0,
             "peak_gflops": 127.8, "mfu_pct": 70.4}  # fmt: skip
    lines = backend_lines(micro)
    assert lines[0] == "Backend: JAX (jax 0.10.2)"
    assert "NumPy BLAS 100.0 (0.90×)" in lines[1] and "MFU 70.4 %" in lines[1]
    train = {"examples_per_sec_windowed": 190.0, "examples_per_sec_step_synced": 143.0, "sync_overhead_pct": 33.3}
    assert "syncing every step costs 33.3 %" in backend_lines(train)[-1]
    assert backend_lines({"tf_version": "2.21.0"})[0] == "Backend: TensorFlow (tensorflow 2.21.0)"


def test_presets_carry_a_backend_and_run_once_per_installed_backend():
    from engine.catalog import presets

    assert presets.request_for("article000_conv")["backend"] == "tensorflow"
    key = presets.PRESETS[0].key
    runs = presets.every_backend(key, ["tensorflow", "jax"])
    assert [r["backend"] for r in runs] == ["tensorflow", "jax"]
    for r in runs:
        assert spec_from_dict(r).backend == r["backend"]


def test_the_h100_gpu_check_history_file_loads_with_its_backends():
    from engine.results import history_files

    files = {p.name: p for p in history_files.folder_files()}
    df = history_files.load_export(files["h100_gpu_check_2026-11-23.csv"].read_bytes(), "h100")
    assert len(df) == 16 and set(df["status"]) == {"ok"}
    # an export from before schema_version 2: its "torch" rows are Keras on the torch backend
    assert set(df["backend"]) == {"jax", "keras-torch"} and df["device_name"].str.contains("H100").all()
    assert df["mfu_pct"].notna().all()
