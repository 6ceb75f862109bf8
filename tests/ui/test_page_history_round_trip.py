"""History under AppTest with AccelBench's own exports carrying series (issue 22 item 6): a JSON export from
`results export --format json --series` and a CSV export with its runs.series.json load as exports, draw the
"Run series" tab (step times, telemetry), and "Save to results" stores the runs with their series."""

from __future__ import annotations

import json

from conftest import ROOT, run_row
from streamlit.testing.v1 import AppTest

from engine.cli import main
from engine.runs.store import Store

STEPS = [{"global_step": i + 1, "step_time_ms": 4.0 + (i % 3) / 10} for i in range(12)]
TELEMETRY = [{"t": 1767268800.0 + i, "gpu0_power_w": 250.0 + i, "gpu0_util_pct": 90.0} for i in range(6)]


def _exports(tmp_path, monkeypatch) -> tuple[bytes, bytes, bytes, str]:
    """(JSON with series, CSV, its series file, the run with series) from a store on 'another machine'."""
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "other.db"))
    rows = [run_row(0, kind="train", model="fashion_cnn", examples_per_sec=900.0), run_row(1)]
    Store(tmp_path / "other.db").copy_in(rows, {rows[0]["run_id"]: {"step": STEPS, "telemetry": TELEMETRY}})
    assert main(["results", "export", "--format", "json", "--series", "--out", str(tmp_path / "runs.json")]) == 0
    assert main(["results", "export", "--series", "--out", str(tmp_path / "runs.csv")]) == 0
    files = [(tmp_path / n).read_bytes() for n in ("runs.json", "runs.csv", "runs.series.json")]
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "here.db"))
    return files[0], files[1], files[2], rows[0]["run_id"]


def _page() -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60)


def test_a_json_export_with_series_loads_draws_its_series_and_saves_them(tmp_path, monkeypatch):
    data, _, _, run_id = _exports(tmp_path, monkeypatch)
    at = _page().run()
    at.file_uploader(key="hist_upload").set_value([("runs.json", data, "application/json")]).run()
    assert not at.exception and not at.error and not at.warning
    assert any("runs.json**: 2 runs (AccelBench export, series of 1)" in s.value for s in at.success)
    at.session_state["hist_tab"] = "Run series"
    at.run()
    assert not at.exception
    titles = [
        json.loads(c.proto.spec)["layout"].get("yaxis", {}).get("title", {}).get("text") for c in at.get("plotly_chart")
    ]
    assert len(at.get("plotly_chart")) == 2, titles  # step times and telemetry
    assert any("step: 12 records" in c.value and "telemetry: 6 records" in c.value for c in at.caption)
    [save] = [b for b in at.button if b.key.startswith("hist_import_")]
    save.click().run()
    assert not at.exception
    here = Store(tmp_path / "here.db")
    assert here.count_runs() == 2 and here.get_series(run_id, "step") == STEPS
    assert here.get_run(run_id)["source"] == "import:runs.json"


def test_a_csv_export_pairs_with_its_series_file(tmp_path, monkeypatch):
    _, csv_data, series_data, run_id = _exports(tmp_path, monkeypatch)
    at = _page().run()
    files = [("runs.csv", csv_data, "text/csv"), ("runs.series.json", series_data, "application/json")]
    at.file_uploader(key="hist_upload").set_value(files).run()
    assert not at.exception and not at.error and not at.warning
    assert any("runs.csv**: 2 runs (AccelBench export, series in runs.series.json)" in s.value for s in at.success)
    [save] = [b for b in at.button if b.key.startswith("hist_import_")]
    save.click().run()
    assert Store(tmp_path / "here.db").get_series(run_id, "telemetry") == TELEMETRY
