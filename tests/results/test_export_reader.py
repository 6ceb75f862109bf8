"""engine.results.csvio.read_export, the one reader of AccelBench exports (for `results import` and the
History page): a bad file is refused with the first bad row and column, 100,000 rows load, odd
shapes (quoted newlines, blank lines, bare CR, a BOM) read right; and foreign tables read as text."""

from __future__ import annotations

import pytest
from conftest import run_row

from engine.imports.read.foreign_table import read_table
from engine.results.csvio import CsvError, read_export, read_rows, rows_to_csv
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


N = len(COLUMN_NAMES)
STATUSES = "queued, running, ok, failed, cancelled, timeout, interrupted"
ISO = "created_at must be an ISO-8601 UTC time like 2026-01-31T12:00:00Z, got"
# (message, row, column) — the words `results import` and the History page both give for each file.
EXPECTED = {
    "bool": ("row 3, column 'xla': expected true/false, got 'maybe'", 3, "xla"),
    "created_at": (f"row 6, column 'created_at': {ISO} 'yesterday'", 6, "created_at"),
    "duplicate header": (
        "row 1, column 'gflops': missing column(s): gflops — is this an AccelBench results export?",
        1,
        "gflops",
    ),
    "duplicate run_id": (
        "row 5, column 'run_id': run_id '20260101-120001-000001' appears twice in the file",
        5,
        "run_id",
    ),
    "empty": ("the file is empty", 0, ""),
    "empty run_id": ("row 2, column 'run_id': run_id is empty", 2, "run_id"),
    "float column": ("row 3, column 'gflops': expected a finite number, got 'fast'", 3, "gflops"),
    "header only": ("the file has a header but no rows", 0, ""),
    "infinite float": ("row 4, column 'total_s': expected a finite number, got 'inf'", 4, "total_s"),
    "int not whole": ("row 2, column 'replicas': expected a whole number, got '1.5'", 2, "replicas"),
    "int text": ("row 5, column 'host_cores': expected a whole number, got 'two'", 5, "host_cores"),
    "kind": ("row 2, column 'kind': kind must be one of matmul, conv2d, train, got 'resnet'", 2, "kind"),
    "long row": (f"row 3: has {N + 1} cells but the header has {N}", 3, ""),
    "missing column": (
        f"row 1, column '{COLUMN_NAMES[-3]}': missing column(s): {COLUMN_NAMES[-3]}, {COLUMN_NAMES[-2]}"
        " — is this an AccelBench results export?",
        1,
        COLUMN_NAMES[-3],
    ),
    "nan text": ("row 4, column 'total_s': expected a finite number, got 'nan'", 4, "total_s"),
    "negative": ("row 5, column 'step_time_ms_median': must not be negative, got -3.0", 5, "step_time_ms_median"),
    "newer schema": (
        "row 3, column 'schema_version': schema_version 9 is newer than this AccelBench (2); upgrade first",
        3,
        "schema_version",
    ),
    "same row, column order wins": ("row 3, column 'replicas': expected a whole number, got 'x'", 3, "replicas"),
    "short row": (f"row 4: has {N - 2} cells but the header has {N}", 4, ""),
    "status": (f"row 4, column 'status': status must be one of {STATUSES}, got 'done'", 4, "status"),
    "status empty": (f"row 4, column 'status': status must be one of {STATUSES}, got None", 4, "status"),
    "two problems, earlier row wins": ("row 3, column 'gflops': expected a finite number, got 'y'", 3, "gflops"),
    "type before row rule": ("row 3, column 'gflops': expected a finite number, got 'y'", 3, "gflops"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_exports_are_refused_naming_the_first_bad_row_and_column(case):
    expected = EXPECTED[case]
    assert verdict(read_export, BAD_FILES[case].encode()) == expected
    assert verdict(read_export, BAD_FILES[case]) == expected  # text in, same verdict


def test_blank_lines_and_comma_rows_still_count_as_rows():
    lines = GOOD.split("\n")
    text = "\n".join([lines[0], lines[1], "", ",,,", lines[2], _replace_cell(GOOD, 4, "gflops", "bad").split("\n")[3]])
    assert verdict(read_export, text) == ("row 6, column 'gflops': expected a finite number, got 'bad'", 6, "gflops")


def test_quoted_cells_with_commas_and_newlines_load_and_rows_count_records_not_lines():
    rows = [run_row(i, error='failed, with "quotes"\nand a second line' if i == 2 else None) for i in range(5)]
    text = rows_to_csv(rows)
    frame = read_export(text.encode())
    assert list(frame["run_id"]) == [r["run_id"] for r in rows]
    assert frame.loc[2, "error"] == 'failed, with "quotes"\nand a second line'
    bad = text.replace(rows[4]["created_at"], "soon")
    assert verdict(read_export, bad) == (f"row 6, column 'created_at': {ISO} 'soon'", 6, "created_at")


def test_valid_export_reads_back_the_values_written():
    rows = [run_row(i, xla=i % 2 == 0, cost_usd=0.001 * i) for i in range(8)]
    frame = read_export(rows_to_csv(rows).encode("utf-8"))
    assert list(frame.columns) == list(COLUMN_NAMES)
    assert read_rows(rows_to_csv(rows)) == rows


def test_not_utf8_is_refused_with_the_offset():
    data = GOOD.encode("utf-8")[:40] + b"\xff" + GOOD.encode("utf-8")[40:]
    assert verdict(read_export, data) == (
        "the file is not UTF-8 text (bad byte at offset 40); save it as UTF-8 CSV",
        0,
        "",
    )


def test_bare_cr_line_ends_and_a_bom_read_like_newlines():
    rows = [run_row(i) for i in range(4)]
    text = rows_to_csv(rows)
    assert read_rows(text.replace("\n", "\r")) == rows
    assert read_rows(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()) == rows
    bad = _replace_cell(text, 3, "gflops", "fast").replace("\n", "\r")
    assert verdict(read_export, bad) == ("row 3, column 'gflops': expected a finite number, got 'fast'", 3, "gflops")


def test_an_unterminated_quote_is_refused_at_its_row():
    lines = GOOD.split("\n")
    lines[3] = lines[3].replace("AMD EPYC", '"AMD EPYC', 1)
    message, row, column = verdict(read_export, "\n".join(lines))
    assert message.startswith("row ") and "not a readable CSV" in message and row >= 4 and column == ""


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


def test_padded_cells_are_stripped():
    text = _replace_cell(_replace_cell(GOOD, 3, "status", " ok "), 4, "device_name", "\tAMD EPYC ")
    frame = read_export(text.encode())
    assert frame.loc[1, "status"] == "ok" and frame.loc[2, "device_name"] == "AMD EPYC"
    assert list(frame["status"]) == ["ok"] * 6
