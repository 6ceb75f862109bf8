"""Issue 37: the CLI re-imports History's own export as the History page does. History's "Download all filtered
rows (CSV)" (the mapped rows with their configuration and per-device views) and the long CSV (`--out`) are read as
they are — never through a guessed mapping that took `device_model` for the model — by plain `results import` and by
`--auto`, and written as the long CSV with the same numbers; nothing is stored (History does not store them either).
The download is made here by the page's own functions (read_raw → apply_import → add_views → frame_to_csv)."""

from __future__ import annotations

import pandas as pd
import pytest
from test_import_real_files import VENDOR

from engine.cli import main
from engine.imports.importer import apply_import, read_raw
from engine.imports.view.default_view import add_views
from engine.results.csvio import frame_to_csv
from engine.runs.store import Store

NAME = "pytorch-train-throughput-fp32.csv"
KEY = ["device_label", "device_count", "model", "metric"]


@pytest.fixture
def download(tmp_path):
    raw = read_raw(VENDOR.encode(), NAME)
    rows = add_views(apply_import(raw.frame, raw.guess, NAME, None)[0])
    assert "Throughput per device (examples/s)" in rows.columns and "device_model" in rows.columns
    path = tmp_path / "history_filtered_rows.csv"
    path.write_text(frame_to_csv(rows), encoding="utf-8")
    return path, rows


def _import(path, out, *extra: str) -> pd.DataFrame:
    assert main(["results", "import", str(path), "--out", str(out), *extra]) == 0
    return pd.read_csv(out)


def _expected(rows: pd.DataFrame) -> dict[tuple, float]:
    rated = rows.dropna(subset=["examples_per_sec"])
    return {(r.device_label, r.device_count, r.workload, "examples_per_sec"): r.examples_per_sec
            for r in rated.itertuples()}  # fmt: skip


def test_plain_and_auto_read_historys_download_as_it_is_with_the_same_numbers(download, tmp_path, db, capsys):
    path, rows = download
    plain = _import(path, tmp_path / "plain.csv")
    auto = _import(path, tmp_path / "auto.csv", "--auto")
    err = capsys.readouterr().err
    assert err.count("AccelBench History table (History's own table: as it is, no mapping)") == 2
    pd.testing.assert_frame_equal(plain, auto)
    assert set(plain["model"]) == set(rows["workload"])  # never the device model
    assert "examples_per_sec" in set(plain["metric"])
    assert not plain["metric"].str.contains("per device").any()  # History's views, computed again on loading
    rates = plain[plain["metric"] == "examples_per_sec"]
    got = {tuple(k): v for *k, v in rates[[*KEY, "value"]].itertuples(index=False)}
    assert got == pytest.approx(_expected(rows))
    assert Store(str(db)).list_runs() == []  # read, not stored: History keeps such rows in the session only


def test_the_long_csv_goes_round_again_unchanged(download, tmp_path, db):
    path, _ = download
    first = _import(path, tmp_path / "first.csv")
    again = _import(tmp_path / "first.csv", tmp_path / "again.csv", "--auto")
    key = [*KEY, "value"]
    pd.testing.assert_frame_equal(first[key].sort_values(key, ignore_index=True),
                                  again[key].sort_values(key, ignore_index=True))  # fmt: skip
