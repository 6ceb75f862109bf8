"""The Run page's "Runs in this session" table while a real run runs: its status cell says running (the
table refreshes itself while a run is active, apart from the live panel), and the run names its backend."""

from __future__ import annotations

import time

from conftest import ROOT
from streamlit.testing.v1 import AppTest

from engine.runs import jobs
from engine.runs.store import Store

# Long enough to be seen running (seconds of 1024³ matmuls on 2 shared cores), cancelled once it is.
LONG_MATMUL = {"kind": "matmul", "m": 1024, "n": 1024, "k": 1024, "repeats": 2000, "backend": "jax"}


def session_table(at: AppTest):
    return next(df.value for df in at.dataframe if "run_id" in df.value.columns)


def test_the_session_table_says_running_while_a_run_runs(db):
    store = Store(db)
    run_id = jobs.launch(jobs.prepare(LONG_MATMUL), store)
    try:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.session_state["run_id"] = run_id
        at.session_state["run_session_runs"] = [run_id]
        at.run()
        end = time.monotonic() + 90
        while (store.get_run(run_id) or {}).get("status") != "running" and time.monotonic() < end:
            time.sleep(0.5)
        at.switch_page("pages/run.py").run()
        assert not at.exception, at.exception
        assert store.get_run(run_id)["status"] == "running"
        table = session_table(at)
        row = table[table["run_id"] == run_id].iloc[0]
        assert row["status"] == "running" and row["device"] == "CPU · JAX"
        assert any("· CPU · JAX" in str(c.value) for c in at.caption)  # the live panel's run title
    finally:
        jobs.cancel(run_id, store)
