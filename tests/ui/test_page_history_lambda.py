"""History under AppTest with Lambda's real v2 throughput table (data/reference/lambda_v2): with zero actions the
chart is the rate per GPU for each device, count, memory and form factor × workload; names with an instance size
and a per-GPU count are listed with the reading chosen; bars that still join variants are marked and explained."""

from __future__ import annotations

import base64
import json

import numpy as np
from conftest import ROOT
from streamlit.testing.v1 import AppTest

LAMBDA = ROOT / "data" / "reference" / "lambda_v2" / "pytorch-train-throughput-v2-fp16.csv"


def test_lambda_v2_with_zero_actions_shows_per_gpu_rates_per_configuration(db):
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    at.file_uploader(key="hist_upload").set_value([(LAMBDA.name, LAMBDA.read_bytes(), "text/csv")]).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="hist_metric").value.startswith("Throughput per device (")
    assert at.multiselect(key="hist_group").value == ["configuration", "workload"]
    (chart,) = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    bars = {y: x for t in chart["data"] for y, x in zip(t["y"], _numbers(t["x"]), strict=True)}
    assert bars["1× B200 · 192GB · resnet50"] == 3076 and "8× H100 · 80GB · SXM5 · resnet50" in bars
    assert "8× H200 · 140GB · SXM · resnet50 ⚠" in bars
    title = chart["layout"]["xaxis"]["title"]["text"]
    assert title == "Throughput per device (examples/s: images/s, sequences/s), median"  # what each row counted
    assert any("join rows of several configurations" in w.value and "HTOff v2" in w.value for w in at.warning)
    # the saturation rule (issue 36): Lambda's ResNet-50 figures sit on one plateau from H100 to B200
    (flag,) = [w.value for w in at.warning if "resnet50 figures" in w.value]
    assert flag.startswith("Flagged pytorch-train-throughput-v2-fp16.csv: pipeline-bound") and "B200" in flag
    (info,) = [i.value for i in at.info if "could be read another way" in i.value]
    assert info.startswith("**18 names") and "LambdaOD_2x_Texas_1xH100" in info and "read as 1 × H100" in info


def _numbers(values) -> list[float]:
    """A trace's numbers, whether plotly wrote them as a list or as typed base64 ({'dtype', 'bdata'})."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"])).tolist()
    return list(values)


def test_use_on_compare_opens_compare_with_the_files_headline_chosen(db):
    vendor = "name_gpu,num_gpu,resnet50\nA100 80GB SXM4,1,800\nA100 80GB SXM4,8,6000\nV100 16GB,1,400\n"
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    at.file_uploader(key="hist_upload").set_value([("vendor-throughput.csv", vendor.encode(), "text/csv")]).run()
    next(b for b in at.button if b.key.startswith("hist_cmp_")).click().run()
    assert not at.exception
    chosen = at.session_state["cmp_imported"]
    assert len(chosen) == 2 and all(":examples_per_sec:" in i and "|1|" in i for i in chosen)  # one-GPU figures
    assert any("Open the Compare page" in i.value for i in at.info)  # run alone (no navigation): says where to go
