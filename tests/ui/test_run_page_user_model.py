"""The Run page's "Your model (.keras)": nothing launches before a readable file is uploaded; demo mode refuses
uploads; a saved file's facts are read once (safe mode, in a subprocess) and set the request."""

from __future__ import annotations

import pytest
from conftest import save_fixture_models
from test_run_page import run_page

from ui import run_form_user_model as yours


def _your_model_page(**state):
    return run_page(state={"run_workload": "Training", "run_model_source": yours.YOURS, **state})


def test_without_an_upload_nothing_can_launch_and_the_page_says_what_is_missing(db):
    at = _your_model_page()
    errors = "\n".join(str(e.value) for e in at.error)
    assert "**Your model** — upload a saved .keras model first (or pick a zoo model)" in errors
    assert at.button(key="run_launch").disabled
    assert any("--model-fn package.module:build" in str(c.value) for c in at.caption)


def test_demo_mode_refuses_uploads(db, monkeypatch):
    monkeypatch.setenv("ACCELBENCH_DEMO", "1")
    at = _your_model_page()
    assert any("Uploading a model is off in demo mode" in str(i.value) for i in at.info)
    assert at.button(key="run_launch").disabled


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    (path,) = save_fixture_models(tmp_path_factory.mktemp("upload"), "build")
    return path


def test_reading_an_upload_gives_its_facts_and_a_refused_one_its_reason(db, saved, tmp_path):
    facts = yours.read_upload(str(saved), "digest-a", "jax")
    assert facts["name"] == "two_input_net" and facts["params"] == 981
    line = yours._facts_line(facts)
    assert line.startswith("**two_input_net**: 981 parameters") and "image 16×16×3 float32" in line
    assert facts["model_kind"] == "conv" and "Its layers make it a conv model" in line  # read by the real worker
    broken = tmp_path / "broken.keras"
    broken.write_bytes(b"not a zip")
    got = yours.read_upload(str(broken), "digest-b", "jax")
    assert "not a Keras 3 .keras file" in got["error"] or "could not load" in got["error"]
