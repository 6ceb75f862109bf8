"""Issue 31 item 6 under AppTest: a headerless nvidia-smi log with no timestamps (lambdal's …_monitor.csv shape,
written here) and a report's measured iterations get a view over their samples in order with their distribution; a
report that ran on the CPU of a
GPU host (optimum-benchmark's `device: cpu` beside a Tesla T4) is flagged where it is read."""

from __future__ import annotations

import json

from conftest import ROOT
from streamlit.testing.v1 import AppTest

SMI = "".join(f"{t}, {u} %, {m} MiB\n" for t, u, m in [(54, 0, 0), (56, 82, 10244), (70, 99, 9898), (71, 99, 9898)])
BENCH = {
    "config": {"backend": {"name": "py-txi", "model": "BAAI/bge-base-en-v1.5", "device": "cpu"},
               "environment": {"cpu": "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", "gpu": ["Tesla T4"],
                               "gpu_count": 1}},
    "report": {"forward": {"latency": {"unit": "s", "values": [1.0, 1.2, 1.1]},
                           "throughput": {"unit": "samples/s", "value": 5.6}}},
}  # fmt: skip


def test_a_log_without_timestamps_is_shown_over_its_samples_and_a_cpu_run_on_a_gpu_host_is_flagged(db):
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    files = [("8xA100_80GB_SXM4_monitor.csv", SMI.encode(), "text/csv"),
             ("benchmark.json", json.dumps(BENCH).encode(), "application/json")]  # fmt: skip
    at.file_uploader(key="hist_upload").set_value(files).run()
    assert not at.exception and not at.error
    (flag,) = [w.value for w in at.warning if "ran on the CPU" in w.value]
    assert "Tesla T4" in flag and "benchmark.json" in flag
    at.session_state["hist_f_device_label"] = ["A100 80GB"]
    at.session_state["hist_metric"] = "Temperature (C)"
    at.run()
    at.session_state["hist_tab"] = "Over samples"
    at.run()
    assert not at.exception
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["xaxis"]["title"]["text"].startswith("Sample (the log's order)")
    (table,) = [d.value for d in at.dataframe if "samples" in d.value.columns]
    assert table["samples"].tolist() == [4] and table["max"].tolist() == [71]
    at.session_state["hist_f_device_label"] = ["Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz"]
    at.run()
    at.selectbox(key="hist_metric").set_value("Latency (s)").run()  # the report's iterations: a series too
    (table,) = [d.value for d in at.dataframe if "samples" in d.value.columns]
    assert table["samples"].tolist() == [3] and table["median"].tolist() == [1.1]
