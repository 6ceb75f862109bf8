"""Compare's "Which device?" section under AppTest on the seeded database (a real tiny_cnn run and a real
matmul made by the engine): one sorted chart (estimates lighter and hatched, with their range), the table with
units in its headers, the user's epochs, and one line saying what to pick for a microbenchmark."""

from __future__ import annotations

import pytest
from page_helpers import no_exception, page, specs


def _which_chart(at) -> dict:
    return next(s for s in specs(at) if str(s["layout"]["title"]["text"]).startswith("One device's training rate"))


def _which_table(at):
    return next(d.value for d in at.dataframe if "Examples/s (one device)" in d.value.columns)


def test_which_device_chart_and_table_for_a_training_run(db_env):
    _, runs = db_env
    run = runs["train"]
    at = page("compare")
    at.query_params["run"] = run["run_id"]
    at.run()
    no_exception(at)
    assert "Which device?" in [s.value for s in at.subheader]
    chart = _which_chart(at)
    names = {t.get("name") for t in chart["data"]}
    assert "estimate (lighter, hatched; bar = range)" in names and "your run (1×)" in names
    est = next(t for t in chart["data"] if str(t.get("name")).startswith("estimate"))
    assert est["marker"]["pattern"]["shape"] == "/" and est["marker"]["color"].endswith(",0.25)")
    assert chart["layout"]["xaxis"]["title"]["text"].startswith("Training rate of ONE device (examples/s")
    table = _which_table(at)
    assert list(table.columns) == [
        "Device", "Basis", "Precision · stack", "Examples/s (one device)", "× faster", "Time for your epochs",
        "USD / M examples", "USD/h",
    ]  # fmt: skip
    devices = list(table["Device"])
    assert {"H100", "B200", "MI300X", "L40S", "GH200", "H100 PCIe", "TPU v5e"} <= set(devices)
    assert devices[-1] == "your run"
    assert table["Precision · stack"].iloc[-1] == "fp32 · TF"  # every row says what it ran with, the run too
    estimates = table[table["Basis"].str.startswith("estimate")]
    assert len(estimates) and all(t.startswith("≤") or "(" in t for t in estimates["Examples/s (one device)"])
    assert at.number_input(key="cmp_which_examples").value == int(run["steps_per_epoch"]) * int(
        run["global_batch_size"]
    )
    assert at.number_input(key="cmp_which_epochs").value == int(run["epochs"])
    assert table.loc[table["Device"] == "H100", "USD/h"].item() == "$6.88"
    how = next(e for e in at.expander if e.label == "How each figure was found, and whose price")
    assert "**B200** (" in how.markdown[0].value and "price table" in how.markdown[0].value
    captions = " ".join(c.value for c in at.caption)
    assert "Time for your epochs: 2 epochs of 96 examples" in captions
    assert "one device is one GPU or one TPU chip" in captions and ("One scale" in captions or "No device" in captions)
    assert "No price in the price table for" in captions and "give yours under *Your prices*" in captions
    # the user's own dataset: 60,000 examples × 10 epochs
    at.number_input(key="cmp_which_examples").set_value(60_000)
    at.number_input(key="cmp_which_epochs").set_value(10).run()
    no_exception(at)
    assert "Time for your epochs: 10 epochs of 60,000 examples" in " ".join(c.value for c in at.caption)
    mine = _which_table(at).set_index("Device").loc[devices[-1], "Time for your epochs"]
    rate = float(run["examples_per_sec"])
    assert mine.endswith(("s", "min", "h"))
    assert abs(600_000 / rate / 60 - float(mine.split()[0].replace(",", ""))) < 1 or not mine.endswith("min")


def test_which_device_for_a_microbenchmark_says_what_to_pick(db_env):
    _, runs = db_env
    at = page("compare")
    at.query_params["run"] = runs["matmul"]["run_id"]
    at.run()
    no_exception(at)
    assert "Which device?" in [s.value for s in at.subheader]
    assert any(c.value.startswith("Which device? needs a training run: pick one under *Runs*") for c in at.caption)
    assert not [s for s in specs(at) if str(s["layout"]["title"]["text"]).startswith("One device's training rate")]


def test_with_no_training_run_anywhere_the_section_starts_the_quick_training_check(db_env, tmp_path, monkeypatch):
    """Quick check (a matmul) is the first preset every empty page points at; its Compare must not be a dead end:
    with no training run in the store, "Which device?" starts the shortest training preset — a real run — and that
    run's Compare ranks every device."""
    import shutil
    import sqlite3

    from engine.runs import jobs
    from engine.runs.store import Store

    db = tmp_path / "matmul_only.db"
    shutil.copy(db_env[0], db)
    with sqlite3.connect(db) as con:  # the store as after Quick check alone: one matmul
        con.execute("DELETE FROM runs WHERE kind = 'train'")
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = page("compare")
    at.query_params["run"] = db_env[1]["matmul"]["run_id"]
    at.run()
    no_exception(at)
    assert any(c.value.startswith("No training run in your results yet") for c in at.caption)
    at.button(key="cmp_which_quick_train").click().run()
    no_exception(at)
    run_id = at.session_state["run_id"]
    row = jobs.wait(run_id, Store(db))
    assert row["status"] == "ok" and row["model"] == "reuters_conv1d" and row["kind"] == "train"
    after = page("compare")
    after.query_params["run"] = run_id
    after.run()
    no_exception(after)
    assert {"H100", "T4", "TPU v5e"} <= set(_which_table(after)["Device"])


def test_with_a_training_run_in_the_store_the_section_points_to_it_and_starts_nothing(db_env):
    _, runs = db_env
    at = page("compare")
    at.query_params["run"] = runs["matmul"]["run_id"]
    at.run()
    assert not [b for b in at.button if b.key == "cmp_which_quick_train"]
    assert not any(c.value.startswith("No training run in your results yet") for c in at.caption)


@pytest.mark.parametrize(("model", "batch", "eps"), [("reuters_conv1d", 32, 1500.0), ("resnet50", 16, 9.0)])
def test_the_answer_box_and_which_device_give_each_device_one_figure(tmp_path, monkeypatch, model, batch, eps):
    """Issue 45: on one page, the box's table and "Which device?" read one answer — every device row of the box
    (measured, scaled or estimate; a figure beside the scale aside) has the rate "Which device?" ranks it at."""
    from conftest import run_row

    from engine.compare.which import which_device
    from engine.reference.data import load_reference
    from engine.runs.store import Store

    run = run_row(7, kind="train", model=model, shape=None, backend="torch", global_batch_size=batch,
                  per_replica_batch_size=batch, epochs=2, steps_per_epoch=10, examples_per_sec=eps,
                  step_time_ms_median=batch / eps * 1000, framework_version="torch 2.13")  # fmt: skip
    db = tmp_path / "one.db"
    Store(db).insert_run(run)
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = page("compare")
    at.query_params["run"] = run["run_id"]
    at.run()
    no_exception(at)
    w = which_device(run, load_reference(), store_runs=[])
    assert w is not None
    ranked = [r.rate_one_device for r in w.rows]
    box = next(d.value for d in at.dataframe if "Like for like" in d.value.columns)
    rows = box[box["Basis"].isin(["measured", "scaled", "ESTIMATE"]) & box["One device"].notna()]
    rows = rows[~rows["Row"].str.contains("published")]
    assert len(rows) >= 8, box[["Row", "Basis", "One device"]]
    for label, value in zip(rows["Row"], rows["One device"], strict=True):
        assert any(abs(value - r) <= 6e-4 * r for r in ranked), (label, value, sorted(ranked))  # shown to 4 digits
