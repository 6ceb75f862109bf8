"""`results list` (issue 37): a table that fits 100 columns — a notebook cell, a terminal — with the run id and the
numbers whole and a long model name cut; `--verbose` adds each run's label and error under it; `--format csv`
gives every cell whole; `--json` and `--format json` the stored rows. The empty store's hint names the command as
it was typed."""

from __future__ import annotations

import csv
import io
import json

from conftest import run_row

from engine.cli import main
from engine.runs.store import Store

LONG_MODEL = "a_user_model_with_a_very_long_name_from_a_keras_file_that_would_wrap"


def _seed(db) -> list[dict]:
    rows = [
        run_row(1),
        run_row(2, kind="train", model=LONG_MODEL, backend="keras-torch", examples_per_sec=12345.6, label="colab t4"),
        run_row(3, status="interrupted", error="the worker stopped without writing its result (SIGKILL)"),
    ]
    store = Store(db)
    for row in rows:
        store.insert_run(row)
    return rows


def test_results_list_fits_100_columns_with_ids_and_numbers_whole(db, capsys):
    rows = _seed(db)
    assert main(["results", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["run_id", "status", "model", "device", "backend", "ms/step", "GFLOP/s", "examples/s"]
    assert len(lines) == 1 + len(rows) and max(len(line) for line in lines) <= 100, lines
    for row in rows:
        assert any(line.startswith(row["run_id"] + " ") for line in lines[1:])
    long = next(line for line in lines if line.startswith(rows[1]["run_id"]))
    assert "…" in long and LONG_MODEL not in long and "12,345.6" in long and "keras-torch" in long
    assert main(["results", "list", "--verbose"]) == 0
    verbose = capsys.readouterr().out.splitlines()
    assert "    label: colab t4" in verbose and max(len(line) for line in verbose) <= 100
    assert any(line.startswith("    error: the worker stopped") for line in verbose)


def test_results_list_as_csv_and_json_keeps_every_cell_whole(db, capsys):
    rows = _seed(db)
    assert main(["results", "list", "--format", "csv"]) == 0
    cells = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {c["run_id"] for c in cells} == {r["run_id"] for r in rows} and LONG_MODEL in {c["model"] for c in cells}
    for flags in (["--json"], ["--format", "json"]):
        assert main(["results", "list", *flags]) == 0
        assert {r["run_id"] for r in json.loads(capsys.readouterr().out)} == {r["run_id"] for r in rows}


def test_the_empty_store_hint_is_a_command_that_works(db, capsys, monkeypatch):
    assert main(["results", "list"]) == 0
    assert capsys.readouterr().out.strip() == "no runs yet — try: python -m engine run --bench matmul"
    monkeypatch.setattr("sys.argv", ["/usr/local/bin/accelbench", "results", "list"])
    assert main(["results", "list"]) == 0
    assert capsys.readouterr().out.strip() == "no runs yet — try: accelbench run --bench matmul"


def _in_a_terminal(args: list[str], columns: int, env: dict) -> list[str]:
    """`python -m engine ARGS` with its stdout on a real pseudo-terminal `columns` wide; the lines it printed."""
    import os
    import pty
    import subprocess
    import sys

    from conftest import ROOT

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, stdout=follower, stderr=subprocess.DEVNULL,
        env={**os.environ, **env, "COLUMNS": str(columns), "TF_CPP_MIN_LOG_LEVEL": "3"},
    )  # fmt: skip
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end closed: the command is done
            break
        if not chunk:
            break
        out += chunk
    assert proc.wait(timeout=120) == 0
    os.close(leader)
    return out.decode().replace("\r\n", "\n").splitlines()


def test_a_table_fits_the_terminal_it_is_printed_to_and_never_cuts_a_number(db, cli):
    """A terminal 80 columns wide gets a table 80 wide (the labels give way, every number whole); not a terminal
    (a pipe, a notebook cell), it is 100 wide whatever $COLUMNS says (issue 45)."""
    rows = _seed(db)
    lines = _in_a_terminal(["results", "list"], 80, {"ACCELBENCH_DB": str(db)})
    assert lines and max(len(line) for line in lines) <= 80, lines
    assert "left out for this terminal's width: backend, ms/step" in " ".join(lines)  # said, not silently
    assert any("12,346" in line or "12,345.6" in line for line in lines), lines  # the rate whole
    assert all(r["run_id"] in "\n".join(lines) for r in rows)  # an id is never cut
    piped = cli("results", "list", env={"ACCELBENCH_DB": str(db), "COLUMNS": "72"}).stdout.splitlines()
    assert 72 < max(len(line) for line in piped) <= 100
