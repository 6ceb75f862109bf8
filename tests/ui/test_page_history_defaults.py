"""History under AppTest with a vendor's throughput table and its batch-size table (lambdal's
pytorch-train-throughput/bs shape, written here): the default metric is throughput with its unit, not a
per-USD column; the scaling tab says 8 devices are faster than 1; the batch table is joined, not imported."""

from __future__ import annotations

from conftest import ROOT
from streamlit.testing.v1 import AppTest

THROUGHPUT = (
    "name_gpu,num_gpu,watt,price,resnet50\n"
    "A100 80GB SXM4,1.0,400.0,15000.0,800.0\nA100 80GB SXM4,8.0,3200.0,120000.0,6000.0\nV100 16GB,1.0,300.0,9000.0,400.0\n"
)
BATCH = "name_gpu,num_gpu,resnet50\nA100 80GB SXM4,1.0,256\nA100 80GB SXM4,8.0,2048\nV100 16GB,1.0,128\n"


def test_throughput_is_the_default_with_its_unit_and_the_batch_table_is_joined(db):
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    files = [
        ("pytorch-train-throughput-fp32.csv", THROUGHPUT.encode(), "text/csv"),
        ("pytorch-train-bs-fp32.csv", BATCH.encode(), "text/csv"),
    ]
    at.file_uploader(key="hist_upload").set_value(files).run()
    assert not at.exception and not at.error
    ok = " ".join(s.value for s in at.success)
    assert "pytorch-train-throughput-fp32.csv**: 3 rows mapped" in ok and "bs-fp32.csv**:" not in ok
    assert any("joined into" in i.value for i in at.info)
    assert any(
        "Batch size from **pytorch-train-bs-fp32.csv**" in c.value and "3 of 3 rows" in c.value for c in at.caption
    )
    metric = at.selectbox(key="hist_metric")
    # rows of 1 and 8 GPUs: the default is the rate per device, never a pool of counts
    assert metric.value == "Throughput per device (examples/s)" and "Throughput (examples/s)" in metric.options
    assert all("(" in metric.format_func(m) for m in metric.options)  # every metric shows its unit
    at.session_state["hist_tab"] = "Scaling"
    at.run()
    assert not at.exception
    assert any("8 devices are **7.5× faster** than 1" in c.value for c in at.caption), [c.value for c in at.caption]
    at.session_state["hist_tab"] = "Pivot"
    at.session_state["hist_pivot_cols"] = "global_batch_size"
    at.run()
    assert not at.exception
    columns = [sorted(map(str, d.value.columns)) for d in at.dataframe]
    assert ["128", "2048", "256"] in columns, columns  # batch sizes from the companion table
    at.toggle(key=next(t.key for t in at.toggle if t.key.startswith("hist_join_"))).set_value(False).run()
    assert "pytorch-train-bs-fp32.csv**: 3 rows mapped" in " ".join(s.value for s in at.success)  # its own values
