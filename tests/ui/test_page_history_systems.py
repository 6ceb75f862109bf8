"""History's mapping step shows each system name read into parsed columns (device, count, memory, form factor,
variant, provider, host) in an editable table, and the rows follow them (issue 22 item 1)."""

from __future__ import annotations

from conftest import ROOT
from streamlit.testing.v1 import AppTest

NAMES = (
    "system,resnet50 (images/s)\n"
    "LambdaOD_Texas_1xH100_80GB_SXM5_10_0_0_1_v2,1750\nLambdaOD_Texas_8xH100_80GB_SXM5_10_0_0_2_v2,13000\n"
)


def test_the_mapping_step_shows_parsed_system_columns(db):
    at = AppTest.from_file(str(ROOT / "pages" / "history.py"), default_timeout=60).run()
    at.file_uploader(key="hist_upload").set_value([("lambda.csv", NAMES.encode(), "text/csv")]).run()
    assert not at.exception and not at.error
    tables = [d.value for d in at.dataframe if list(d.value.columns)[:2] == ["system", "device_count"]]
    parsed = tables[0].set_index("system")
    first = parsed.loc["LambdaOD_Texas_8xH100_80GB_SXM5_10_0_0_2_v2"]
    assert first[["device_model", "device_count", "form_factor", "host", "provider", "variant"]].tolist() == [
        "H100",
        8,
        "SXM5",
        "10.0.0.2",
        "LambdaOD Texas",
        "v2",
    ]
    assert any("How the names are read" in c.value for c in at.caption)
    assert any("lambda.csv**: 2 rows mapped" in s.value for s in at.success)
