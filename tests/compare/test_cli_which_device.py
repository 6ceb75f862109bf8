"""`python -m engine compare --run ID --device all [--json] [--price KEY=USD]` on a store holding a real tiny_cnn
run made by the engine (conftest `seeded`): every device in one table, fastest first; one-line errors (exit 2)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from engine.cli import main


def test_device_all_json_lists_every_device_sorted_with_basis_range_and_cost(db_env, capsys):
    _, runs = db_env
    run_id = runs["train"]["run_id"]
    assert main(["compare", "--run", run_id, "--device", "all", "--json", "--price", "h100=1.5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["run_id"] == run_id and out["unit"] == "examples/s" and out["workload"] == "tiny_cnn"
    devices = out["devices"]
    keys = [d["hardware_key"] for d in devices]
    assert {"h100", "h200", "b200", "gh200", "h100_pcie", "l40s", "mi300x", "t4", "tpu_v5e", "tpu_v6e"} <= set(keys)
    rates = [d["rate_one_device"] for d in devices]
    assert rates == sorted(rates, reverse=True)
    for d in devices:
        assert {"hardware_key", "device", "rate_one_device", "basis", "range", "speedup", "epoch_time_s",
                "usd_per_million_examples", "price", "how"} <= set(d)  # fmt: skip
        if d["basis"] == "estimate":
            assert d["range"] is not None and d["range"][0] <= d["rate_one_device"] <= d["range"][1] * 1.0001
        # one scale (issue 36): every row's anchor, ratio and its source, precision, per GPU or chip, rental
        assert {"anchor", "ratio", "ratio_source", "precision", "per", "devices_per_rental"} <= set(d)
        assert d["per"] == ("chip" if d["hardware_key"].startswith("tpu") else "gpu")
    h100 = devices[keys.index("h100")]
    assert h100["price_whose"] == "yours" and h100["price"].startswith("user: $1.5/h")
    assert h100["usd_per_million_examples"] == pytest.approx(1.5 / 3600 * 1e6 / h100["rate_one_device"])
    t4 = devices[keys.index("t4")]
    assert t4["price_whose"] == "price table" and "price table" in t4["price"]
    steps, batch, epochs = (float(runs["train"][k]) for k in ("steps_per_epoch", "global_batch_size", "epochs"))
    assert t4["epoch_time_s"] == pytest.approx(steps * batch * epochs / t4["rate_one_device"])


def test_device_all_plain_text_table(db_env, capsys):
    """A table that fits 100 columns (a notebook cell, issue 37); each device's prose under it with --verbose;
    the same rows whole as CSV."""
    _, runs = db_env
    assert main(["compare", "--run", runs["train"]["run_id"], "--device", "all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Which device? tiny_cnn, examples/s per one device, fastest first")
    assert max(len(line) for line in lines) <= 100, max(lines, key=len)
    head = next(i for i, line in enumerate(lines) if line.startswith("device "))
    assert "ex/s (1 device)" in lines[head] and "your epochs" in lines[head] and "USD/M ex" in lines[head]
    body = lines[head + 1 :]
    assert any(line.startswith("H100 ") for line in body) and any(line.startswith("MI300X ") for line in body)
    assert all("estimate" in line for line in body if line.startswith("B200 "))
    table = body[: next((i for i, line in enumerate(body) if not line[:1].isalnum()), len(body))]
    assert not [line for line in table if re.search(r"(?<![a-z\d])\d[\d,.]*…", line)], "a number cut short (only labels give up width: 'bf16…')"
    assert main(["compare", "--run", runs["train"]["run_id"], "--device", "all", "--verbose"]) == 0
    verbose = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in verbose) <= 100 and len(verbose) > len(lines)
    assert any(line.startswith("    ") and "price table" in line for line in verbose)
    assert main(["compare", "--run", runs["train"]["run_id"], "--device", "all", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0][:2] == ["device", "precision · stack"] and rows[0][-1] == "how"
    assert {"H100", "MI300X"} <= {r[0] for r in rows[1:]} and all(len(r) == len(rows[0]) for r in rows)


def test_device_all_errors_are_one_line_exit_2(db_env, capsys):
    _, runs = db_env
    for args, words in (
        (["--run", runs["train"]["run_id"], "--device", "gtx9000"], "unknown device 'gtx9000'"),
        (["--run", runs["train"]["run_id"], "--device", "all", "--price-usd-h", "2"], "--price KEY=USD"),
        (["--run", runs["train"]["run_id"], "--device", "all", "--price", "h100"], "not KEY=USD"),
        (["--run", runs["matmul"]["run_id"], "--device", "all"], "not a training run"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(["compare", *args])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and err.count("\n") == 1 and words in err, err
