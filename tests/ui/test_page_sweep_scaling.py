"""Scaling on the Sweep and Compare pages (issue 30 item 4) under AppTest on a real store: a `--processes 1,2`
sweep of ResNet-50 draws its throughput against ideal above the table, then Lambda's published multi-GPU curves of
ResNet-50 beside it with a sentence each (and a labelled two-node estimate); a model nobody published at several
device counts says so; Compare's Scaling tab shows the same published curves for the chosen run's model."""

from __future__ import annotations

from conftest import ROOT, run_row
from page_helpers import no_exception, page, specs
from streamlit.testing.v1 import AppTest

from engine.results.status import RunStatus
from engine.runs.store import Store

SWEEP = "sweep-20261125-060000-abcdef"


def _cell(i: int, model: str, procs: int, eps: float) -> dict:
    return run_row(
        i, kind="train", model=model, dataset="synthetic", shape=None, backend="torch", strategy="default",
        replicas=procs, processes=procs, global_batch_size=8, per_replica_batch_size=8 // procs, epochs=2,
        steps_per_epoch=2, examples_per_sec=eps, total_s=80.0, first_epoch_s=50.0, gflops=None, sweep_id=SWEEP,
        status=RunStatus.OK,
    )  # fmt: skip


def _store(tmp_path, monkeypatch, model: str) -> list[dict]:
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "results.db"))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    store = Store(tmp_path / "results.db")
    cells = [_cell(1, model, 1, 8.0), _cell(2, model, 2, 12.0), _cell(3, model, 2, 13.6)]
    for row in cells:
        store.insert_run(row)
    return cells


def test_a_processes_sweep_draws_its_curve_against_ideal_and_the_published_curves_of_its_model(tmp_path, monkeypatch):
    _store(tmp_path, monkeypatch, "resnet50")
    at = AppTest.from_file(str(ROOT / "pages" / "sweep.py"), default_timeout=60).run()
    no_exception(at)
    heads = [h.value for h in at.subheader]
    assert heads[-2:] == ["Scaling over processes", "Published multi-GPU scaling of ResNet-50"]
    *_, mine, published = specs(at)
    assert mine["layout"]["title"]["text"].startswith("Throughput against ideal")
    curve = next(t for t in mine["data"] if t["mode"] == "lines+markers+text")
    assert curve["x"] == [1, 2] and curve["text"] == ["100 %", "80 % (75–85)"]
    assert any(t["line"].get("dash") == "dash" for t in mine["data"])  # ideal: N × the rate at 1
    assert published["layout"]["title"]["text"].startswith("Published scaling efficiency")
    names = [t["name"] for t in published["data"]]
    assert any(n.startswith("H100 · Lambda PyTorch 2025 · mixed fp16") for n in names)
    assert names[-2:] == ["this sweep: resnet50 synthetic float32 torch cpu · global batch 8 (processes, measured)",
                          "ideal: 100 %"]  # fmt: skip
    assert len(at.multiselect(key="sweep_published_resnet50_pick").value) == 6
    text = " ".join(str(m.value) for m in at.markdown)
    assert "2 processes (measured, resnet50 synthetic float32 torch cpu, global batch 8): 1.60× one process" in text
    assert "8 H100 (published, Lambda PyTorch 2025, mixed fp16): 7.9× one H100 (99 % of ideal" in text
    assert "as 2 nodes of 8 (16 H100), estimate: about" in text
    table = at.dataframe[-1].value  # the published points, after the sweep's own table
    assert set(table["source"]) == {"LAMBDA-DLB-V2"} and table["devices"].max() == 8
    shown = at.dataframe[-2].value.set_index("processes")
    assert shown.loc[2, "efficiency"] == 0.8 and shown.loc[2, "runs"] == 2


def test_a_model_without_published_multi_device_figures_says_so(tmp_path, monkeypatch):
    _store(tmp_path, monkeypatch, "tiny_cnn")
    at = AppTest.from_file(str(ROOT / "pages" / "sweep.py"), default_timeout=60).run()
    no_exception(at)
    assert "Published multi-GPU scaling of tiny CNN" in [h.value for h in at.subheader]
    assert any("No published multi-device figures for tiny CNN." in i.value for i in at.info)
    assert specs(at)[-1]["layout"]["title"]["text"].startswith("Throughput against ideal")  # no empty published chart


def test_compares_scaling_tab_shows_the_runs_against_ideal_and_the_published_curves(tmp_path, monkeypatch):
    cells = _store(tmp_path, monkeypatch, "resnet50")
    at = page("compare")
    at.session_state["cmp_tab"] = "Scaling"
    at.run()
    at.multiselect(key="cmp_runs").set_value([c["run_id"] for c in cells]).run()
    no_exception(at)
    titles = [s["layout"]["title"]["text"] for s in specs(at)]
    assert any(t.startswith("Throughput vs replicas") for t in titles)  # the runs at 1 and 2 processes
    assert any(t.startswith("Published scaling efficiency") for t in titles)
    [box] = [e for e in at.expander if e.label == "Published multi-GPU scaling of ResNet-50"]
    assert at.multiselect(key="cmp_published_pick").value
    assert "8 B200 (published, Lambda PyTorch 2025, mixed fp16)" in " ".join(str(m.value) for m in box.markdown)
