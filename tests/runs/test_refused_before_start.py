"""Two faults (issue 21 item 7): a malformed database URL and a multi-worker run without TF_CONFIG are
refused in one line, exit 2, before anything is created, started or stored."""

from __future__ import annotations

import pytest
from conftest import run_cli

from engine.runs.sql_engine import StoreError, resolve_target
from engine.runs.store import Store


@pytest.mark.parametrize("value", ["postgres:/bad", "postgresql:/x", "mysql://me@db/accelbench", "sqlite:///x.db"])
def test_a_url_that_is_not_postgresql_is_refused_and_creates_nothing(tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACCELBENCH_DB", value)
    with pytest.raises(StoreError, match="is not a PostgreSQL URL"):
        Store()
    proc = run_cli("results", "list")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accelbench: error: ACCELBENCH_DB"), proc.stderr
    assert list(tmp_path.iterdir()) == []  # no folder named "postgres:", no SQLite file


def test_a_windows_drive_path_is_still_a_path(tmp_path):
    assert resolve_target("C:/runs.db").path is not None


def test_multi_worker_without_tf_config_is_refused_before_a_worker_starts(db, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    args = ("run", "--model", "tiny_cnn", "--dataset", "synthetic", "--strategy", "multi_worker", "--batch-size", "8")
    proc = run_cli(*args)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--strategy: multi_worker needs the TF_CONFIG" in lines[0]
    assert not db.exists() or Store(db).count_runs() == 0
    bad = run_cli(*args, env={"TF_CONFIG": "{not json"})
    assert bad.returncode == 2 and "TF_CONFIG is not valid JSON" in bad.stderr
    assert not db.exists() or Store(db).count_runs() == 0
