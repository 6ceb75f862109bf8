"""Issue 43, items 1, 2 and 5: a column that does not fit its role is demoted (never a refused file), settings are
told from measurements by the data as well as the names, a file of settings alone is refused with one line, and
"Use on Compare" pairs two devices at the same settings. Small files written by the tests; the page's path
(`read_raw` → `apply_import`) and the CLI (`results import --auto`, in-process) are the same pipeline."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.imports.importer import apply_import, read_raw
from engine.imports.view.default_view import add_views, pooled
from engine.imports.view.imported import scaling
from engine.imports.view.imported_rates import headline, headline_why, rates_of_rows
from engine.results.errors import CsvError
from engine.results.history import metric_columns

KERNELS = ("conv2d_fwd", "conv2d_bwd", "gemm_fp16", "gemm_bf16", "layernorm", "softmax", "attention", "embedding")


def _report_lines() -> str:
    """A JSON Lines report of many flat keys: 8 kernels × 3 metrics + one key whose *name* says batch (a time)."""
    lines = []
    for run in range(3):
        record: dict[str, object] = {"gpu": "H100", "run": run, "warmup": 5}
        for i, kernel in enumerate(KERNELS):
            record |= {f"kernels.{kernel}.ms": 1.5 + i + run / 10, f"kernels.{kernel}.tflops": 300.0 + i,
                       f"kernels.{kernel}.bandwidth_gbs": 2000.0 + i}  # fmt: skip
        record["kernels.batch_norm_fwd.ms"] = 8.22  # 'batch' in its name, a float in its cell
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"


def _mapped(text: str, name: str):
    raw = read_raw(text.encode(), name)
    rows, notes = apply_import(raw.frame, raw.guess, name)
    return raw, rows, notes


def test_a_batch_named_key_holding_a_time_is_demoted_and_the_report_imports():
    raw, rows, notes = _mapped(_report_lines(), "report.jsonl")
    assert raw.guess.roles["kernels.batch_norm_fwd.ms"] == "value"
    said = next(n for n in notes if "kernels.batch_norm_fwd.ms" in n)
    assert "not the batch" in said and "row 1" in said and "8.22" in said and "measurement" in said
    norm = rows[rows["model"] == "kernels.batch_norm_fwd"]
    assert norm["Time (ms)"].tolist() == [8.22] * 3 and rows["global_batch_size"].isna().all()
    # keys split into benchmark · metric: three metrics over nine kernels, not 25 anonymous columns; `run` numbers
    # the repeats (a note), never a metric
    assert sorted(metric_columns(rows)) == ["Bandwidth (GB/s)", "Time (ms)", "tflops (TFLOPS)"]
    assert rows["model"].nunique() == 9 and raw.guess.roles["run"] == "label"
    assert raw.guess.roles["warmup"] == "setting" and set(rows["setting.warmup"]) == {"5"}  # one value: a setting


def test_the_cli_imports_the_same_report(tmp_path, capsys):
    path = tmp_path / "report.jsonl"
    path.write_text(_report_lines(), encoding="utf-8")
    assert main(["results", "import", str(path), "--auto"]) == 0
    out, err = capsys.readouterr()
    assert "is not the batch" in err and "mapped 75 rows" in err
    assert "kernels.batch_norm_fwd,Time (ms),8.22" in out


def _scaling_table() -> str:
    """A scaling table: two GPUs × 8/16 GPUs (1/2 nodes) × two sequence lengths × two global batches × a
    precision column in words, the micro-batch beside the global batch, per-GPU tokens/s and MFU."""
    rows = ["Model,GPU,Nodes,GPUs,Precision,MicroBatchSize,GlobalBatchSize,SeqLen,Throughput (T/s/GPU),MFU"]
    value = 1000
    for gpu in ("H100", "A100"):
        for nodes, gpus in ((1, 8), (2, 16)):
            for seq in (2048, 4096):
                for batch in (256, 512):
                    for precision in ("half", "single"):
                        value += 13
                        rows.append(
                            f"llama-7b,{gpu},{nodes},{gpus},{precision},2,{batch},{seq},{value},{40 + value % 7}"
                        )
    return "\n".join(rows) + "\n"


def test_repeating_columns_are_settings_and_no_bar_pools_them():
    raw, rows, notes = _mapped(_scaling_table(), "scaling.csv")
    g = raw.guess
    assert g.roles["SeqLen"] == "setting" and g.roles["Precision"] == "precision"  # never the device
    assert g.roles["GlobalBatchSize"] == "batch" and g.roles["MicroBatchSize"] == "setting"
    assert any("'SeqLen' is a setting" in n for n in notes) and "device count from column 'GPUs'" in "".join(notes)
    view = add_views(rows)
    assert set(rows["setting.SeqLen"]) == {"2048", "4096"}
    assert view["configuration"].str.contains("SeqLen 4096").any()
    metric = "Throughput per device (tokens/s)"  # a per-GPU header: never divided by the count again
    assert metric in metric_columns(rows) and "Throughput per device per device (tokens/s)" not in view.columns
    assert pooled(view, ["configuration", "workload"], metric).empty  # the default grouping pools nothing
    by_device = pooled(view, ["device_label", "workload"], metric)
    assert by_device["differs"].str.contains("SeqLen: 2048, 4096").all()  # ⚠ where a grouping does pool
    # each scaling line is one batch, sequence length and precision: 16 lines of 8 → 16 GPUs
    lines = scaling(rows, metric)
    assert lines["group"].nunique() == 16 and (lines.groupby("group").size() == 2).all()


def test_compare_rates_and_labels_keep_the_settings_apart():
    _, rows, _ = _mapped(_scaling_table(), "scaling.csv")
    rates = [r for r, _ in rates_of_rows(rows, "scaling.csv") if "Throughput" in r.id]
    assert len(rates) == 32 and len({r.label for r in rates}) == 32  # no two labels alike
    assert all(b.rows == 1 for _, b in rates_of_rows(rows, "scaling.csv"))  # no median across settings


def test_use_on_compare_pairs_two_devices_at_the_same_settings():
    text = "device,model,batch_size,images_per_sec\n" + "".join(
        f"{gpu},resnet50,{batch},{rate}\n"
        for gpu, batch, rate in [
            ("A100", 64, 1400),
            ("A100", 128, 1500),
            ("A100", 64, 1410),
            ("A100", 128, 1490),
            ("H100", 128, 3000),
            ("H100", 128, 3050),
        ]  # fmt: skip
    )
    _, rows, _ = _mapped(text, "sweep.csv")
    first, second = headline(rows, "sweep.csv")
    assert first.split(":")[-1].split("|")[0] != second.split(":")[-1].split("|")[0]  # two devices …
    assert first.endswith("|128") and second.endswith("|128")  # … at one batch size
    assert headline_why(rows, "sweep.csv") == ""
    _, alone, _ = _mapped(text.replace("H100", "A100"), "one.csv")
    assert "one device only" in headline_why(alone, "one.csv")


def test_a_settings_file_alone_is_refused_with_one_line(tmp_path, capsys):
    settings = {"model": "resnet50", "batch_size": 64, "precision": "half", "device": "RTX 3090", "num_workers": 4,
                "warmup": 5}  # fmt: skip
    raw = read_raw(json.dumps(settings).encode(), "config.json")
    with pytest.raises(CsvError, match="nothing in this file is a measurement"):
        apply_import(raw.frame, raw.guess, "config.json")
    path = tmp_path / "config.json"
    path.write_text(json.dumps(settings), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["results", "import", str(path), "--auto"])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1
    assert "nothing in this file is a measurement (settings only: num_workers" in err and "Traceback" not in err


def test_a_saved_mapping_that_gives_batch_to_a_float_demotes_it():
    raw = read_raw(b"hw,net,v,bs\nA100,b,1,32\nA100,b,2,3.5\n", "f.csv")
    m = raw.guess
    m.roles.update({"hw": "device", "net": "model", "v": "value", "bs": "batch"})
    rows, notes = apply_import(raw.frame, m, "f.csv")
    assert len(rows) == 4 and any("column 'bs' is not the batch (row 3 holds '3.5'" in n for n in notes)
