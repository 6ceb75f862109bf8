"""docs/colab_quickstart.ipynb runs top to bottom on this CPU (issues 32, 37), so it cannot rot: nbclient executes
every cell in a real IPython kernel. Its one install variable, ACCELBENCH_SOURCE, is set as a user sets it — to a
wheel built from this checkout — and its install cell pip-installs that wheel (into a folder on the kernel's
path: PIP_TARGET, so the suite's venv is left alone); the cells then call the installed CLI, and a run made
through it lands in a store the dashboard shows — the local store, the "team" store it pushed to (a SQLite path
stands in for the team's PostgreSQL URL: `results push --to` takes either), and the JSON export that History
loads. A source pip cannot install stops the notebook at the install cell, saying what to change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from built_wheel import build_wheel, clean_env
from conftest import ROOT
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from page_helpers import APP, no_exception
from streamlit.testing.v1 import AppTest

from engine.results.jsonio import read_json_export
from engine.runs.store import Store

pytestmark = pytest.mark.slow

NOTEBOOK = ROOT / "docs" / "colab_quickstart.ipynb"
SOURCE_LINE = re.compile(r'^ACCELBENCH_SOURCE = "[^"]*"$', re.M)


def _with_source(source: str) -> tuple[nbformat.NotebookNode, int]:
    """The notebook with its one install variable set to `source`, as a user edits it; and that cell's index."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    found = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and SOURCE_LINE.search(c.source)]
    assert len(found) == 1 and found[0] == 2, found  # one variable, in the first code cell
    cell = nb.cells[found[0]]
    assert len(SOURCE_LINE.findall(cell.source)) == 1
    cell.source = SOURCE_LINE.sub(f"ACCELBENCH_SOURCE = {json.dumps(source)}", cell.source)
    return nb, found[0]


def _kernel_env(monkeypatch, tmp_path: Path) -> Path:
    """The kernel's environment: no checkout on its path; pip installs into `site` (on the path, empty so far)."""
    site = tmp_path / "site"
    site.mkdir()
    for name, value in clean_env(Path.home()).items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("PIP_TARGET", str(site))
    monkeypatch.setenv("PIP_NO_DEPS", "1")  # numpy, pandas … are the suite's; the wheel is what is installed
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    return site


def _execute(nb: nbformat.NotebookNode, work: Path) -> None:
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(work)}}).execute()


def test_a_source_pip_cannot_install_stops_the_notebook_at_the_install_cell(tmp_path, monkeypatch):
    _kernel_env(monkeypatch, tmp_path)
    missing = str(tmp_path / "accelbench-0.1.0-py3-none-any.whl")  # the wheel was never uploaded
    nb, at = _with_source(missing)
    with pytest.raises(CellExecutionError) as stopped:
        _execute(nb, tmp_path)
    assert "AccelBench could not be installed from ACCELBENCH_SOURCE" in str(stopped.value)
    assert missing in str(stopped.value) and "run it again" in str(stopped.value)
    ran = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.get("execution_count")]
    assert ran == [at]  # nothing after the install cell ran


def test_the_notebook_measures_sends_home_and_the_dashboard_shows_its_runs(tmp_path, monkeypatch):
    work = tmp_path / "runtime"
    work.mkdir()
    wheel = build_wheel(tmp_path / "build", clean_env(tmp_path))
    site = _kernel_env(monkeypatch, tmp_path)
    local, team = tmp_path / "runtime.db", tmp_path / "team.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(local))  # the runtime's own store (the kernel inherits it)
    monkeypatch.setenv("ACCELBENCH_TEAM_DB", str(team))

    nb, at = _with_source(str(wheel))
    _execute(nb, work)
    said = "".join(o.get("text", "") for o in nb.cells[at].get("outputs", []))
    assert f"AccelBench from {site}" in said, said  # the engine the notebook runs is the one it installed

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
