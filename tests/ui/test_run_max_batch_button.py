"""The Run page's "Find the largest batch" button (issue 21 item 3): for a training spec it starts the real
`engine sweep --max-batch` search in the background under a sweep id the page links to; a cancel of that
sweep stops it."""

from __future__ import annotations

from conftest import ROOT
from streamlit.testing.v1 import AppTest

from engine.results.status import RunStatus
from engine.runs.store import Store, wait_for
from engine.sweep import status


def run_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/run.py").run()
    assert not at.exception, at.exception
    return at


def test_the_largest_batch_button_starts_a_search_the_sweep_page_can_follow(db):
    at = run_page()
    assert not [b for b in at.button if b.key == "run_max_batch"]  # a microbenchmark has no batch to search
    at.radio(key="run_workload").set_value("Training").run()
    at.button(key="run_max_batch").click().run()
    assert not at.exception, at.exception
    sweep_id = at.session_state["run_max_batch_sweep"]
    assert sweep_id.startswith("sweep-") and f"search {sweep_id} started" in "\n".join(c.value for c in at.caption)
    store = Store(db)
    assert wait_for(lambda: len(status.sweep_rows(store, sweep_id)) >= 1, 30)  # its first attempt, a real run
    first = status.sweep_rows(store, sweep_id)[0]
    assert first["global_batch_size"] == 256 and first["model"] == "fashion_cnn"  # the form's spec
    status.cancel_sweep(store, sweep_id)
    assert wait_for(lambda: status.is_finished(store, sweep_id), 30)
    assert status.sweep_rows(store, sweep_id)[0]["status"] == RunStatus.CANCELLED
    assert not wait_for(lambda: len(status.sweep_rows(store, sweep_id)) > 1, 8)  # the search stopped there
