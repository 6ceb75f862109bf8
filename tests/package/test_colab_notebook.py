"""docs/colab_quickstart.ipynb runs top to bottom on this CPU (issue 32), so it cannot rot: nbclient executes
every cell in a real IPython kernel, the cells call the real CLI (a clone's `python -m engine`, since the
engine is importable here its install cell installs nothing), and a run made through it lands in a store the
dashboard then shows — the local store, the "team" store it pushed to (a SQLite path stands in for the
team's PostgreSQL URL: `results push --to` takes either), and the JSON export that History loads.
"""

from __future__ import annotations

import json

import nbformat
import pytest
from conftest import ROOT
from nbclient import NotebookClient
from page_helpers import APP, no_exception
from streamlit.testing.v1 import AppTest

from engine.results.jsonio import read_json_export
from engine.runs.store import Store

pytestmark = pytest.mark.slow

NOTEBOOK = ROOT / "docs" / "colab_quickstart.ipynb"


def test_the_notebook_measures_sends_home_and_the_dashboard_shows_its_runs(tmp_path, monkeypatch):
    work = tmp_path / "runtime"
    work.mkdir()
    local, team = tmp_path / "runtime.db", tmp_path / "team.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(local))  # the runtime's own store (the kernel inherits it)
    monkeypatch.setenv("ACCELBENCH_TEAM_DB", str(team))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the clone: `engine` importable, so nothing is pip-installed
    monkeypatch.setenv("TF_CPP_MIN_LOG_LEVEL", "3")
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)

    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(work)}}).execute()

    runs = Store(local).list_runs()
    assert {(r["kind"], r["status"]) for r in runs} == {("matmul", "ok"), ("train", "ok")}
    assert {r["label"] for r in runs} == {"notebook cpu"}
    pushed = {r["run_id"] for r in Store(team).list_runs()}
    assert pushed == {r["run_id"] for r in runs}

    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "GFLOP/s" in text and "examples/s" in text and "History page" in text

    export = read_json_export((work / "accelbench_runs.json").read_text())  # what History loads
    assert {r["run_id"] for r in export.rows} == pushed
    train_id = next(r["run_id"] for r in runs if r["kind"] == "train")
    assert export.series.get(train_id), "the export carries the run's series"

    monkeypatch.setenv("ACCELBENCH_DB", str(team))  # the dashboard pointed at the team's store
    at = AppTest.from_file(APP, default_timeout=60).run()
    no_exception(at)
    assert pushed <= set(at.dataframe[0].value["run_id"])
    assert json.loads(NOTEBOOK.read_text())["nbformat"] == 4
