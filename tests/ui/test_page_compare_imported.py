"""Compare with rows imported on the History page (AppTest, real page, real import path): they are pickable,
they get a "how many times faster" answer next to each other, and repeated rows of one configuration give a
noise band that says "within noise"."""

from __future__ import annotations

from conftest import ROOT
from streamlit.testing.v1 import AppTest

from engine.imports.importer import load_foreign
from engine.imports.view.imported_rates import rates_of_rows

FLEET = (
    "System,ResNet-50 (images/s)\n"
    "8x H100 80GB SXM5 (host-1),21000\n8x H100 80GB SXM5 (host-2),22000\n8x H100 80GB SXM5 (host-3),21500\n"
    "8x H100 80GB SXM5 (host-9),21450\n8x A100 80GB SXM4 (host-4),13000\n8x A100 80GB SXM4 (host-5),13400\n"
    "8x H100 80GB PCIe (host-7),21300\n8x H100 80GB PCIe (host-8),21600\n"
)


def compare_page(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("ACCELBENCH_DB", str(tmp_path / "empty.db"))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    return AppTest.from_file(str(ROOT / "pages" / "compare.py"), default_timeout=60)


def text(at) -> str:
    return " ".join(str(e.value) for kind in ("markdown", "caption") for e in at.get(kind))


def test_without_imports_compare_says_where_they_come_from(tmp_path, monkeypatch):
    at = compare_page(tmp_path, monkeypatch).run()
    assert not at.exception
    assert "Use on Compare" in text(at)


def test_imported_rows_are_compared_and_repeats_give_a_noise_band(tmp_path, monkeypatch):
    rows, _ = load_foreign(FLEET.encode(), "fleet.csv")
    at = compare_page(tmp_path, monkeypatch)
    at.session_state["hist_for_compare"] = {"fleet.csv": rows}
    at.run()
    pick = at.multiselect(key="cmp_imported")
    # short enough for a half-width picker at 1366 px: no file name (the picker's title has it), no spread
    assert pick.label == "Imported on History (fleet.csv)"
    assert all("fleet.csv" not in o and "rows" not in o and len(o) <= 60 for o in pick.options)
    ids = {r.label: r.id for r, _ in rates_of_rows(rows, "fleet.csv")}
    a100 = next(i for label, i in ids.items() if "A100" in label)
    h100 = next(i for label, i in ids.items() if "H100 80GB SXM5" in label)
    pcie = next(i for label, i in ids.items() if "PCIe" in label)
    pick.set_value([a100, h100]).run()
    assert not at.exception
    assert "faster" in text(at) and "outside the noise" in text(at)
    assert "(fleet.csv) · 21,475 examples/s · 4 rows, CV" in text(at)  # the full label under the picker
    at.selectbox(key="cmp_baseline").set_value(next(r for r in at.selectbox(key="cmp_baseline").options if "H100" in r))
    at.run()
    assert not at.exception and at.get("plotly_chart")  # the bars of the two rates
    at.multiselect(key="cmp_imported").set_value([h100, pcie]).run()
    assert "within noise" in text(at)


def test_rows_that_state_one_gpu_are_single_device_figures_from_history_to_the_answer(tmp_path, monkeypatch):
    rows, _ = load_foreign(
        b"System,GPUs,ResNet-50 (images/s)\nH100 80GB SXM5,1,3000\nA100 80GB SXM4,1,1500\n", "one.csv"
    )
    at = compare_page(tmp_path, monkeypatch)
    at.session_state["hist_for_compare"] = {"one.csv": rows}
    at.run()
    at.multiselect(key="cmp_imported").set_value([r.id for r, _ in rates_of_rows(rows, "one.csv")]).run()
    assert not at.exception
    assert "does not say how many devices" not in text(at) and "no single-device figure" not in text(at)
    assert any("one device" in str(m.label) for m in at.get("metric"))  # "Times faster, one device"
