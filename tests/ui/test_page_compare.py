"""Compare under AppTest on a database seeded with real runs (conftest `seeded`): a linked run next to
references, training charts, the Efficiency tab, a big store's newest 500 and the empty state."""

from __future__ import annotations

import shutil

import pytest
from page_helpers import no_exception, page, specs

from engine.runs.store import Store

# --- Compare -------------------------------------------------------------------------------------


def tab_specs(at) -> list[dict]:
    """The charts of the open tab (and the rate bars), without the "Which device?" section's chart above them
    (tests/ui/test_page_compare_which.py covers that one)."""
    return [s for s in specs(at) if not str(s["layout"]["title"]["text"]).startswith("One device's training rate")]


def test_compare_preselects_the_linked_run_next_to_references(db_env):
    _, runs = db_env
    at = page("compare")
    at.query_params["run"] = runs["matmul"]["run_id"]
    at.run()
    no_exception(at)
    assert at.multiselect(key="cmp_runs").value == [runs["matmul"]["run_id"]]
    assert at.multiselect(key="cmp_refs").value == []  # article 002's matmul is another shape: not preselected
    others = [e for e in at.expander if e.label.startswith("Other workloads — not comparable")]
    assert others and "another shape" in " ".join(str(m.value) for m in others[0].markdown)
    at.multiselect(key="cmp_peaks").set_value(["a100"]).run()
    headline = [m.value for m in at.markdown if "A100 peak (datasheet) is" in str(m.value)]
    assert headline and "the rate this CPU (TF, fp32) measured" in headline[0]
    assert at.selectbox(key="cmp_baseline").value == "this CPU (TF, fp32)"  # the user's own run is the baseline
    at.selectbox(key="cmp_metric").set_value("rate").run()
    charts = tab_specs(at)
    bars, speedup = charts[0], charts[1]
    assert bars["layout"]["xaxis"]["title"]["text"].startswith("Rate of work")
    assert bars["layout"]["xaxis"]["type"] == "linear" and speedup["layout"]["xaxis"]["type"] == "log"
    # coloured by device type, the user's own runs in their own colour, the peak hatched as not measured
    assert {"This machine", "GPU (peak)"} <= {t["name"] for t in bars["data"]}


def test_compare_session_run_id_and_training_charts(db_env):
    _, runs = db_env
    at = page("compare")
    at.session_state["run_id"] = runs["train"]["run_id"]
    at.run()
    no_exception(at)
    assert at.multiselect(key="cmp_runs").value == [runs["train"]["run_id"]]
    assert at.selectbox(key="cmp_metric").value == "rate"  # estimates give the run a same-workload answer
    assert len(tab_specs(at)) == 2  # only the open tab is drawn: its bars and its speedups
    at.session_state["cmp_tab"] = "Step times"
    at.run()
    assert tab_specs(at)[0]["layout"]["title"]["text"].startswith("Step-time distribution")
    at.session_state["cmp_tab"] = "Loss & accuracy"
    at.run()
    titles = {s["layout"]["title"]["text"] for s in tab_specs(at)}
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
    (bars,) = tab_specs(at)
    assert bars["layout"]["xaxis"]["title"]["text"] == "Examples per joule (examples/J)"
    table = at.dataframe[-1].value.set_index("label")
    mine = table.loc[[lab for lab in table.index if lab.startswith("this CPU")][0]]
    assert mine["examples_per_joule"] == pytest.approx(eps / 200.0) and mine["power_basis"] == "measured"
    assert mine["price_how"].startswith("user:")
    lam = table.loc[[lab for lab in table.index if "V100" in lab and "published" in lab][0]]
    assert lam["power_basis"] == "ESTIMATE" and "nominal board power" in lam["power_how"]
    at.selectbox(key="cmp_eff_metric").set_value("usd_per_million_examples").run()
    (bars,) = tab_specs(at)
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


def test_compare_picks_a_whole_sweep_at_once(db_env, tmp_path, monkeypatch):
    _, runs = db_env
    db = tmp_path / "sweep.db"
    cells = [
        {**runs["matmul"], "run_id": f"cell-{i}", "sweep_id": "sweep-20261125-0500-abc",
         "created_at": f"2026-11-25T05:00:0{i}Z"}
        for i in range(3)
    ]  # fmt: skip
    Store(db).copy_in([{**runs["matmul"], "run_id": "lone", "created_at": "2026-11-25T06:00:00Z"}, *cells], {})
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    at = page("compare")
    at.run()
    no_exception(at)
    assert at.multiselect(key="cmp_runs").value == ["lone"]  # the newest run alone, as ever
    at.selectbox(key="cmp_sweep").select("sweep-20261125-0500-abc").run()
    no_exception(at)
    assert sorted(at.multiselect(key="cmp_runs").value) == ["cell-0", "cell-1", "cell-2"]
