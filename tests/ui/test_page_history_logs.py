"""History under AppTest with issue 22's training and telemetry logs (files written here, in the documented
shapes of AlgoPerf, optimum-benchmark, MLPerf summaries and nvidia-smi): each ends in the chart a user wants —
three accuracy curves over elapsed train time with the sidecar's device, latency stats of a nested report,
minutes to train per benchmark, and a telemetry time series for the device in the log's file name."""

from __future__ import annotations

import base64
import importlib.util
import json

import numpy as np
from conftest import ROOT
from streamlit.testing.v1 import AppTest

# the engine test's files (one copy of each quirk): tests/imports is not a package (no __init__.py in tests)
_spec = importlib.util.spec_from_file_location(
    "_issue22_files", ROOT / "tests" / "imports" / "test_import_reports_logs.py"
)
assert _spec and _spec.loader
FILES = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(FILES)
ALGO, META, MLPERF, REPORT, SMI = FILES.ALGO, FILES.META, FILES.MLPERF, FILES.REPORT, FILES.SMI


def page() -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60)


def specs(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def numbers(values) -> list[float]:
    """A trace's numbers, whether plotly wrote them as a list or as typed base64 ({'dtype', 'bdata'})."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"])).tolist()
    return list(values)


def test_training_log_with_sidecar_report_and_summary_each_reach_their_chart(db):
    at = page().run()
    files = [
        ("imagenet_resnet_eval_measurements.csv", ALGO.encode(), "text/csv"),
        ("imagenet_resnet_meta_data_0.json", json.dumps(META).encode(), "application/json"),
        ("benchmark.json", json.dumps(REPORT).encode(), "application/json"),
        ("mlperf_training_summary.json", json.dumps(MLPERF).encode(), "application/json"),
    ]
    at.file_uploader(key="hist_upload").set_value(files).run()
    assert not at.exception and not at.error and not at.warning  # the sidecar is paired, the report is results
    captions = " ".join(c.value for c in at.caption)
    assert "Settings from **imagenet_resnet_meta_data_0.json** are added" in captions
    assert "Time axis: **accumulated_submission_time**" in captions and "accumulated_eval_time" in captions
    ok = " ".join(s.value for s in at.success)
    # the report: 4 stats rows and its 5 measured iterations (a series, issue 31 item 6)
    assert "benchmark.json**: 9 rows mapped" in ok and "mlperf_training_summary.json**: 3 rows mapped" in ok
    metric = at.selectbox(key="hist_metric")
    assert metric.value == "Throughput per device (examples/s)"  # the report's throughput, per device (counts differ)
    assert {"Validation accuracy (%)", "Test accuracy (%)", "Latency p90 (s)", "Time to train (min)"} <= set(
        metric.options
    )
    metric.set_value("Validation accuracy (%)").run()
    at.session_state["hist_tab"] = "Time to accuracy"
    at.run()
    assert not at.exception
    fig = specs(at)[0]
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("Elapsed time (hours)")
    assert [max(numbers(t["x"])) for t in fig["data"] if t.get("mode") == "lines+markers"] == [
        3.0
    ]  # train time, not eval
    at.selectbox(key="hist_metric").set_value("Time to train (min)").run()
    at.session_state["hist_tab"] = "Chart"
    at.run()
    assert not at.exception and "Time to train (min)" in json.dumps(specs(at)[0]["layout"])  # unit on the axis


def test_a_telemetry_log_draws_over_time_for_the_device_in_its_file_name(db):
    at = page().run()
    at.file_uploader(key="hist_upload").set_value([("8xA100_80GB_SXM4_monitor.csv", SMI.encode(), "text/csv")]).run()
    assert not at.exception and not at.error
    assert at.text_input(key=next(t.key for t in at.text_input if "_device_" in t.key)).value == "8x A100 80GB SXM4"
    at.selectbox(key="hist_metric").set_value("Utilization (%)").run()
    at.session_state["hist_tab"] = "Over time"
    at.run()
    assert not at.exception
    fig = specs(at)[0]
    (line,) = fig["data"]
    assert len(line["x"]) == 30 and max(numbers(line["y"])) == 99
    assert "per second" in fig["layout"]["xaxis"]["title"]["text"]
    assert any("A100 80GB" in str(o) for o in at.multiselect(key="hist_f_device_label").options)
