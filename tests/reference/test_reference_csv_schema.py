"""The curated reference CSV: it loads, it is well-formed, a broken file is refused naming row and column.

That the builder reproduces it from the shared research file (outside this repository) is checked by
`python data/reference/build_reference.py --check` (see data/reference/README.md)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from engine.reference.data import COLUMN_NAMES, REFERENCE_CSV, ReferenceSchemaError, load_reference
from engine.reference.units import HARDWARE, METRICS


def _rows() -> list[dict[str, str]]:
    with REFERENCE_CSV.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _write(path: Path, rows: list[dict[str, str]], columns=COLUMN_NAMES) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(columns), extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return path


def test_loads_with_every_column_and_unique_ids(ref):
    assert list(ref.columns) == list(COLUMN_NAMES)
    assert len(ref) >= 296
    assert ref["ref_id"].is_unique
    assert set(ref["metric"]) <= set(METRICS)
    assert set(ref["hardware_key"]) <= set(HARDWARE)
    assert ref["value"].dtype == float and (ref["value"] > 0).all()
    assert ref["doubtful"].dtype == bool


def test_every_row_keeps_its_source_and_doubts_say_why(ref):
    assert (ref["source_id"] != "").all() and (ref["source_title"] != "").all()
    assert (ref.loc[ref["doubtful"], "doubt_reason"].str.len() > 10).all()
    assert (ref.loc[~ref["doubtful"], "doubt_reason"] == "").all()


def test_units_are_the_metric_units(ref):
    for metric, unit in zip(ref["metric"], ref["unit"], strict=True):
        info = METRICS[metric]
        assert unit in (info.unit, *info.alt_units), (metric, unit)


@pytest.mark.parametrize(
    ("column", "bad", "expected"),
    [
        ("value", "abc", "is not a number"),
        ("value", "", "is empty but required"),
        ("metric", "speed", "is not one of"),
        ("device_type", "fpga", "is not one of"),
        ("hardware_count", "two", "is not a positive whole number"),
        ("doubtful", "maybe", "is not True or False"),
        ("unit", "h", "is not the unit of"),
    ],
)
def test_a_bad_cell_is_refused_naming_row_and_column(tmp_path, column, bad, expected):
    rows = _rows()
    rows[11][column] = bad  # the 12th data row
    path = _write(tmp_path / "bad.csv", rows)
    with pytest.raises(ReferenceSchemaError) as err:
        load_reference(path)
    msg = str(err.value)
    assert err.value.row == 12 and err.value.column == column
    assert "row 12 (CSV line 13" in msg and f"column '{column}'" in msg and expected in msg
    assert rows[11]["ref_id"] in msg


def test_doubtful_without_reason_and_duplicate_ids_are_refused(tmp_path):
    rows = _rows()
    rows[3]["doubtful"], rows[3]["doubt_reason"] = "True", ""
    with pytest.raises(ReferenceSchemaError, match=r"row 4 .*column 'doubt_reason'"):
        load_reference(_write(tmp_path / "a.csv", rows))
    rows = _rows()
    rows[5]["ref_id"] = rows[2]["ref_id"]
    with pytest.raises(ReferenceSchemaError, match=r"row 6 .*column 'ref_id': duplicate of row 3"):
        load_reference(_write(tmp_path / "b.csv", rows))


def test_a_missing_column_is_named(tmp_path):
    columns = [c for c in COLUMN_NAMES if c != "precision"]
    with pytest.raises(ReferenceSchemaError, match="missing column.*precision"):
        load_reference(_write(tmp_path / "c.csv", _rows(), columns))


def test_no_tensorflow_or_streamlit_imported_by_the_engine_side():
    code = (
        "import sys; import engine.reference.data, engine.compare.answer, engine.charts.reference, engine.cli; "
        "bad = [m for m in ('tensorflow', 'streamlit') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
