"""Every CSV AccelBench writes is safe to open in a spreadsheet (OWASP CSV injection; issue 15, class 2)."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest
from conftest import run_row

from engine.cli import main
from engine.results.csvio import FORMULA_START, frame_to_csv, read_rows, rows_to_csv
from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES
from engine.runs.store import Store

NASTY = {
    "model": '=HYPERLINK("http://evil.example","x")',
    "notes": "+cmd|' /C calc'!A0",
    "device_name": "@SUM(1+1)*cmd|' /C calc'!A0",
    "error": "-2+3",
    "shape": "\t=1+1",
    "tf_version": "\r=1+1",
    "dataset": "'=already quoted",
    "strategy": "'plain apostrophe",
}


def full_row(run_id: str, **over) -> dict:
    return run_row(0, run_id=run_id, **over)


def _cells(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_export_prefixes_a_quote_to_text_cells_that_a_spreadsheet_would_run():
    row = full_row("r1", final_loss=-0.5, **NASTY)
    cells = _cells(rows_to_csv([row]))[0]
    for name in COLUMN_NAMES:
        if COLUMN_TYPES[name] is str and cells[name]:
            assert cells[name][0] not in FORMULA_START, (name, cells[name])
    assert cells["model"] == "'" + NASTY["model"]
    assert cells["final_loss"] == "-0.5"  # a number is a number, not text: left alone


def test_the_quote_prefix_is_undone_on_import_so_our_own_export_round_trips_exactly():
    rows = [full_row("r1", **NASTY), full_row("r2", model="plain", notes="it's fine")]
    back = read_rows(rows_to_csv(rows))
    for want, got in zip(rows, back, strict=True):
        for name in NASTY:
            assert got[name] == want[name], name
    assert back[1]["notes"] == "it's fine"


def test_a_leading_tab_is_not_stripped_into_a_live_formula_on_import():
    text = rows_to_csv([full_row("r1", device_name="cpu")])
    header, line = text.splitlines()[:2]
    cells = next(csv.reader([line]))
    cells[COLUMN_NAMES.index("model")] = "\t=1+1"
    cells[COLUMN_NAMES.index("notes")] = "  padded note  "
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(cells)
    row = read_rows(header + "\n" + buf.getvalue())[0]
    assert row["model"] == "\t=1+1"
    assert row["notes"] == "padded note"  # ordinary padding is still trimmed
    assert _cells(rows_to_csv([row]))[0]["model"] == "'\t=1+1"


def test_page_downloads_go_through_the_same_guard():
    df = pd.DataFrame({"label": ["=1+1", "ok", None], "value": [-1.5, 2.0, 3.0]})
    cells = _cells(frame_to_csv(df))
    assert [c["label"] for c in cells] == ["'=1+1", "ok", ""]
    assert cells[0]["value"] == "-1.5"


@pytest.mark.parametrize("out", [False, True])
def test_cli_export_is_guarded(db, capsys, tmp_path, out):
    Store(db).insert_run(full_row("r1", **NASTY))
    args = ["results", "export"] + (["--out", str(tmp_path / "x.csv")] if out else [])
    assert main(args) == 0
    text = (tmp_path / "x.csv").read_text() if out else capsys.readouterr().out
    assert _cells(text)[0]["model"].startswith("'=")
