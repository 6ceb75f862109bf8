"""Published rows say what they fed (issue 38 item 5): from each row's own data_kind and source, unknown as unknown."""

from __future__ import annotations

import pandas as pd
from conftest import ROOT

from engine.reference.feed import SYNTHETIC, UNKNOWN, fed


def _rows() -> pd.DataFrame:
    return pd.read_csv(ROOT / "data" / "reference" / "reference_numbers.csv")


def test_lambdas_resnet50_is_synthetic_and_mlperf_real_through_its_pipeline():
    ref = _rows()
    lam = ref[(ref.source_id == "LAMBDA-DLB-V2") & (ref.model == "resnet50")]
    assert len(lam) and {fed(r) for r in lam.to_dict("records")} == {SYNTHETIC}
    ml = ref[ref.source_id.str.startswith("MLPERF-V") & (ref.model == "resnet50")]
    assert len(ml) and all("DALI" in fed(r) and r"real data" in fed(r) for r in ml.to_dict("records"))
    tpu = ref[ref.source_id == "MLPERF-TPU"]
    assert len(tpu) and all(fed(r).startswith("real data") and "DALI" not in fed(r) for r in tpu.to_dict("records"))


def test_a_row_that_does_not_say_is_unknown():
    assert fed({"source_id": "X", "data_kind": None}) == UNKNOWN
    assert fed({"source_id": "X", "data_kind": "unknown"}) == UNKNOWN


def test_which_device_names_what_each_figure_beside_the_ranking_fed(ref):
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "compare"))
    from test_which_device import R50

    from engine.compare import which as wd
    from engine.compare.words.which_text import beside_lines

    w = wd.which_device({**R50, "precision": "mixed_bfloat16"}, ref)
    assert w.beside and all(r.fed for r in w.beside)
    lambda_rows = [r for r in w.beside if "Lambda" in r.label or "LAMBDA" in str(r.how)]
    assert all(r.fed == SYNTHETIC for r in lambda_rows)
    assert any(SYNTHETIC in line or "real data" in line for line in beside_lines(w))
    # a real-data row says so (issue 45: labelling every figure beside the ranking "synthetic" must fail here):
    # MLPerf's L40S ResNet-50 went through NVIDIA's DALI, the TPU rows through the submitter's host pipeline
    (l40s,) = [r for r in w.beside if r.device == "L40S"]
    assert l40s.fed.startswith("real data") and "DALI" in l40s.fed
    assert all(r.fed.startswith("real data") and "host pipeline" in r.fed for r in w.beside if r.device in ("TPU v3", "TPU v4"))
    lines = beside_lines(w)
    assert any("L40S" in line and "DALI" in line for line in lines)  # and the words under the table carry it
