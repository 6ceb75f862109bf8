"""The References page under AppTest: table with provenance, filters, seed tables, chart builder, empty states."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT
from streamlit.testing.v1 import AppTest

PAGE = str(ROOT / "pages" / "references.py")


@pytest.fixture
def at():
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    return app


def _chart_spec(app) -> dict:
    charts = app.get("plotly_chart")
    assert charts, "no plotly chart on the page"
    return json.loads(charts[0].proto.spec)


def test_page_renders_table_seed_tables_and_chart(at):
    assert at.title[0].value == "Reference numbers"
    assert not at.error
    assert len(at.dataframe) >= 8  # the table, 2 seed tables + 2 ratio tables, seed rows, checks
    table = at.dataframe[0].value
    assert len(table) >= 296 and {"source_url", "doubtful", "doubt_reason", "year"} <= set(table.columns)
    t1 = next(d.value for d in at.dataframe if list(d.value.columns) == ["TPUv2", "K80", "T4", "P100"])
    assert t1.loc["VGG19", "K80"] == 1866.703 and t1.loc["Custom CNN", "TPUv2"] == 90.5885
    ratios = next(d.value for d in at.dataframe if "TPU vs K80 (×)" in d.value.columns)
    assert ratios.loc["VGG19", "TPU vs K80 (×)"] == 8.76
    spec = _chart_spec(at)
    assert spec["layout"]["yaxis"]["title"]["text"] == "Training time (s)"
    assert any("2.47" in w.value for w in at.warning) or any("host CPU" in w.value for w in at.warning)


def test_every_widget_has_a_ref_key(at):
    widgets = [*at.selectbox, *at.multiselect, *at.text_input, *at.toggle, *at.radio]
    assert widgets and all(w.key and w.key.startswith("ref_") for w in widgets)


def test_filters_narrow_the_table_and_empty_state_explains(at):
    at.multiselect(key="ref_f_source").set_value(["SEED-RISEML"]).run()
    assert set(at.dataframe[0].value["source_id"]) == {"SEED-RISEML"}
    at.toggle(key="ref_f_hide_doubtful").set_value(True).run()
    assert not at.dataframe[0].value["doubtful"].any()
    at.text_input(key="ref_f_search").set_value("no such text anywhere").run()
    assert not at.exception
    assert any("No reference rows match" in i.value for i in at.info)


def test_chart_builder_metric_model_and_scale(at):
    at.selectbox(key="ref_chart_metric").set_value("examples_per_s").run()
    at.selectbox(key="ref_chart_model").set_value("bilstm").run()
    spec = _chart_spec(at)
    xs = sorted(x for trace in spec["data"] for x in trace["x"])
    assert xs == ["P100", "TPU v2-8", "V100"]
    at.radio(key="ref_chart_scale").set_value("log").run()
    assert _chart_spec(at)["layout"]["yaxis"]["type"] == "log"
    at.selectbox(key="ref_chart_per").set_value("per chip").run()
    assert "per chip" in _chart_spec(at)["layout"]["title"]["text"]
    assert any("differs" in m.value for m in at.markdown)  # comparability warnings listed


def test_wide_ranges_get_a_log_axis(at):
    at.selectbox(key="ref_chart_metric").set_value("train_time_s").run()
    at.selectbox(key="ref_chart_model").set_value("resnet50").run()
    assert _chart_spec(at)["layout"]["yaxis"]["type"] == "log"


def test_chart_empty_state(at):
    at.selectbox(key="ref_chart_metric").set_value("op_time_s").run()
    at.selectbox(key="ref_chart_model").set_value("matmul").run()
    at.multiselect(key="ref_chart_sources").set_value(["SEED-COLAB-CONV"]).run()
    assert not at.exception
    assert any("Nothing to chart" in i.value for i in at.info)


def test_page_does_not_import_tensorflow():
    code = (
        "import sys; from streamlit.testing.v1 import AppTest; "
        f"at = AppTest.from_file({PAGE!r}, default_timeout=60).run(); "
        "assert not at.exception, at.exception; "
        "sys.exit(1 if 'tensorflow' in sys.modules else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
