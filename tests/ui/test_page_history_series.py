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
    at.session_state["hist_f_device_label"] = ["Xeon Platinum 8259CL"]  # the CPU brand string read as its product
    at.run()
    at.selectbox(key="hist_metric").set_value("Latency (s)").run()  # the report's iterations: a series too
    (table,) = [d.value for d in at.dataframe if "samples" in d.value.columns]
    assert table["samples"].tolist() == [3] and table["median"].tolist() == [1.1]


def test_an_mlperf_system_description_alone_says_where_its_results_are_and_a_logs_bar_is_its_best_accuracy(db):
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    system = {
        "system_name": "Eos_n8",
        "number_of_nodes": "8",
        "accelerators_per_node": "8",
        "accelerator_model_name": "NVIDIA H100-SXM5-80GB",
        "host_processor_model_name": "Intel(R) Xeon(R) 8480C",
    }
    log = "epoch,hours,top1Accuracy,gpu\n1,0.1,20.0,V100\n2,0.2,60.0,V100\n3,0.3,75.5,V100\n"  # DAWNBench-like
    files = [("eos_n8_ngc24.04_pytorch.json", json.dumps(system).encode(), "application/json"),
             ("dawn.tsv", log.replace(",", "\t").encode(), "text/tab-separated-values")]  # fmt: skip
    at.file_uploader(key="hist_upload").set_value(files).run()
    assert not at.exception
    (said,) = [i.value for i in at.info if "eos_n8_ngc24.04_pytorch.json" in i.value]
    assert "MLPerf system description" in said and "64 × NVIDIA H100" in said and "result_N.txt" in said
    assert not [w for w in at.warning if "looks like settings" in w.value]
    assert at.selectbox(key="hist_how").value == "max"  # not a median over the curve's epochs
