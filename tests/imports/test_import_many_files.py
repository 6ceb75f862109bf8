"""Issue 37: many files dropped at once. A batch-size companion is joined only into a table of its own family
(same framework, precision and mode, read from the file names), whatever order the files come in; `results import
--auto --no-join` leaves it out; rows of different frameworks are never one bar without ⚠: their configurations
name the framework (separate bars), and a grouping without the configuration lists them in History's `pooled` (the
page's ⚠ warning); the CLI notes a file that holds several. Small files the test writes,
in lambdal's shapes (values invented)."""

from __future__ import annotations

import pandas as pd
import pytest
from test_import_real_files import VENDOR

from engine.cli import main
from engine.imports.importer import apply_import, read_raw
from engine.imports.shape.companion import companions, family, join_batch
from engine.imports.view.default_view import add_views, default_group, pooled

BS = "name_gpu,num_gpu,resnet50,bert_large_squad\nLambdaCloud A10,1,32,8\nH100 80GB SXM5,1,256,32\n"
TF = VENDOR.replace("1753.0", "1500.0").replace("349.0", "300.0")
FILES = {
    "tensorflow-train-throughput-fp16.csv": TF,  # first: the old rule took the first table with the same columns
    "pytorch-train-throughput-fp32.csv": VENDOR,
    "pytorch-train-bs-fp32.csv": BS,
}


def _raws(order: list[str]):
    return {n: read_raw(FILES[n].encode(), n) for n in order}


@pytest.mark.parametrize("order", [list(FILES), list(reversed(FILES))])
def test_a_batch_table_completes_only_its_own_family(order):
    raws = _raws(order)
    assert family("pytorch-train-bs-fp32.csv", raws["pytorch-train-bs-fp32.csv"]) == ("PyTorch", "fp32", "train")
    assert companions(raws) == {"pytorch-train-bs-fp32.csv": "pytorch-train-throughput-fp32.csv"}
    alone = {n: r for n, r in raws.items() if not n.startswith("pytorch-train-throughput")}
    assert companions(alone) == {}  # its family's table is not loaded: no join into TensorFlow fp16


def _rows(name: str, raws) -> pd.DataFrame:
    return apply_import(raws[name].frame, raws[name].guess, name, None)[0]


def test_pytorch_and_tensorflow_rows_of_one_gpu_and_model_are_never_one_bar_without_a_warning():
    raws = _raws(list(FILES))
    tf32 = "tensorflow-train-throughput-fp32.csv"  # the same precision: only the framework tells the rows apart
    raws[tf32] = read_raw(TF.encode(), tf32)
    rows = pd.concat([_rows(n, raws) for n in (tf32, "pytorch-train-throughput-fp32.csv")], ignore_index=True)
    assert set(rows["framework"]) == {"PyTorch", "TensorFlow"}
    df = add_views(rows)
    by = default_group(df, ["configuration", "workload"])
    assert pooled(df, by, "examples_per_sec").empty  # each framework is its own bar, named in its configuration
    h100 = set(df.loc[(df["device_label"] == "H100") & (df["device_count"] == 2), "configuration"])
    assert h100 == {"2× H100 · 80GB · SXM5 · PyTorch", "2× H100 · 80GB · SXM5 · TensorFlow"}
    pools = pooled(df, ["device_label", "workload"], "examples_per_sec")  # grouped without the configuration: ⚠
    assert len(pools) and pools["differs"].str.contains("framework: PyTorch, TensorFlow").all(), pools
    joined, matched = join_batch(_rows("pytorch-train-throughput-fp32.csv", raws), "pytorch-train-throughput-fp32.csv",
                                 raws["pytorch-train-throughput-fp32.csv"], raws["pytorch-train-bs-fp32.csv"])  # fmt: skip
    assert matched == 4 and set(joined["global_batch_size"].dropna()) == {8, 32, 256}  # A10 and H100, 2 models


def _auto(tmp_path, name: str, *extra: str) -> tuple[pd.DataFrame, str]:
    out = tmp_path / f"{name}.out.csv"
    assert main(["results", "import", str(tmp_path / name), "--auto", "--out", str(out), *extra]) == 0
    return pd.read_csv(out), ""


