"""History in a real browser with other tools' files (issue 13): a wide vendor table and a JSON array of runs
go through the mapping step (detected shape, roles, system-name preview, first rows) and end in a chart; then a
malformed table names its row and column and loads nothing. Mirrors tests/ui/test_page_history_import.py.

Real `streamlit run app.py`, Debian's chromium; screenshot at 1366×768 in artifacts/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot, serving, wait_for_app

pytestmark = pytest.mark.e2e

WIDE = (
    "System,ResNet-50 (images/s),BERT-Large (sequences/s)\n"
    "8x H100 80GB SXM5 (host-3),25000,9000\n"
    "8x H100 80GB SXM5 (host-4),24100,8800\n"
    "1x H100 80GB SXM5 (host-5),3300,1200\n"
    "2x RTX 3090 NVLink,2400,OOM\n"
)
RUNS = (
    '[{"gpu":"V100","model":"resnet50","throughput_img_s":1200},{"gpu":"T4","model":"resnet50","throughput_img_s":400}]'
)


def open_history(page, server) -> None:
    page.goto(server.url + "/history")
    wait_for_app(page)
    expect(page.get_by_test_id("stSidebarNav")).to_contain_text("Compare")  # inside app.py's frame


def test_wide_table_and_json_array_map_to_a_chart_and_a_malformed_file_names_row_and_column(page, tmp_path):
    wide, runs, bad = tmp_path / "vendor.csv", tmp_path / "runs.json", tmp_path / "broken" / "vendor.csv"
    wide.write_text(WIDE)
    runs.write_text(RUNS)
    bad.parent.mkdir()
    bad.write_text(WIDE.replace("24100", "24.1k"))
    (tmp_path / "srv").mkdir()

    with serving(tmp_path / "srv") as server:
        open_history(page, server)
        expect(page.get_by_text("Nothing loaded yet")).to_be_visible()
        page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files([str(wide), str(runs)])
        wait_for_app(page)

        # The mapping step: one expander per file with the detected shape, the roles, the rules and a preview.
        vendor = page.get_by_test_id("stExpander").filter(has_text=re.compile(r"vendor\.csv — wide table"))
        records = page.get_by_test_id("stExpander").filter(has_text=re.compile(r"runs\.json — JSON records"))
        expect(vendor).to_have_count(1, timeout=30_000)
        expect(records).to_have_count(1)
        expect(vendor).to_contain_text("Read as")
        expect(vendor.get_by_text("System-name rules")).to_be_visible()
        expect(vendor).to_contain_text("The first rows as they will be imported (7 in all)")
        expect(vendor.get_by_test_id("stDataFrame")).to_have_count(
            3
        )  # the roles editor, the system-name preview, the first rows
        expect(vendor).to_contain_text("cells with no value")  # the OOM cell, dropped and said so
        expect(records.get_by_text("Fields to import")).to_be_visible()
        expect(records).to_contain_text("The first rows as they will be imported (2 in all)")
        expect(page.get_by_text("vendor.csv: 7 rows mapped")).to_be_visible()
        expect(page.get_by_text("runs.json: 2 rows mapped")).to_be_visible()

        # The chart: both files' rows on one axis.
        expect(page.get_by_text("Explore 9 rows")).to_be_visible()
        chart = page.get_by_test_id("stPlotlyChart").first
        for label in ("8× H100 · 80GB · SXM5 · ResNet-50", "2× RTX 3090 · ResNet-50", "V100 · resnet50"):
            expect(chart).to_contain_text(label, timeout=30_000)
        page.set_viewport_size({"width": 1366, "height": 768})
        chart.scroll_into_view_if_needed()
        page.wait_for_timeout(600)  # let Plotly re-lay out at the new size
        screenshot(page, "history_import_wide_json_light")

        # A malformed table in a fresh session: its row and column named, nothing loaded from it.
        open_history(page, server)
        page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files([str(bad)])
        wait_for_app(page)
        error = page.get_by_test_id("stAlertContentError").filter(has_text="vendor.csv could not be mapped")
        expect(error).to_be_visible(timeout=30_000)
        expect(error).to_contain_text("row 3, column 'ResNet-50 (images/s)'")
        expect(page.get_by_text("Nothing loaded yet")).to_be_visible()
        expect(page.get_by_text("rows mapped")).to_have_count(0)
        expect(page.get_by_text(re.compile(r"^Explore \d"))).to_have_count(0)


def test_mlenergy_json_and_many_files_at_once_chart_per_gpu_rates_and_never_pool_frameworks(page, tmp_path):
    """Issue 37: ML.ENERGY's leaderboard JSON charts per GPU × count × batch in tokens/s with no action; then the
    public files of docs/importing.md dropped at once join the batch table only into its own family and chart
    PyTorch and TensorFlow rows of one GPU and model as two bars named by their framework, never one
    (tests/imports/public_files.py writes them)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "imports"))
    from public_files import NAME, write_all

    files = write_all(tmp_path / "files")
    (tmp_path / "srv").mkdir()
    with serving(tmp_path / "srv") as server:
        open_history(page, server)
        page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files([str(tmp_path / "files" / NAME)])
        wait_for_app(page)
        expect(page.get_by_text("recognised: ML.ENERGY leaderboard").first).to_be_visible(timeout=60_000)
        expect(page.get_by_text(f"{NAME}: 50 rows mapped")).to_be_visible()
        chart = page.get_by_test_id("stPlotlyChart").first
        expect(chart).to_contain_text("Throughput per device (tokens/s)", timeout=30_000)
        for label in ("1× H100 · batch 8", "1× B200 · batch 16", "2× H100 · batch 16"):
            expect(chart).to_contain_text(label)
        screenshot(page, "history_mlenergy_light")

        open_history(page, server)
        page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files([str(f) for f in files])
        wait_for_app(page)
        expect(page.get_by_text("Join pytorch-train-bs-fp32.csv into pytorch-train-throughput-fp32.csv")).to_be_visible(
            timeout=90_000
        )
        expect(page.get_by_text(re.compile(r"Join pytorch-train-bs-fp32\.csv into tensorflow"))).to_have_count(0)
        chart = page.get_by_test_id("stPlotlyChart").first
        for framework in ("PyTorch", "TensorFlow"):  # one bar each, named by its framework, never one pooled bar
            expect(chart).to_contain_text(f"2× H100 · 80GB · SXM5 · {framework} · fp32 · resnet50", timeout=60_000)
        expect(page.get_by_test_id("stAlertContentWarning").filter(has_text="framework:")).to_have_count(0)
        screenshot(page, "history_many_files_light")
