"""Other tools' results files, one test per shape, each written by the test and loaded through the code the
History page uses (engine.imports.importer.read_raw → apply_import): wide tables, system names that carry
their configuration, JSON records and nested documents, time series, headerless telemetry, metadata
sidecars, and separators / encodings / line ends as they come."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.imports.facts.import_mapping import ValueSpec
from engine.imports.identity.systems import preview
from engine.imports.importer import apply_import, load_foreign, read_raw
from engine.imports.read.foreign_json import read_sidecar, sidecar_for
from engine.results import history
from engine.results.errors import CsvError

WIDE = (
    "System,ResNet-50 (images/s),BERT-Large (sequences/s),GPT-J (tokens/s)\n"
    "8x H100 80GB SXM5 (host-3),25000,9000,4000\n"
    "2x RTX 3090 NVLink,2400,OOM,300\n"
    "1x A100 80GB PCIe,2900,1100,600\n"
)


def load(text: str | bytes, name: str = "f.csv", sidecar=None) -> tuple[pd.DataFrame, list[str]]:
    data = text.encode() if isinstance(text, str) else text
    return load_foreign(data, name, None, sidecar)


def test_wide_table_melts_to_long_rows_with_a_unit_per_column():
    raw = read_raw(WIDE.encode(), "wide.csv")
    assert raw.guess.shape == "wide"
    assert {c: (v.model, v.unit) for c, v in raw.guess.values.items()} == {
        "ResNet-50 (images/s)": ("ResNet-50", "images/s"),
        "BERT-Large (sequences/s)": ("BERT-Large", "sequences/s"),
        "GPT-J (tokens/s)": ("GPT-J", "tokens/s"),
    }
    rows, notes = apply_import(raw.frame, raw.guess, "wide.csv")
    assert len(rows) == 8 and "BERT-Large (sequences/s) (1)" in notes[0]  # the OOM cell is named
    # images/s and sequences/s are examples/s (AccelBench's own axis, reaches Compare as it is); tokens/s is not
    assert history.metric_columns(rows) == ["examples_per_sec", "Throughput (tokens/s)"]
    h100 = rows[(rows["device_label"] == "H100") & (rows["model"] == "GPT-J")]
    assert h100["Throughput (tokens/s)"].tolist() == [4000.0] and h100["device_count"].tolist() == [8]
    assert history.higher_is_better("Throughput (tokens/s)") is True


def test_system_names_split_by_editable_rules_and_normalised_by_the_hardware_table():
    names = pd.Series(["8x H100 80GB SXM5 (host-3)", "2x RTX 3090 NVLink", "NVIDIA Tesla P100 (DGX-1)", "Tesla P40"])
    table = preview(names)
    assert table["device_count"].tolist()[:2] == [8, 2]
    assert table["device_model"].tolist() == ["H100", "RTX 3090", "P100", "P40"]
    assert table["variant"].tolist()[:2] == ["", "NVLink"]
    assert table["memory_gb"].tolist()[0] == 80 and table["form_factor"].tolist()[0] == "SXM5"
    assert table["note"].tolist()[0] == "host-3" and table["note"].tolist()[2] == "DGX-1"
    assert table["hardware_key"].fillna("-").tolist() == ["h100", "-", "p100", "-"]  # 'P40' is not the table's P4
    mine = preview(names, [r"^(?P<count>\d+)x (?P<model>\w+) (?P<variant>.*)$"])  # the user's own rule
    assert mine["device_model"].tolist()[:2] == ["H100", "RTX"] and mine["variant"].iloc[0] == "80GB SXM5 (host-3)"
    with pytest.raises(CsvError, match="needs a"):
        preview(names, [r"^(?P<count>\d+)"])


def test_json_array_of_records_one_line_without_final_newline():
    text = '[{"gpu":"V100","model":"resnet50","throughput_img_s":1200},{"gpu":"T4","model":"resnet50","throughput_img_s":400}]'
    raw = read_raw(text.encode(), "runs.json")
    assert raw.guess.shape == "json" and raw.how.startswith("JSON, 2 records")
    rows, _ = apply_import(raw.frame, raw.guess, "runs.json")
    assert rows["examples_per_sec"].tolist() == [1200.0, 400.0] and rows["device_label"].tolist() == ["V100", "T4"]


def test_nested_json_documents_flatten_and_the_user_picks_fields():
    text = (
        '{"runs": [{"config": {"model": "bert", "batch_size": 32, "precision": "bf16"},'
        ' "env": {"gpu": "A100-SXM4-40GB", "driver": "535"}, "report": {"latency_ms": 5.5, "qps": 180.0}},'
        ' {"config": {"model": "bert", "batch_size": 64, "precision": "bf16"},'
        ' "env": {"gpu": "A100-SXM4-40GB", "driver": "535"}, "report": {"latency_ms": 9.0, "qps": 220.0}}]}'
    )
    raw = read_raw(text.encode(), "nested.json")
    roles = raw.guess.roles
    assert roles["config.model"] == "model" and roles["config.batch_size"] == "batch" and roles["env.gpu"] == "device"
    raw.guess.roles["report.qps"] = "ignore"  # the user keeps only the latency
    rows, notes = apply_import(raw.frame, raw.guess, "nested.json")
    assert history.metric_columns(rows) == ["Latency (ms)"] and "report.qps" in " ".join(notes)
    assert rows["device_label"].tolist() == ["A100", "A100"] and rows["global_batch_size"].tolist() == [32, 64]
    assert history.higher_is_better("Latency (ms)") is False


@pytest.mark.parametrize("unit, scale", [("h", 3600), ("s", 1)])
def test_time_to_accuracy_series_with_the_time_unit_and_accuracy_as_fraction_or_percent(unit, scale):
    text = f"epoch\telapsed ({unit})\taccuracy\n1\t0.5\t0.42\n2\t1.0\t0.71\n3\t1.5\t0.931\n"
    raw = read_raw(text.encode(), "tta.tsv")
    assert raw.guess.shape == "timeseries" and raw.guess.time_unit == unit
    rows, _ = apply_import(raw.frame, raw.guess, "tta.tsv", {"hardware": "8x V100"})
    assert rows["elapsed_s"].tolist() == [0.5 * scale, 1.0 * scale, 1.5 * scale]
    assert rows["Accuracy (%)"].round(1).tolist() == [42.0, 71.0, 93.1]  # a fraction becomes percent
    percent = text.replace("0.42", "42").replace("0.71", "71").replace("0.931", "93.1")
    again, _ = load(percent, "tta.tsv", {"hardware": "8x V100"})
    assert again["Accuracy (%)"].tolist() == [42.0, 71.0, 93.1]


def test_headerless_telemetry_with_units_in_cells():
    text = (
        "2024/05/01 10:00:00.000, NVIDIA H100 80GB HBM3, 0, 100 %, 67388 MiB, 71 C, 350.20 W\n"
        "2024/05/01 10:00:01.000, NVIDIA H100 80GB HBM3, 0, 98 %, 67390 MiB, 72 C, 348.00 W\n"
    )
    raw = read_raw(text.encode(), "smi.csv")
    assert raw.guess.shape == "telemetry" and "no header" in raw.how
    rows, _ = apply_import(raw.frame, raw.guess, "smi.csv")
    assert rows["Memory used (MiB)"].dropna().tolist() == [67388.0, 67390.0]
    assert rows["Temperature (C)"].dropna().tolist() == [71.0, 72.0]
    assert rows["date"].notna().all() and set(rows["device_label"]) == {"H100"}
    bad = read_raw(text.replace("72 C", "72 F").encode(), "smi.csv")  # read with the good file's mapping
    with pytest.raises(CsvError) as exc:
        apply_import(bad.frame, raw.guess, "smi.csv")
    assert (exc.value.row, exc.value.column) == (2, "column 6")


def test_a_sidecar_json_or_yaml_is_joined_to_every_row():
    text = "epoch\thours\ttop1Accuracy\n1\t0.5\t40.1\n2\t1.0\t76.2\n"
    meta_json = '{"hardware": "8x V100 (p3.16xlarge)", "framework": "PyTorch 1.0", "costPerHour": 24.48}'
    meta_yaml = "hardware: 8x V100 (p3.16xlarge)\nframework: PyTorch 1.0\ncostPerHour: 24.48\n"
    assert sidecar_for("run.tsv", ["run.tsv", "run.json"]) == "run.json"
    for meta in (read_sidecar(meta_json, "run.json"), read_sidecar(meta_yaml, "run.yaml")):
        rows, _ = load(text, "run.tsv", meta)
        assert rows["device_label"].tolist() == ["V100", "V100"] and rows["device_count"].tolist() == [8, 8]
        assert rows["framework"].tolist() == ["PyTorch 1.0"] * 2 and rows["price_usd_per_h"].tolist() == [24.48] * 2
        assert rows["elapsed_s"].tolist() == [1800.0, 3600.0]


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode("utf-8"),
        lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
        lambda t: t.encode("utf-16"),
        lambda t: t.encode("latin-1"),
        lambda t: t.replace("\n", "\r\n").encode("utf-8"),
    ],
    ids=["utf8", "utf8-bom", "utf16", "latin1", "crlf"],
)
@pytest.mark.parametrize("sep", [",", "\t", ";"])
def test_separators_encodings_and_line_ends(encode, sep):
    text = sep.join(["", "Model", "GPUs", "img/s"]) + "\n"
    text += sep.join(["Tesla V100", "résnet", "1.0", "1200"]) + "\n" + sep.join(["Tesla V100", "résnet", "8.0", "9000"])
    rows, _ = load(encode(text), "x.csv")  # no final newline either
    assert rows["model"].tolist() == ["résnet", "résnet"]
    assert rows["device_count"].tolist() == [1, 8]  # '1.0' where a count is meant
    assert rows["device_label"].tolist() == ["V100", "V100"]  # the empty first header cell is the row label


def test_a_malformed_cell_names_row_and_column_and_loads_nothing():
    bad = WIDE.replace("2400", "2.4k")
    with pytest.raises(CsvError) as exc:
        load(bad)
    assert (exc.value.row, exc.value.column) == (3, "ResNet-50 (images/s)") and "'2.4k'" in str(exc.value)


def test_a_user_direction_overrides_the_unit_and_marks_the_metric():
    text = "Accelerator,# of Accelerators,ResNet\nH100,8,13.5\nA100,8,28.7\n"
    raw = read_raw(text.encode(), "t.csv")
    raw.guess.values["ResNet"] = ValueSpec("Score", "pts", "ResNet", "lower")
    rows, _ = apply_import(raw.frame, raw.guess, "t.csv")
    (name,) = history.metric_columns(rows)
    assert name == "Score (pts) · lower is better" and history.higher_is_better(name) is False
