"""engine.results.history_io: AccelBench exports checked column-wise must give exactly csvio's verdicts
(same message, row and column), load 100,000 rows, and foreign tables read as text."""

from __future__ import annotations

import pytest
from conftest import run_row

from engine.results.csvio import CsvError, parse_results_csv, rows_to_csv
from engine.results.history_io import read_export, read_table
from engine.results.schema import COLUMN_NAMES


def verdict(fn, data):
    try:
        fn(data)
    except CsvError as exc:
        return (str(exc), exc.row, exc.column)
    return None


def _replace_cell(text: str, line: int, column: str, value: str) -> str:
    lines = text.split("\n")
    header = lines[0].split(",")
    cells = lines[line - 1].split(",")
    cells[header.index(column)] = value
    lines[line - 1] = ",".join(cells)
    return "\n".join(lines)


GOOD = rows_to_csv([run_row(i) for i in range(6)])

BAD_FILES = {
    "float column": _replace_cell(GOOD, 3, "gflops", "fast"),
    "infinite float": _replace_cell(GOOD, 4, "total_s", "inf"),
    "nan text": _replace_cell(GOOD, 4, "total_s", "nan"),
    "int not whole": _replace_cell(GOOD, 2, "replicas", "1.5"),
    "int text": _replace_cell(GOOD, 5, "host_cores", "two"),
    "bool": _replace_cell(GOOD, 3, "xla", "maybe"),
    "status": _replace_cell(GOOD, 4, "status", "done"),
    "status empty": _replace_cell(GOOD, 4, "status", ""),
    "kind": _replace_cell(GOOD, 2, "kind", "resnet"),
    "created_at": _replace_cell(GOOD, 6, "created_at", "yesterday"),
    "negative": _replace_cell(GOOD, 5, "step_time_ms_median", "-3.0"),
    "newer schema": _replace_cell(GOOD, 3, "schema_version", "9"),
    "empty run_id": _replace_cell(GOOD, 2, "run_id", ""),
    "two problems, earlier row wins": _replace_cell(_replace_cell(GOOD, 5, "kind", "x"), 3, "gflops", "y"),
    "same row, column order wins": _replace_cell(_replace_cell(GOOD, 3, "gflops", "y"), 3, "replicas", "x"),
    "type before row rule": _replace_cell(_replace_cell(GOOD, 3, "status", "zzz"), 3, "gflops", "y"),
    "duplicate run_id": GOOD.replace(run_row(3)["run_id"], run_row(1)["run_id"]),
    "short row": "\n".join(line if i != 3 else line.rsplit(",", 2)[0] for i, line in enumerate(GOOD.split("\n"))),
    "long row": "\n".join(line if i != 2 else line + ",extra" for i, line in enumerate(GOOD.split("\n"))),
    "missing column": "\n".join(",".join(line.split(",")[:-3]) for line in GOOD.split("\n")),
    "duplicate header": GOOD.replace("gflops", "total_s", 1),
    "empty": "",
    "header only": GOOD.split("\n")[0] + "\n",
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_exports_get_exactly_csvios_message_row_and_column(case):
    text = BAD_FILES[case]
    expected = verdict(parse_results_csv, text)
    assert expected is not None, f"{case}: csvio accepted it, so the case is not testing anything"
    assert verdict(read_export, text.encode()) == expected


def test_blank_lines_keep_row_numbers_as_csvio_counts_them():
    lines = GOOD.split("\n")
    text = "\n".join([lines[0], lines[1], "", ",,,", lines[2], _replace_cell(GOOD, 4, "gflops", "bad").split("\n")[3]])
    assert verdict(read_export, text) == verdict(parse_results_csv, text)
    assert verdict(read_export, text)[1] == 6


def test_quoted_cells_with_commas_and_newlines_load_like_csvio():
    rows = [run_row(i, error='failed, with "quotes"\nand a second line' if i == 2 else None) for i in range(5)]
    text = rows_to_csv(rows)
    frame = read_export(text.encode())
    assert list(frame["run_id"]) == [r["run_id"] for r in parse_results_csv(text)]
    assert frame.loc[2, "error"] == 'failed, with "quotes"\nand a second line'
    bad = text.replace(rows[4]["created_at"], "soon")
    assert verdict(read_export, bad) == verdict(parse_results_csv, bad)


def test_valid_export_has_the_same_values_as_csvio():
    rows = [run_row(i, xla=i % 2 == 0, cost_usd=0.001 * i) for i in range(8)]
    text = rows_to_csv(rows)
    frame = read_export(text.encode("utf-8"))
    exact = parse_results_csv(text)
    assert list(frame.columns) == list(COLUMN_NAMES)
    for got, want in zip(frame.to_dict("records"), exact, strict=True):
        for name in ("run_id", "status", "kind", "gflops", "replicas", "xla", "cost_usd", "host_memory_gb"):
            g, w = got[name], want[name]
            assert (g is None or g != g or str(g) == "<NA>") if w is None else g == w, (name, g, w)


def test_not_utf8_is_refused_with_the_offset():
    data = GOOD.encode("utf-8")[:40] + b"\xff" + GOOD.encode("utf-8")[40:]
    assert verdict(read_export, data) == verdict(parse_results_csv, data)


def test_a_100k_row_export_loads_every_row():
    # how fast (within 3 s) is measured by bench/bench_limits.py
    text = rows_to_csv([run_row(i) for i in range(100_000)]).encode()
    frame = read_export(text)
    assert len(frame) == 100_000 and frame["run_id"].is_unique


def test_foreign_table_sniffs_the_delimiter_and_numbers_rows():
    text = "GPU;Model;img/s\nV100;resnet50;1200\n\nT4;resnet50;400\n"
    raw = read_table(text.encode())
    assert list(raw.columns) == ["GPU", "Model", "img/s", "_row"]
    assert raw["_row"].tolist() == [2, 4]  # the blank line still counts, as in a spreadsheet


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "the file is empty"),
        ("a,b\n", "the file has a header but no rows"),
        ("a,b\n1,2\n3,4,5\n", "row 3: has 3 cells but the header has 2"),
        ("a,a\n1,2\n", "column 'a' appears twice"),
    ],
)
def test_foreign_table_problems_are_named(text, message):
    with pytest.raises(CsvError) as exc:
        read_table(text)
    assert message in str(exc.value)


def test_padded_cells_are_stripped_as_csvio_strips_them():
    text = _replace_cell(_replace_cell(GOOD, 3, "status", " ok "), 4, "device_name", "\tAMD EPYC ")
    frame = read_export(text.encode())
    assert frame.loc[1, "status"] == "ok" and frame.loc[2, "device_name"] == "AMD EPYC"
    assert [r["status"] for r in parse_results_csv(text)] == list(frame["status"])
