"""Issue 43 item 6: every file of the foreign corpus (real outputs of 18 tools, tests/data/foreign/SOURCES.md) is imported
headless and must show at first sight what EXPECTED.json says — the metric, its unit, the device and count, the file's own
numbers. A file that is not right today carries its failure class in EXPECTED.json ('now') and is a strict xfail here,
so the suite fails loudly the day it is fixed (then set its 'now' to 'right'). History's path and the CLI's `results
import --auto` must agree on every file: the same rows, or the same refusal. Skipped where the corpus bytes are absent
(they are kept under shared/, not in the repository: see foreign_corpus.corpus_dir)."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest
from foreign_corpus import RIGHT, corpus_dir, expected, git_blob, problems, read_bytes, shown

from engine.cli import main
from engine.imports.view.imported import to_long
from engine.results.errors import CsvError

EXPECTED = expected()
FOLDER = corpus_dir()
needs_corpus = pytest.mark.skipif(
    FOLDER is None, reason="foreign corpus bytes not found: set ACCELBENCH_FOREIGN_CORPUS"
)


def _case(name: str):
    exp = EXPECTED[name]
    if exp["now"] == RIGHT:
        return pytest.param(name, id=name)
    why = f"{exp['now']}: {exp['why']}"
    return pytest.param(name, id=name, marks=pytest.mark.xfail(strict=True, reason=why))


def test_the_corpus_is_varied_and_its_expectations_complete():
    tools = {e["tool"] for e in EXPECTED.values()}
    assert len(EXPECTED) >= 25 and len(tools) >= 12, (len(EXPECTED), sorted(tools))
    for name, exp in EXPECTED.items():
        assert len(exp["blob"]) == 40 and len(exp["commit"]) == 40 and exp["repo"] and exp["path"], name
        assert exp["unit"] and 1 <= len(exp["numbers"]) <= 4, name
        assert exp["now"] == RIGHT or exp["why"], f"{name}: say why it is not right"


@needs_corpus
@pytest.mark.parametrize("name", [_case(n) for n in sorted(EXPECTED)])
def test_each_file_is_right_at_first_sight(name):
    exp = EXPECTED[name]
    assert FOLDER is not None
    assert problems(read_bytes(FOLDER, name, exp), name, exp) == []


def _cli(tmp_path, name: str, exp: dict) -> pd.DataFrame | int:
    """The file imported alone by `results import FILE --auto` (no sidecar or batch table beside it): its long CSV, or
    the exit code it refused with."""
    assert FOLDER is not None
    shutil.copyfile(FOLDER / name, tmp_path / name)
    out = tmp_path / "mapped.csv"
    typed = ["--device", exp["typed_device"]] if exp.get("typed_device") else []
    try:
        main(["results", "import", str(tmp_path / name), "--auto", "--out", str(out), *typed])
    except SystemExit as exc:
        return int(exc.code or 0)
    return pd.read_csv(out)


@needs_corpus
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_history_and_the_cli_agree_on_every_corpus_file(name, tmp_path, db, capsys):
    exp = EXPECTED[name]
    assert FOLDER is not None
    data = read_bytes(FOLDER, name, exp)
    assert git_blob(data) == exp["blob"]
    try:
        view, _metric = shown(data, name, exp)
    except CsvError as exc:
        assert _cli(tmp_path, name, exp) == 2, f"History refused ({exc}); the CLI did not"
        assert "nothing was imported" in capsys.readouterr().err
        return
    long = _cli(tmp_path, name, exp)
    assert isinstance(long, pd.DataFrame), f"the CLI exited {long}; History mapped {len(view)} rows"
    page = to_long(view.drop(columns=[c for c in view.columns if " per device" in c or c == "configuration"]))
    assert len(long) == len(page)
    assert sorted(long["value"].round(9)) == sorted(pd.to_numeric(page["value"]).round(9))
    assert set(long["unit"].astype(str)) == set(page["unit"].astype(str))


# A small file the test writes in a vendor table's shape (values invented) that History maps right: the check passes it,
# and names each part that is not what the expectation says.
VENDOR = b"gpu,num_gpus,model,throughput_img_s\nH100 80GB SXM5,8,resnet50,21880\nH100 80GB SXM5,1,resnet50,2890\n"
RIGHT_VENDOR = {
    "metric": "throughput", "unit": "images/s", "device": "H100",
    "numbers": [{"value": 21880, "metric": "throughput (", "count": 8}, {"value": 2890, "where": {"device_count": 1}}],
}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({}, None),
        ({"device": "A100"}, "device ['H100'] (expected A100)"),
        ({"unit": "tokens/s"}, "unit ['images/s'] (expected tokens/s)"),
        ({"numbers": [{"value": 21880, "metric": "throughput (", "count": 4}]}, "device count [8.0] (expected 4)"),
        ({"numbers": [{"value": 2000}]}, "2000 not shown"),
        ({"typed_device": "H100"}, "names no device, but ['H100'] was taken"),
    ],
)
def test_the_check_passes_a_right_import_and_names_each_wrong_part(change, said):
    found = problems(VENDOR, "vendor.csv", {**RIGHT_VENDOR, **change})
    assert found == [] if said is None else any(said in p for p in found), found
