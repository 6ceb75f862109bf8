"""`results export` → `results import` round trips (issue 22 item 6): the JSON export (series inside with
--series) and the CSV export (series in runs.series.json beside it) import back into another store with
every column and every series record; a broken JSON export is refused naming its record and field, with
nothing written."""

from __future__ import annotations

import json

import pytest
from conftest import run_row

from engine.cli import main
from engine.results.jsonio import read_any_export, read_json_export
from engine.results.schema import COLUMN_NAMES
from engine.runs.store import Store

STEPS = [{"step": i, "step_time_ms": 2.0 + i / 10} for i in range(5)]
TELEMETRY = [{"t": 1767268800.0 + i, "gpu_util_pct": 90.0 + i, "power_w": 250.5} for i in range(4)]


@pytest.fixture
def source(tmp_path, monkeypatch):
    """A store with three runs (one with a quote and a formula-like label), two of them with series."""
    path = tmp_path / "source.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(path))
    store = Store(path)
    rows = [run_row(0), run_row(1, error="=cmd", notes='a "quoted", text\nline'), run_row(2, status="failed")]
    store.copy_in(
        rows, {rows[0]["run_id"]: {"step": STEPS, "telemetry": TELEMETRY}, rows[1]["run_id"]: {"epoch": [{"epoch": 0}]}}
    )
    return store, rows


def _into_new_store(tmp_path, monkeypatch, file) -> Store:
    target = tmp_path / "target.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(target))
    assert main(["results", "import", str(file)]) == 0
    return Store(target)


def _same(store: Store, source: Store, rows: list[dict]) -> None:
    for row in rows:
        back = store.get_run(row["run_id"])
        assert back is not None
        want = source.get_run(row["run_id"])
        assert {c: back[c] for c in COLUMN_NAMES if c != "source"} == {
            c: want[c] for c in COLUMN_NAMES if c != "source"
        }
        assert store.all_series(row["run_id"]) == source.all_series(row["run_id"])


def test_json_export_with_series_imports_back_with_every_column_and_series(source, tmp_path, monkeypatch, capsys):
    store, rows = source
    out = tmp_path / "runs.json"
    assert main(["results", "export", "--format", "json", "--series", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc[-1]["series"] == {"step": STEPS, "telemetry": TELEMETRY}  # oldest last, as always
    back = _into_new_store(tmp_path, monkeypatch, out)
    assert "imported 3 runs from runs.json with 10 series records" in capsys.readouterr().out
    _same(back, store, rows)
    assert back.get_run(rows[0]["run_id"])["source"] == "import:runs.json"
    assert main(["results", "import", str(out)]) == 0  # twice: nothing added, nothing doubled
    assert "(3 already present, skipped)" in capsys.readouterr().out
    assert back.get_series(rows[0]["run_id"], "step") == STEPS


def test_json_export_without_series_still_imports(source, tmp_path, monkeypatch, capsys):
    store, rows = source
    out = tmp_path / "plain.json"
    assert main(["results", "export", "--format", "json", "--out", str(out)]) == 0
    assert "series" not in json.loads(out.read_text())[0]  # the old shape, unchanged
    back = _into_new_store(tmp_path, monkeypatch, out)
    assert back.count_runs() == 3 and back.all_series(rows[0]["run_id"]) == {}


def test_csv_export_with_series_writes_a_series_file_that_import_finds(source, tmp_path, monkeypatch, capsys):
    store, rows = source
    out = tmp_path / "runs.csv"
    assert main(["results", "export", "--series", "--out", str(out)]) == 0
    assert (tmp_path / "runs.series.json").is_file()
    back = _into_new_store(tmp_path, monkeypatch, out)
    _same(back, store, rows)


def test_csv_series_without_out_is_refused_in_one_line(source, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["results", "export", "--series"])
    assert exc.value.code == 2
    assert "--series: a CSV export keeps its series in a file beside it" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d[1].update(gflops="fast"), "record 2, field 'gflops'"),
        (lambda d: d[0].update(extra=1), "record 1: unknown field(s) 'extra'"),
        (lambda d: d[2].update(series={"step": [1, 2]}), "record 3, field 'series': 'step' must be a list of objects"),
        (lambda d: d[0].pop("run_id"), "record 1, field 'run_id': run_id is empty"),
        (lambda d: [r.pop("created_at") for r in d], "missing field(s): created_at"),
        (lambda d: d[0].update(status="done"), "record 1, field 'status'"),
    ],
)
def test_a_broken_json_export_is_refused_naming_record_and_field(source, tmp_path, monkeypatch, capsys, edit, message):
    out = tmp_path / "runs.json"
    assert main(["results", "export", "--format", "json", "--series", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    edit(doc)
    out.write_text(json.dumps(doc))
    target = tmp_path / "target.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(target))
    with pytest.raises(SystemExit) as exc:
        main(["results", "import", str(out)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "nothing was imported" in err and "Traceback" not in err
    assert Store(target).count_runs() == 0


def test_readers_agree_on_a_json_export(source):
    store, rows = source
    from engine.results.jsonio import export_json

    text = export_json(store.list_runs(), store.series_by_run())
    doc = read_json_export(text)
    assert [r["run_id"] for r in doc.rows] == [r["run_id"] for r in store.list_runs()]
    assert read_any_export(text.encode(), "x.txt").series == doc.series  # told apart by content, not only name
