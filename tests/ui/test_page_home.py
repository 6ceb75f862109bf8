"""Home under AppTest on a database seeded with real runs (conftest `seeded`): the latest runs, every
preset, a preset launching a real run, demo-mode refusals and the empty state."""

from __future__ import annotations

import shutil

import pytest
from page_helpers import APP, no_exception, page
from streamlit.testing.v1 import AppTest

from engine.catalog import backends
from engine.runs import jobs
from engine.runs.store import Store

# --- Home ----------------------------------------------------------------------------------------


def test_home_lists_the_latest_runs_and_every_preset(db_env):
    _, runs = db_env
    at = AppTest.from_file(APP, default_timeout=60).run()  # Home is the default page of the real router
    no_exception(at)
    assert at.title[0].value == "AccelBench"
    table = at.dataframe[0].value
    assert {r["run_id"] for r in runs.values()} <= set(table["run_id"])
    assert set(table["status"]) == {"ok"}
    assert any("GFLOP/s" in v for v in table["result"]) and any("examples/s" in v for v in table["result"])
    buttons = {b.key for b in at.button}
    assert {"home_run_quick_matmul", "home_run_article000_conv", "home_run_article002_matmul",
            "home_run_article000_fashion", "home_run_article002_reuters", "home_run_article003_resnet50"} <= buttons  # fmt: skip


def test_home_preset_launches_a_real_run_and_opens_the_run_page(db_env, tmp_path, monkeypatch):
    db = tmp_path / "launch.db"  # a copy: the new run must not change what the other tests see
    shutil.copy(db_env[0], db)
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.button(key="home_run_quick_matmul").click().run()
    run_id = at.session_state["run_id"]
    assert at.query_params["run"] == [run_id] or at.query_params["run"] == run_id
    row = jobs.wait(run_id, Store(db))
    assert row["status"] == "ok" and row["shape"] == "(512x512)@(512x512)"


def test_the_gpt_preset_runs_once_per_backend_from_its_own_button(db_env, tmp_path, monkeypatch):
    db = tmp_path / "gpt.db"
    shutil.copy(db_env[0], db)
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60).run()
    keys = {b.key for b in at.button if b.key and b.key.startswith("home_run_gpt_decoder_")}
    assert keys == {f"home_run_gpt_decoder_{b}" for b in ("tensorflow", "jax", "keras-torch") if backends.installed(b)}
    assert at.button(key="home_run_gpt_decoder_jax").label == "Run on JAX"
    at.button(key="home_run_gpt_decoder_jax").click().run()
    run_id = at.session_state["run_id"]
    row = jobs.wait(run_id, Store(db))
    assert row["status"] == "ok" and row["model"] == "gpt_tiny" and row["backend"] == "jax"
    assert row["tokens_per_sec"] == pytest.approx(row["examples_per_sec"] * 128)


def test_home_in_demo_mode_refuses_an_oversized_preset_and_stores_nothing(db_env, monkeypatch):
    db, _ = db_env
    monkeypatch.setenv("ACCELBENCH_DEMO", "1")
    before = Store(db).count_runs()
    at = page("home").run()
    at.button(key="home_run_article002_matmul").click().run()
    no_exception(at)
    assert any("Demo mode" in i.value for i in at.info)
    assert any("Matrix size — demo mode allows sizes up to 2048, got 100000" in e.value for e in at.error)
    assert Store(db).count_runs() == before


def test_home_without_runs_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "empty.db"))
    at = page("home").run()
    no_exception(at)
    assert any("No runs yet" in i.value for i in at.info)