@pytest.fixture
def folder(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_auto_joins_the_family_companion_and_no_join_turns_it_off(folder, db, capsys):
    long, _ = _auto(folder, "pytorch-train-throughput-fp32.csv")
    assert "Batch size from pytorch-train-bs-fp32.csv" in capsys.readouterr().err
    assert 256 in set(long["global_batch_size"])
    long, _ = _auto(folder, "pytorch-train-throughput-fp32.csv", "--no-join")
    assert "Batch size from" not in capsys.readouterr().err and long["global_batch_size"].isna().all()
    long, _ = _auto(folder, "tensorflow-train-throughput-fp16.csv")
    err = capsys.readouterr().err
    assert "Batch size from" not in err and long["global_batch_size"].isna().all()
    assert set(long["framework"]) == {"TensorFlow"} and set(long["precision"]) == {"fp16"}


def test_auto_warns_when_one_file_holds_rows_of_several_frameworks(tmp_path, db, capsys):
    (tmp_path / "runs.csv").write_text("gpu,framework,model,throughput_img_s\nV100,PyTorch,resnet50,1200\n"
                                       "V100,TensorFlow,resnet50,1100\n", encoding="utf-8")  # fmt: skip
    _auto(tmp_path, "runs.csv")
    assert "⚠ rows of 2 frameworks (PyTorch, TensorFlow)" in capsys.readouterr().err


def _dropped_at_once(folder) -> pd.DataFrame:
    """Every file of public_files mapped as History maps a drop of all of them: sidecars paired by name, batch
    tables joined into their family's table, every other table with its proposed mapping (one that cannot be
    mapped — the report that names no device — is an error on the page, never rows)."""
    from public_files import write_all

    from engine.imports.read.foreign_json import is_sidecar, read_sidecar, sidecar_for
    from engine.results.errors import CsvError

    data = {p.name: p.read_bytes() for p in write_all(folder)}
    side = {n: read_sidecar(d, n) for n, d in data.items() if is_sidecar(d, n)}
    raws = {n: read_raw(d, n) for n, d in data.items() if n not in side}
    joins = companions(raws)
    assert joins == {"pytorch-train-bs-fp32.csv": "pytorch-train-throughput-fp32.csv"}
    frames = []
    for name, raw in raws.items():
        if name in joins:
            continue
        found = sidecar_for(name, list(side))
        try:
            rows = apply_import(raw.frame, raw.guess, name, side[found] if found else None)[0]
        except CsvError:
            continue
        for batch, into in joins.items():
            if into == name:
                rows = join_batch(rows, name, raw, raws[batch])[0]
        frames.append(rows)
    return add_views(pd.concat(frames, ignore_index=True))


def test_the_public_files_dropped_at_once_pool_nothing_silently(tmp_path):
    from engine.imports.view.default_view import POOL_PARTS, SPEED_PARTS
    from engine.results.history import group_label, metric_columns

    df = _dropped_at_once(tmp_path)
    by = default_group(df, ["configuration", "workload"])
    assert by == ["configuration", "workload"]
    for metric in metric_columns(df):
        data = df.dropna(subset=[metric])
        parts = [c for c in POOL_PARTS if c not in SPEED_PARTS and c not in by and c in data and data[c].notna().any()]
        listed = set(pooled(df, by, metric)["group"])
        labels = group_label(data, by)
        for group, rows in data.groupby(labels):
            mixed = len(rows[parts].astype("string").fillna("—").drop_duplicates()) > 1 if parts else False
            mixed = mixed or rows["framework"].astype("string").fillna("—").nunique() > 1
            assert not mixed or group in listed, (metric, group, rows[[*parts, "framework"]].drop_duplicates())
    # the PyTorch and TensorFlow rows of one H100 and model: two bars, each named by its framework
    resnet = df[(df["workload"] == "resnet50") & (df["device_label"] == "H100") & (df["device_count"] == 2)]
    assert set(resnet["configuration"]) == {
        "2× H100 · 80GB · SXM5 · PyTorch · fp32",
        "2× H100 · 80GB · SXM5 · TensorFlow · fp32",
    }
