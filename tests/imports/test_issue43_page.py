"""Issue 43 on the History page (AppTest): the same pipeline as the CLI — a table of ms per step and a settings
file of another name dropped together pair, the time per step becomes examples/s with the batch from the file
name, and each reading's source is said; Use on Compare says why it cannot pair two devices."""

from __future__ import annotations

import json

from conftest import ROOT
from streamlit.testing.v1 import AppTest

STEP_TIMES = "resnet50,vgg16\n100.0,250.0\n99.8,251.2\n100.2,249.9\n100.0,250.0\n"


def test_a_step_times_table_and_its_config_json_pair_and_chart_examples_per_second(db):
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    files = [("bench_bs64_half_model_train_benchmark.csv", STEP_TIMES.encode(), "text/csv"),
             ("config.json", json.dumps({"gpu": "RTX 3090"}).encode(), "application/json")]  # fmt: skip
    at.file_uploader(key="hist_upload").set_value(files).run()
    assert not at.exception and not at.error
    said = " ".join(c.value for c in at.caption)
    assert "Settings from **config.json** are added to every row" in said  # paired although named otherwise
    assert "batch 64 from the file name" in said and "Throughput (examples/s) = the batch ÷ Time per step" in said
    assert at.selectbox(key="hist_metric").options == ["Throughput (examples/s)", "Time per step (ms)"]  # both shown
    assert "Use on Compare: one device only (RTX 3090" in " ".join(s.value for s in at.success)


SWEEP = "gpu,model,seq_len,tokens_per_sec\n" + "".join(
    f"{gpu},llama,{seq},{rate + i}\n"
    for gpu, base in (("H100", 3000), ("A100", 1500))
    for seq, rate in ((512, base), (2048, base // 2))
    for i in range(3)
)


def test_a_setting_is_offered_in_group_by_and_the_default_chart_pools_nothing(db):
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    at.file_uploader(key="hist_upload").set_value([("sweep.csv", SWEEP.encode(), "text/csv")]).run()
    assert not at.exception and not at.error
    group = at.multiselect(key="hist_group")
    assert "setting.seq len" in group.options and group.value == ["configuration", "workload"]
    assert not [w for w in at.warning if "join rows of several configurations" in w.value]  # no ⚠ bar
    group.set_value(["device_label", "workload"]).run()  # a grouping that leaves the setting out is marked
    (pooled,) = [w.value for w in at.warning if "join rows of several configurations" in w.value]
    assert "seq len: 2048, 512" in pooled
