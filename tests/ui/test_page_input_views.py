"""Compare and History show input-bound runs (issue 38) under AppTest on a real store: Compare's "Which device?"
ranks the H100 by its host's pipeline (the lower of the two) and lists each device alone beside that estimate,
with the chosen run's verdict and three rates; History's "Input or compute" tab lists the runs that measured
their pipeline and says how many did not. Rows: tests/compare/test_input_cap.py's flowers runs."""

from __future__ import annotations

import re

from page_helpers import no_exception, page

from engine.runs.store import Store
from tests.compare.test_input_cap import FLOWERS, SYNTHETIC
from tests.ui.test_run_input import OLDER


def _frame(at, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _store(db) -> None:
    store = Store(db)
    for row in (FLOWERS, SYNTHETIC, OLDER):
        store.insert_run(row)  # type: ignore[arg-type]


def _compare(db, run_id: str):
    _store(db)
    at = page("compare")
    at.query_params["run"] = run_id
    at.run()
    no_exception(at)
    return at


def test_compare_ranks_by_the_host_pipeline_and_shows_both(db):
    at = _compare(db, FLOWERS["run_id"])
    hosts = _frame(at, "Host's pipeline (ex/s, estimate)").set_index("Device")
    assert hosts.loc["H100", "Host's pipeline (ex/s, estimate)"] == 480.0
    assert hosts.loc["H100", "Alone (ex/s)"] > 480.0 and hosts.loc["H100", "There"] == "waits for input"
    assert hosts.loc["H100", "Host vCPUs / device"] == 24
    # numbers whole (12,141, not 12141.2764: issue 45) and every provider said once ("Google Cloud TPU v5e")
    assert all(float(v).is_integer() for v in hosts["Alone (ex/s)"])
    assert not [h for h in hosts["Host"] if re.search(r"\b(\w+) \1\b", h)], list(hosts["Host"])
    assert hosts.loc["TPU v5e", "Host"].startswith("Google Cloud TPU v5e "), list(hosts["Host"])
    which = _frame(at, "Examples/s (one device)").set_index("Device")
    assert which.loc["H100", "Examples/s (one device)"].lstrip("≈≤ ").startswith("480")
    runs = _frame(at, "Pipeline alone (ex/s)")
    assert list(runs["Bound"]) == ["input"] and list(runs["Waiting for input (%)"]) == [30.0]


def test_compare_of_a_synthetic_run_says_no_pipeline_was_measured(db):
    at = _compare(db, SYNTHETIC["run_id"])
    assert any("measured no input pipeline" in c.value for c in at.caption)
    assert not [d for d in at.dataframe if "Host's pipeline (ex/s, estimate)" in d.value.columns]


def test_history_lists_the_runs_that_measured_their_pipeline(db):
    _store(db)
    at = page("history").run()
    at.toggle(key="hist_store").set_value(True).run()
    at.session_state["hist_tab"] = "Input or compute"
    at.run()
    no_exception(at)
    table = _frame(at, "input_wait_pct")
    assert sorted(table["bound"]) == ["compute", "input"]  # the older row measured nothing and is not listed
    flowers = table[table["bound"] == "input"].iloc[0]
    assert (flowers["input_examples_per_sec"], flowers["step_examples_per_sec"]) == (20.0, 44.2)
    assert any("1 other row measured no pipeline" in c.value for c in at.caption)
