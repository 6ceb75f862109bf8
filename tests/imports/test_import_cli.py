"""`python -m engine results import FILE --mapping MAP`: a mapping saved on the History page, applied
headless (in-process through engine.cli.main). All or nothing: a bad cell exits 2 naming its row and
column and writes nothing; the long CSV it writes loads back on the History page as it is."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.imports.facts.import_mapping import ValueSpec, mapping_from_json
from engine.imports.importer import load_foreign, read_raw

MLPERF = (
    "Public ID,Submitter,System,Processor,Accelerator,# of Accelerators,ResNet,BERT\n"
    "4.0-0001,VendorA,dgx-h100 (8x H100-SXM5-80GB),Xeon 8480C,NVIDIA H100-SXM5-80GB,8,13.5,5.1\n"
    "4.0-0002,VendorA,dgx-h100 x8 nodes,Xeon 8480C,NVIDIA H100-SXM5-80GB,64,2.6,1.1\n"
    "4.0-0003,VendorB,a100-box,EPYC 7742,NVIDIA A100-SXM4-80GB,8,28.7,\n"
)


@pytest.fixture
def files(tmp_path, db):
    data = tmp_path / "mlperf.csv"
    data.write_text(MLPERF, encoding="utf-8")
    guess = read_raw(MLPERF.encode(), "mlperf.csv").guess
    assert guess.fmt == "MLPerf Training results"  # recognised by its header, mapping pre-filled
    guess.values["BERT"] = ValueSpec("Time to train", "min", "BERT-Large", "lower")  # the user renames a model
    mapping = tmp_path / "mlperf.mapping.json"
    mapping.write_text(guess.to_json(), encoding="utf-8")
    return data, mapping, tmp_path / "out.csv"


def test_a_saved_mapping_applies_headless_and_its_output_loads_back(files, capsys):
    data, mapping, out = files
    assert main(["results", "import", str(data), "--mapping", str(mapping), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "mapped 5 rows from mlperf.csv" in err and "BERT (1)" in err  # the empty cell is reported
    text = out.read_text()
    assert text.splitlines()[0].startswith("unit,device_label,device_count,model,metric,value")
    back, _ = load_foreign(text.encode(), "out.csv")
    times = back.pivot_table(index=["device_label", "device_count"], columns="model", values="Time to train (min)")
    assert times.loc[("H100", 64), "BERT-Large"] == 1.1 and times.loc[("A100 80GB", 8), "ResNet"] == 28.7


def test_a_bad_cell_exits_2_naming_row_and_column_and_writes_nothing(files, capsys):
    data, mapping, out = files
    data.write_text(MLPERF.replace("2.6", "2.6 min?"), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["results", "import", str(data), "--mapping", str(mapping), "--out", str(out)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "accelbench: error: mlperf.csv: row 3, column 'ResNet': expected a number, got '2.6 min?' — nothing was imported"
    )
    assert not out.exists()


def test_a_mapping_naming_a_missing_column_or_an_unknown_role_is_refused(files, capsys):
    data, mapping, out = files
    doc = json.loads(mapping.read_text())
    doc["roles"]["Nodes"] = "count"
    mapping.write_text(json.dumps(doc))
    with pytest.raises(SystemExit):
        main(["results", "import", str(data), "--mapping", str(mapping)])
    assert "row 1, column 'Nodes'" in capsys.readouterr().err
    doc["roles"] = {"ResNet": "speed"}
    mapping.write_text(json.dumps(doc))
    with pytest.raises(SystemExit):
        main(["results", "import", str(data), "--mapping", str(mapping)])
    assert "unknown role 'speed'" in capsys.readouterr().err


def test_a_mapping_round_trips_through_json():
    guess = read_raw(MLPERF.encode(), "m.csv").guess
    assert mapping_from_json(guess.to_json()) == guess
