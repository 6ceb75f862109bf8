"""History under AppTest on a database seeded with real runs (conftest `seeded`): good, bad and foreign
uploads, saving to the results store, demo-mode uploads, samples and a big store's newest runs."""

from __future__ import annotations

import shutil

from conftest import ROOT
from page_helpers import no_exception, page, specs

from engine.runs.store import Store

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
    # the export's runs count examples, the other tool's rows images: one axis, both units said
    assert spec["layout"]["xaxis"]["title"]["text"] == "Throughput (examples/s; also images/s), median"
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


def test_history_filters_a_whole_sweep(tmp_path, monkeypatch):
    db = tmp_path / "sweep.db"
    store = Store(db)
    store.import_csv((ROOT / "data" / "history" / "sample_accelbench_export.csv").read_bytes(), "sample.csv")
    cells = [
        dict(r, run_id=f"cell-{i}", sweep_id="sweep-20261125-0500-abc") for i, r in enumerate(store.list_runs()[:3])
    ]
    store.copy_in(cells, {})
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = page("history").run()
    at.toggle(key="hist_store").set_value(True).run()
    no_exception(at)
    at.multiselect(key="hist_f_sweep_id").set_value(["sweep-20261125-0500-abc"]).run()
    no_exception(at)
    assert at.multiselect(key="hist_f_sweep_id").value == ["sweep-20261125-0500-abc"]
    from engine.results import history, history_files

    frame = history_files.store_tuples(Store(db).run_tuples(None))
    assert len(history.filter_frame(frame, {"sweep_id": ["sweep-20261125-0500-abc"]})) == 3
