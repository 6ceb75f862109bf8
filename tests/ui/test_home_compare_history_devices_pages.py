"""Home, Compare, History and Devices under AppTest, on a results database seeded with real runs
(a 64³ matmul and a tiny training run, both through the CLI): what each page shows, the preset
launch, demo-mode refusals, uploads (good, bad and foreign files), and widget keys."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import ROOT, run_cli
from streamlit.testing.v1 import AppTest

from engine.runs import jobs
from engine.runs.store import Store

APP = str(ROOT / "app.py")
PAGES = {name: str(ROOT / "pages" / f"{name}.py") for name in ("home", "compare", "history", "devices")}
PREFIX = {"home": "home_", "compare": "cmp_", "history": "hist_", "devices": "dev_"}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """A database with one finished matmul and one finished training run, made by the real engine."""
    db = tmp_path_factory.mktemp("pages") / "results.db"
    env = {"ACCELBENCH_DB": str(db)}
    for args in (
        ("run", "--bench", "matmul", "--m", "64", "--n", "64", "--k", "64", "--repeats", "5", "--json"),
        ("run", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "32", "--epochs", "2",
         "--steps-per-epoch", "3", "--json"),
    ):  # fmt: skip
        proc = run_cli(*args, env=env)
        assert proc.returncode == 0, proc.stderr[-2000:]
    runs = {r["kind"]: r for r in Store(db).list_runs()}
    return db, runs


@pytest.fixture
def db_env(seeded, monkeypatch):
    db, runs = seeded
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    return db, runs


def page(name: str) -> AppTest:
    return AppTest.from_file(PAGES[name], default_timeout=60)


def specs(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def widget_keys(at) -> list[str]:
    kinds = ("button", "selectbox", "multiselect", "toggle", "number_input", "text_input", "date_input", "checkbox")
    keys = [w.key for kind in kinds for w in getattr(at, kind)]
    keys += [w.proto.id.split("-")[-1] for w in at.get("file_uploader")]
    return keys


def no_exception(at) -> None:
    assert not at.exception, [e.message for e in at.exception]


# --- Home ----------------------------------------------------------------------------------------


def test_home_lists_the_latest_runs_and_every_preset(db_env):
    _, runs = db_env
    at = AppTest.from_file(APP, default_timeout=60).run()  # Home is the default page of the real router
    no_exception(at)
    assert at.title[0].value == "AccelBench"
    table = at.dataframe[0].value
    assert {r["run_id"] for r in runs.values()} <= set(table["run_id"])
    assert set(table["status"]) == {"ok"}
    assert any("GFLOP/s" in v for v in table["result"]) and any("examples/s" in v for v in table["result"])
    buttons = {b.key for b in at.button}
    assert {"home_run_quick_matmul", "home_run_article000_conv", "home_run_article002_matmul",
            "home_run_article000_fashion", "home_run_article002_reuters", "home_run_article003_resnet50"} <= buttons  # fmt: skip


def test_home_preset_launches_a_real_run_and_opens_the_run_page(db_env, tmp_path, monkeypatch):
    db = tmp_path / "launch.db"  # a copy: the new run must not change what the other tests see
    shutil.copy(db_env[0], db)
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.button(key="home_run_quick_matmul").click().run()
    run_id = at.session_state["run_id"]
    assert at.query_params["run"] == [run_id] or at.query_params["run"] == run_id
    row = jobs.wait(run_id, Store(db))
    assert row["status"] == "ok" and row["shape"] == "(512x512)@(512x512)"


def test_home_in_demo_mode_refuses_an_oversized_preset_and_stores_nothing(db_env, monkeypatch):
    db, _ = db_env
    monkeypatch.setenv("ACCELBENCH_DEMO", "1")
    before = Store(db).count_runs()
    at = page("home").run()
    at.button(key="home_run_article002_matmul").click().run()
    no_exception(at)
    assert any("Demo mode" in i.value for i in at.info)
    assert any("Matrix size — demo mode allows sizes up to 2048, got 100000" in e.value for e in at.error)
    assert Store(db).count_runs() == before


def test_home_without_runs_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "empty.db"))
    at = page("home").run()
    no_exception(at)
    assert any("No runs yet" in i.value for i in at.info)


# --- Compare -------------------------------------------------------------------------------------


def test_compare_preselects_the_linked_run_next_to_references(db_env):
    _, runs = db_env
    at = page("compare")
    at.query_params["run"] = runs["matmul"]["run_id"]
    at.run()
    no_exception(at)
    assert at.multiselect(key="cmp_runs").value == [runs["matmul"]["run_id"]]
    refs = at.multiselect(key="cmp_refs").value
    assert refs and all(r.startswith("SEED-TF-GPU-SETTINGS") for r in refs)  # article 002's matmul times
    assert not at.warning  # the grade table replaced the "Not like for like" box
    headline = [m.value for m in at.markdown if "On article 002's matmul" in str(m.value)]
    assert headline and "faster than this CPU" in headline[0] and "per FLOP" in headline[0]
    assert at.selectbox(key="cmp_baseline").value == "this CPU"  # the user's own run is the baseline
    assert at.selectbox(key="cmp_metric").value == "rate"
    charts = specs(at)
    bars, speedup = charts[0], charts[1]
    assert bars["layout"]["xaxis"]["title"]["text"].startswith("Rate of work")
    assert bars["layout"]["xaxis"]["type"] == "linear" and speedup["layout"]["xaxis"]["type"] == "log"
    # coloured by device type, the user's own runs in their own colour
    assert {"This machine", "CPU (reference)", "GPU (reference)", "hatched = derived or doubtful"} <= {
        t["name"] for t in bars["data"]
    }


def test_compare_session_run_id_and_training_charts(db_env):
    _, runs = db_env
    at = page("compare")
    at.session_state["run_id"] = runs["train"]["run_id"]
    at.run()
    no_exception(at)
    assert at.multiselect(key="cmp_runs").value == [runs["train"]["run_id"]]
    assert at.selectbox(key="cmp_metric").value == "throughput"
    assert len(specs(at)) == 1  # only the open tab is drawn
    at.session_state["cmp_tab"] = "Step times"
    at.run()
    assert specs(at)[0]["layout"]["title"]["text"].startswith("Step-time distribution")
    at.session_state["cmp_tab"] = "Loss & accuracy"
    at.run()
    titles = {s["layout"]["title"]["text"] for s in specs(at)}
    assert any(t.startswith("Training loss") for t in titles) and any(t.startswith("Training accuracy") for t in titles)
    at.multiselect(key="cmp_runs").set_value([runs["train"]["run_id"], runs["matmul"]["run_id"]]).run()
    no_exception(at)
    assert at.selectbox(key="cmp_metric").options  # both runs have a step time to compare


def test_compare_efficiency_tab_ranks_by_energy_and_cost_and_checks_the_tpu_claim(seeded, tmp_path, monkeypatch):
    db, runs = seeded
    copy = tmp_path / "results.db"
    shutil.copy(db, copy)  # the training run gets GPU-host figures as the worker's energy code would store them
    run_id = runs["train"]["run_id"]
    eps = float(runs["train"]["examples_per_sec"])
    Store(copy).update_run(run_id, {"energy_source": "nvml-counter", "avg_power_w": 200.0, "price_per_hour_usd": 2.0})
    monkeypatch.setenv("ACCELBENCH_DB", str(copy))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    at = page("compare")
    at.session_state["run_id"] = run_id
    at.session_state["cmp_ref_same"] = False
    at.run()
    at.multiselect(key="cmp_refs").set_value(["RISEML-2018B-02", "LAMBDA-DLB-02"])
    at.session_state["cmp_tab"] = "Efficiency"
    at.run()
    no_exception(at)
    claim = [m.value for m in at.markdown if "The data here supports" in str(m.value)]
    assert claim and "RISEML-2018B-02" in claim[0] and "LAMBDA-DLB-02" in claim[0] and "30–80×" in claim[0]
    assert at.selectbox(key="cmp_eff_metric").options == [
        "Examples per joule (examples/J)",
        "Cost per million examples (USD)",
    ]
    (bars,) = specs(at)
    assert bars["layout"]["xaxis"]["title"]["text"] == "Examples per joule (examples/J)"
    table = at.dataframe[-1].value.set_index("label")
    mine = table.loc[[lab for lab in table.index if lab.startswith("this CPU")][0]]
    assert mine["examples_per_joule"] == pytest.approx(eps / 200.0) and mine["power_basis"] == "measured"
    assert mine["price_how"].startswith("user:")
    lam = table.loc[[lab for lab in table.index if "V100" in lab][0]]
    assert lam["power_basis"] == "ESTIMATE" and "nominal board power" in lam["power_how"]
    at.selectbox(key="cmp_eff_metric").set_value("usd_per_million_examples").run()
    (bars,) = specs(at)
    assert bars["layout"]["xaxis"]["title"]["text"] == "Cost per million examples (USD)"
    assert "lower is better" in bars["layout"]["title"]["text"]


def test_compare_lists_the_newest_500_and_still_opens_an_older_linked_run(db_env, tmp_path, monkeypatch):
    _, runs = db_env
    db = tmp_path / "many.db"
    old = {**runs["matmul"], "run_id": "old-matmul", "created_at": "2020-01-01T00:00:00Z"}
    newer = [
        {**runs["matmul"], "run_id": f"new-{i:03d}", "created_at": f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}Z"}
        for i in range(500)
    ]
    Store(db).copy_in([old, *newer], {})
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = page("compare")
    at.query_params["run"] = "old-matmul"
    at.run()
    no_exception(at)
    assert at.multiselect(key="cmp_runs").value == ["old-matmul"]
    assert len(at.multiselect(key="cmp_runs").options) == 501
    assert any("Only the newest 500 finished runs are listed" in c.value for c in at.caption)
    assert not any("has no finished result yet" in c.value for c in at.caption)


def test_compare_with_nothing_chosen_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "empty.db"))
    at = page("compare").run()
    no_exception(at)
    assert any("Pick at least one run" in i.value for i in at.info)


# --- History -------------------------------------------------------------------------------------


def _uploads(db) -> list[tuple[str, bytes, str]]:
    good = Store(db).export_csv().encode()
    lines = good.decode().split("\n")
    header = lines[0].split(",")
    cells = lines[2].split(",")
    cells[header.index("status")] = "finished"
    bad = "\n".join([lines[0], lines[1], ",".join(cells), *lines[3:]]).encode()
    foreign = b"GPU,Model,Images/sec\nV100,resnet50,1200\nT4,resnet50,400\n"
    return [("runs.csv", good, "text/csv"), ("broken.csv", bad, "text/csv"), ("other_tool.csv", foreign, "text/csv")]


def test_history_loads_good_files_reports_the_bad_one_and_charts(db_env):
    db, runs = db_env
    at = page("history").run()
    assert any("Nothing loaded yet" in i.value for i in at.info)
    at.file_uploader(key="hist_upload").set_value(_uploads(db)).run()
    no_exception(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "broken.csv" in errors[0] and "row 3, column 'status'" in errors[0]
    ok = " ".join(s.value for s in at.success)
    assert f"runs.csv**: {Store(db).count_runs()} runs" in ok and "other_tool.csv**: 2 rows mapped" in ok
    assert at.selectbox(key="hist_metric").value == "examples_per_sec"  # the foreign images/sec joins our axis
    spec = specs(at)[0]
    assert spec["layout"]["xaxis"]["title"]["text"] == "Throughput (examples/s), median"
    labels = " | ".join(y for t in spec["data"] for y in t["y"])
    assert "V100 · resnet50" in labels and "T4 · resnet50" in labels
    at.session_state["hist_tab"] = "Baseline"
    at.run()
    at.selectbox(key="hist_baseline").set_value(at.selectbox(key="hist_baseline").options[-1]).run()
    no_exception(at)
    assert any("times" in d.value.columns for d in at.dataframe)  # the baseline view speaks in ×, not %


def test_history_save_to_results_imports_for_compare(db_env, tmp_path, monkeypatch):
    db, _ = db_env
    fresh = tmp_path / "fresh.db"
    shutil.copy(db, fresh)
    monkeypatch.setenv("ACCELBENCH_DB", str(fresh))
    other = run_cli_export(db)
    at = page("history").run()
    at.file_uploader(key="hist_upload").set_value([("colab.csv", other, "text/csv")]).run()
    save = [b for b in at.button if b.key.startswith("hist_import_")]
    assert len(save) == 1
    save[0].click().run()
    no_exception(at)
    sources = {r["source"] for r in Store(fresh).list_runs()}
    assert "import:colab.csv" in sources


def run_cli_export(db) -> bytes:
    """The seeded runs under new ids, as if exported on another machine."""
    text = Store(db).export_csv()
    for r in Store(db).list_runs():
        text = text.replace(r["run_id"], r["run_id"] + "-colab")
    return text.encode()


def test_history_in_demo_mode_keeps_uploads_in_the_session(db_env, monkeypatch):
    db, _ = db_env
    monkeypatch.setenv("ACCELBENCH_DEMO", "1")
    before = Store(db).count_runs()
    at = page("history").run()
    assert at.get("file_uploader")[0].proto.max_upload_size_mb == 25
    at.file_uploader(key="hist_upload").set_value([("colab.csv", run_cli_export(db), "text/csv")]).run()
    no_exception(at)
    assert not [b for b in at.button if b.key.startswith("hist_import_")]
    assert any("never saved" in c.value for c in at.caption)
    assert Store(db).count_runs() == before


def test_history_folder_samples_and_this_machine(db_env):
    at = page("history").run()
    at.toggle(key="hist_folder").set_value(True).run()
    at.toggle(key="hist_store").set_value(True).run()
    no_exception(at)
    ok = " ".join(s.value for s in at.success)
    assert "sample_accelbench_export.csv" in ok and "sample_tf_benchmarks_2017.csv" in ok and "this machine" in ok
    assert not [s for s in at.selectbox if s.key == "hist_store_n"]  # a normal store loads every run


def test_history_loads_the_newest_runs_of_a_big_store_and_says_how_to_see_the_rest(tmp_path, monkeypatch):
    from ui import history_load

    db = tmp_path / "big.db"
    Store(db).import_csv((ROOT / "data" / "history" / "sample_accelbench_export.csv").read_bytes(), "sample.csv")
    total = Store(db).count_runs()
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    monkeypatch.setattr(history_load, "STORE_NEWEST", 5)  # 14 runs stand for 100,000
    at = page("history").run()
    at.toggle(key="hist_store").set_value(True).run()
    no_exception(at)
    assert at.selectbox(key="hist_store_n").value == 5
    assert any(f"Only the newest 5 of {total} runs are loaded" in c.value and "results export" in c.value
               for c in at.caption)  # fmt: skip
    assert any("5 runs (results store)" in s.value for s in at.success)
    assert any(h.value == "Explore 5 rows" for h in at.subheader)
    at.selectbox(key="hist_store_n").set_value(0).run()
    no_exception(at)
    assert any(f"{total} runs (results store)" in s.value for s in at.success)
    assert not any("Only the newest" in c.value for c in at.caption)
    assert any(h.value == f"Explore {total} rows" for h in at.subheader)


# --- Devices -------------------------------------------------------------------------------------


def test_devices_shows_the_cpu_and_keeps_gpu_settings_for_the_run_page(db_env):
    at = page("devices").run()
    no_exception(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Cores available"].isdigit() and metrics["Peak (float32)"].endswith("GFLOP/s")
    assert any("No GPU found" in i.value for i in at.info)
    assert at.toggle(key="dev_memory_growth").disabled  # nothing to act on without a GPU
    at.number_input(key="dev_logical_devices").set_value(2).run()
    no_exception(at)
    assert at.session_state["logical_devices"] == 2
    assert at.session_state["gpu_memory_growth"] is False and at.session_state["gpu_memory_limit_mb"] == 0
    assert any("logical devices: **2**" in m.value for m in at.markdown)


# --- all four --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PAGES))
def test_every_widget_key_carries_the_page_prefix(db_env, name):
    at = page(name)
    if name == "compare":
        at.query_params["run"] = db_env[1]["train"]["run_id"]
    at.run()
    if name == "history":
        at.toggle(key="hist_folder").set_value(True).run()
    no_exception(at)
    keys = widget_keys(at)
    assert keys and all(k.startswith(PREFIX[name]) for k in keys), [k for k in keys if not k.startswith(PREFIX[name])]
