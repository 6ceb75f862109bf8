"""Issue 31 item 4: a companion join says how many rows matched and warns when few did, numeric keys match
across 1/1.0; AccelBench's own tables — a store export (also re-saved as TSV with CRLF, which `results import`
takes), History's downloaded rows and the long CSV — load as themselves, never through a mapping."""

from __future__ import annotations

import io

import pandas as pd
from conftest import ROOT

from engine.cli import main
from engine.imports.importer import apply_import, read_raw
from engine.imports.shape.companion import join_batch, join_note
from engine.imports.view.imported import to_long
from engine.results.csvio import frame_to_csv
from engine.runs.store import Store
from ui.history_load import parse

THROUGHPUT = "name_gpu,num_gpu,resnet50\nA100 80GB SXM4,1,800.0\nA100 80GB SXM4,8,6000.0\nV100 16GB,1,400.0\n"
BATCH = "name_gpu,num_gpu,resnet50\nA100 80GB SXM4,1.0,256\nA100 80GB SXM4,8.0,2048\nV100 16GB,1.0,128\n"
EXPORT = ROOT / "data" / "history" / "sample_accelbench_export.csv"


def _tsv_crlf(csv_bytes: bytes) -> bytes:
    table = pd.read_csv(io.BytesIO(csv_bytes), dtype=str, keep_default_na=False)
    return table.to_csv(sep="\t", index=False, lineterminator="\r\n").encode("utf-8")


def test_a_batch_join_matches_numeric_keys_across_1_and_1_0_and_warns_when_none_match():
    name = "pytorch-train-throughput-fp32.csv"
    main_raw = read_raw(THROUGHPUT.encode(), name)
    rows, _ = apply_import(main_raw.frame, main_raw.guess, name)
    joined, matched = join_batch(rows, name, main_raw, read_raw(BATCH.encode(), "pytorch-train-bs-fp32.csv"))
    assert matched == 3 and sorted(joined["global_batch_size"]) == [128, 256, 2048]
    assert join_note("bs.csv", 3, 3) == ("Batch size from **bs.csv** (the same system row and model column): "
                                         "3 of 3 rows.", False)  # fmt: skip
    other = BATCH.replace("A100 80GB SXM4", "H100 80GB SXM5").replace("V100 16GB", "T4")
    _, none = join_batch(rows, name, main_raw, read_raw(other.encode(), "pytorch-train-bs-fp32.csv"))
    text, warn = join_note("bs.csv", none, 3)
    assert none == 0 and warn and "None matched" in text


def test_own_tables_load_as_themselves_csv_or_tsv_and_the_cli_takes_a_tsv_export(tmp_path, db, capsys):
    name = "vendor-throughput.csv"
    raw = read_raw(THROUGHPUT.encode(), name)
    rows, _ = apply_import(raw.frame, raw.guess, name)
    page_rows = parse("history_filtered_rows.csv", frame_to_csv(rows).encode(), "k1")
    assert page_rows.kind == "history" and page_rows.frame is not None
    assert page_rows.frame["examples_per_sec"].tolist() == rows["examples_per_sec"].tolist()
    assert page_rows.frame["workload"].tolist() == ["resnet50"] * 3  # not the device model
    long = parse("mapped.tsv", _tsv_crlf(to_long(rows).to_csv(index=False).encode()), "k2")
    assert long.kind == "long" and long.frame is not None
    assert sorted(long.frame["examples_per_sec"]) == [400.0, 800.0, 6000.0]
    assert set(long.frame["unit"]) == {"images/s"} and long.frame["device_count"].tolist() == [1, 8, 1]
    tsv = tmp_path / "runs.tsv"
    tsv.write_bytes(_tsv_crlf(EXPORT.read_bytes()))
    assert parse("runs.tsv", tsv.read_bytes(), "k3").kind == "export"
    assert main(["results", "import", str(tsv)]) == 0
    count = len(pd.read_csv(EXPORT))
    assert f"imported {count} runs from runs.tsv" in capsys.readouterr().out and Store().count_runs() == count
