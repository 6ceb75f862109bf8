"""The Run card's "Input or compute?" box (issue 38) under AppTest on a real store: an input-bound flowers run
shows its three rates, the verdict with its rule, the bar split into waiting and computing (summing to the
whole step), and each rented host's cap from the answer; a synthetic run says it has no pipeline; a row stored
before issue 38 says in one line that nothing was measured, with no empty chart. And the figure itself."""

from __future__ import annotations

import pytest
from page_helpers import specs
from test_run_page import metric, run_page, texts

from engine.charts.base import is_empty
from engine.charts.input_split import NO_SPLIT, input_split_figure
from engine.runs.store import Store
from tests.compare.test_input_cap import FLOWERS, SYNTHETIC
from ui.run_input import INPUT_FIELDS, NOT_MEASURED

OLDER = {k: v for k, v in FLOWERS.items() if k not in (*INPUT_FIELDS, "input_workers", "input_cores", "cache")}
OLDER["run_id"] = "20261127-050002-38b003"


def _split(at) -> dict | None:
    return next((s for s in specs(at) if s["data"] and s["data"][0].get("orientation") == "h"), None)


def test_the_split_bar_is_the_whole_step_in_two_parts():
    fig = input_split_figure(FLOWERS)
    wait, compute = fig.data
    assert (wait.x[0], compute.x[0]) == pytest.approx((30.0, 70.0))
    assert "waiting for input" in wait.name and "computing" in compute.name
    assert f"{FLOWERS['step_time_ms_median'] * 0.3:,.0f} ms" in wait.name and "1,280 ms" in compute.name
    assert fig.layout.barmode == "stack" and fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
    assert is_empty(input_split_figure(SYNTHETIC)) == NO_SPLIT  # no wait share: a sentence, not a blank bar


def test_the_run_card_shows_input_or_compute(db):
    store = Store(db)
    for row in (FLOWERS, SYNTHETIC, OLDER):
        store.insert_run(row)  # type: ignore[arg-type]
    at = run_page(query_run=FLOWERS["run_id"])
    assert metric(at, "Pipeline alone") == "20.0 ex/s" and metric(at, "Step alone") == "44.2 ex/s"
    assert metric(at, "Training") == "35.0 ex/s" and metric(at, "Bound") == "Input"
    split = _split(at)
    assert split is not None and [t["x"][0] for t in split["data"]] == pytest.approx([30.0, 70.0])
    shown = texts(at.markdown)
    assert "H100: alone ≈" in shown and "≈480 ex/s (24 vCPUs) → would wait for input" in shown
    assert "1 input worker of 2 cores" in texts(at.caption)

    synthetic = run_page(query_run=SYNTHETIC["run_id"])
    assert metric(synthetic, "Pipeline alone") == "synthetic data" and metric(synthetic, "Bound") == "Compute"
    assert _split(synthetic) is None and "would wait for input" not in texts(synthetic.markdown)

    older = run_page(query_run=OLDER["run_id"])
    assert NOT_MEASURED in texts(older.caption) and metric(older, "Bound") is None and _split(older) is None
