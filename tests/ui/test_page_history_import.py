"""History under AppTest with other tools' files: a wide vendor table and a JSON array go through the
mapping step (shape, roles, preview, mapping download) and end in a chart (and the scaling view); a malformed
file names its row and column and loads nothing."""

from __future__ import annotations

import json

from conftest import ROOT
from streamlit.testing.v1 import AppTest

WIDE = (
    "System,ResNet-50 (images/s),BERT-Large (sequences/s)\n"
    "8x H100 80GB SXM5 (host-3),25000,9000\n"
    "8x H100 80GB SXM5 (host-4),24100,8800\n"
    "1x H100 80GB SXM5 (host-5),3300,1200\n"
    "2x RTX 3090 NVLink,2400,OOM\n"
)
RUNS = b'[{"gpu":"V100","model":"resnet50","throughput_img_s":1200},{"gpu":"T4","model":"resnet50","throughput_img_s":400}]'


def page() -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60)


def specs(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def test_a_wide_table_and_a_json_array_go_through_the_mapping_step_to_a_chart(db):
    at = page().run()
    files = [("vendor.csv", WIDE.encode(), "text/csv"), ("runs.json", RUNS, "application/json")]
    at.file_uploader(key="hist_upload").set_value(files).run()
    assert not at.exception and not at.error
    labels = [e.label for e in at.expander]
    assert any("vendor.csv** — wide table" in x for x in labels) and any(
        "runs.json** — JSON records" in x for x in labels
    )
    ok = " ".join(s.value for s in at.success)
    assert "vendor.csv**: 7 rows mapped" in ok and "runs.json**: 2 rows mapped" in ok
    assert any("cells with no value" in c.value and "BERT-Large (sequences/s) (1)" in c.value for c in at.caption)
    assert [b for b in at.get("download_button") if "hist_imp_" in b.proto.id]  # the mapping can be saved
    # runs.json states no device count: the rate stays the system's, grouped by count (1, 2 and 8 GPUs apart)
    assert at.selectbox(key="hist_metric").value == "examples_per_sec"
    names = " | ".join(y for t in specs(at)[0]["data"] for y in t["y"])
    assert "1× H100 · 80GB · SXM5 · ResNet-50" in names and "8× H100 · 80GB · SXM5 · ResNet-50" in names
    assert "V100 · resnet50" in names and "2× RTX 3090 · ResNet-50" in names
    at.session_state["hist_tab"] = "Scaling"
    at.run()
    assert not at.exception
    spec = specs(at)[0]
    assert spec["layout"]["xaxis"]["title"]["text"] == "Devices (log scale)"
    assert any("faster" in c.value for c in at.caption)


def test_a_malformed_foreign_file_names_row_and_column_and_loads_nothing(db):
    at = page().run()
    bad = WIDE.replace("24100", "24.1k").encode()
    at.file_uploader(key="hist_upload").set_value([("vendor.csv", bad, "text/csv")]).run()
    assert not at.exception
    (error,) = [e.value for e in at.error]
    assert "vendor.csv** could not be mapped" in error and "row 3, column 'ResNet-50 (images/s)'" in error
    assert any("Nothing loaded yet" in i.value for i in at.info)


def test_a_tab_switch_reuses_the_mapped_rows_and_a_new_mapping_is_applied_at_once(db):
    at = page().run()
    at.file_uploader(key="hist_upload").set_value([("vendor.csv", WIDE.encode(), "text/csv")]).run()
    assert at.selectbox(key="hist_metric").value == "Throughput per device (examples/s)"
    at.session_state["hist_tab"] = "Pivot"
    at.run()  # cached per (file digest, mapping): the same rows, nothing re-mapped
    assert not at.exception and "vendor.csv**: 7 rows mapped" in " ".join(s.value for s in at.success)
    doc = {"accelbench_mapping": 1, "shape": "wide", "roles": {"System": "system", "ResNet-50 (images/s)": "value"},
           "values": {"ResNet-50 (images/s)": {"metric": "Speed", "unit": "img/min", "model": "ResNet-50",
                                               "direction": "higher"}}}  # fmt: skip
    (up,) = [u for u in at.get("file_uploader") if u.label == "Use a saved mapping (JSON)"]
    up.set_value([("vendor.mapping.json", json.dumps(doc).encode(), "application/json")]).run()
    assert not at.exception and "vendor.csv**: 4 rows mapped" in " ".join(s.value for s in at.success)
    assert at.selectbox(key="hist_metric").value == "Speed (img/min) · higher is better"
