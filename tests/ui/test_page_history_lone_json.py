"""A JSON of flat result keys dropped alone on History (a serving benchmark's --save-result, LLMPerf's summary) is
results, not "settings for a table": it looks like a sidecar (one flat object, no list of records) until nothing is
there to pair it with. A settings file alone still waits for its table; one beside its table is still its sidecar."""

from __future__ import annotations

import json

from conftest import ROOT
from streamlit.testing.v1 import AppTest

# The keys `vllm bench serve --save-result` writes (values invented): a flat object, throughput in its key names.
SERVING = {"date": "20260203-153914", "backend": "vllm", "model_id": "openai/gpt-oss-20b", "num_prompts": 100,
           "request_throughput": 2.31, "output_throughput": 1184.6, "total_token_throughput": 2371.2,
           "mean_ttft_ms": 88.4, "median_ttft_ms": 71.0, "p99_ttft_ms": 310.2, "mean_tpot_ms": 6.1}  # fmt: skip
SETTINGS = {"batch_size": 64, "precision": "half", "model": "resnet50", "num_warmup": 5, "num_test": 50}


def page() -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60)


def _device_box(at: AppTest):
    return next(t for t in at.text_input if "_device_" in t.key)


def test_a_json_of_result_keys_alone_is_results_and_asks_for_its_device(db):
    at = page().run()
    at.file_uploader(key="hist_upload").set_value([("vllm-c8.json", json.dumps(SERVING).encode(), "application/json")])
    at.run()
    assert not at.exception and not at.warning  # not "looks like settings for a table"
    assert not at.error and any("names no device" in i.value for i in at.info)  # asked, not refused in red
    _device_box(at).set_value("RTX 4090").run()
    assert not at.exception and not at.error
    metric = at.selectbox(key="hist_metric")
    assert metric.value == "output throughput (tokens/s)" and "request throughput (requests/s)" in metric.options


def test_a_settings_file_alone_still_waits_for_its_table(db):
    at = page().run()
    at.file_uploader(key="hist_upload").set_value([("config.json", json.dumps(SETTINGS).encode(), "application/json")])
    at.run()
    assert not at.exception and not at.error
    assert any("looks like settings for a table" in w.value for w in at.warning)
