"""Screenshots of History with other tools' files (issue 37) at 1366×768 and 1920×1080, light and dark, in headless
Chromium (as bench/screenshot_compare_which.py): ML.ENERGY's leaderboard JSON alone (per GPU × count × batch
rates in tokens/s) and the public files of docs/importing.md dropped all at once (PyTorch and TensorFlow rows as
bars named by their framework), saved as docs/screenshots/history_<scene>_<width>_<theme>.png (the window, the
chart at its top) and history_mlenergy_<width>_<theme>_page.png (the whole page at that width: its mapping step
and chart) or history_many_files_<width>_<theme>_chart.png (from "Explore" to the chart and any ⚠ under it).

    .venv/bin/python bench/screenshot_history_imports.py                       # the tests' small files
    .venv/bin/python bench/screenshot_history_imports.py --mlenergy Qwen__Qwen3-8B__gpqa.json

    .venv/bin/python bench/screenshot_history_imports.py --corpus /tmp/foreign_corpus FILE [FILE ...]

--mlenergy: a real file from github.com/ml-energy/leaderboard (public/data/models/), shown instead of the tests'
copy in the ML.ENERGY scene (copy it to /tmp; it is not shipped).
--corpus: files of the foreign corpus (tests/data/foreign/SOURCES.md; the bytes are not shipped), each dropped alone
as History proposes it, saved as history_corpus_<file stem>_<width>_<theme>.png and …_page.png (issue 43).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_compare_which import CHROMIUM_ARGS, OUT, ROOT, VIEWPORTS, serve_and_shoot  # noqa: E402

sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "imports")]  # the tests' files, importable by name as pytest does


def _wait(page, expect, text: str) -> None:
    """Until `text` (a regular expression: "Explore|Device for every row" — a file that names no device is right
    when History asks for it) and a chart are drawn."""
    import re

    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", state="attached")
    expect(page.get_by_text(re.compile(text)).first).to_be_visible(timeout=120_000)
    page.get_by_test_id("stPlotlyChart").first.wait_for(state="visible", timeout=120_000)
    page.wait_for_timeout(2000)  # plotly's transitions


def _span(page) -> tuple[float, float]:
    """From the "Explore" heading to the end of the first warning under the chart, in page pixels."""
    head = page.get_by_text("Explore", exact=False).filter(has_text="rows").first.bounding_box()
    warnings = page.get_by_test_id("stAlertContentWarning")
    warn = warnings.last.bounding_box() if warnings.count() else None
    chart = page.get_by_test_id("stPlotlyChart").first.bounding_box()
    assert head and chart
    bottom = max(chart["y"] + chart["height"], warn["y"] + warn["height"] if warn else 0) + 24
    return head["y"] - 16, bottom


def _shoot_scene(url: str, files: list[Path], prefix: str, ready: str, out: Path, whole: bool) -> list[Path]:
    from playwright.sync_api import expect, sync_playwright

    exe = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        raise SystemExit("no system chromium: apt-get install -y chromium")
    saved = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
        for width, height in VIEWPORTS:
            for theme in ("light", "dark"):
                ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=theme)
                page = ctx.new_page()
                page.set_default_timeout(120_000)
                page.goto(url + "/history")
                page.get_by_test_id("stFileUploaderDropzoneInput").first.wait_for(state="attached")
                page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files([str(f) for f in files])
                _wait(page, expect, ready)
                chart = page.get_by_test_id("stPlotlyChart").first
                chart.evaluate("e => e.scrollIntoView({block: 'start'})")
                page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollBy(0, -260)")  # its controls
                page.wait_for_timeout(800)
                path = out / f"{prefix}_{width}_{theme}.png"
                page.screenshot(path=str(path))
                tall = int(page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight"))
                page.set_viewport_size({"width": width, "height": min(max(height, tall + 100), 16_000)})
                page.wait_for_timeout(1500)
                full = out / f"{prefix}_{width}_{theme}_{'page' if whole else 'chart'}.png"
                if whole:
                    page.screenshot(path=str(full), full_page=True)
                else:  # the explore controls, the chart and the warning under it (the whole page is mostly mappings)
                    top, bottom = _span(page)
                    page.screenshot(path=str(full), clip={"x": 0, "y": top, "width": width, "height": bottom - top})
                saved += [path, full]
                ctx.close()
        browser.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mlenergy", type=Path, help="a real ML.ENERGY leaderboard JSON (default: the tests' copy)")
    ap.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default docs/screenshots)")
    ap.add_argument("--corpus", type=Path, help="the foreign corpus folder; FILES are shot one by one")
    ap.add_argument("files", nargs="*", help="with --corpus: the corpus files to show")
    args = ap.parse_args(argv)
    if args.corpus:
        return _corpus(args.corpus, args.files, args.out)
    from public_files import NAME, write_all

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        many = write_all(Path(tmp) / "files")
        energy = args.mlenergy or next(p for p in many if p.name == NAME)

        def shoot(url: str) -> list[Path]:
            saved = _shoot_scene(url, [energy], "history_mlenergy", "rows mapped", args.out, whole=True)
            return saved + _shoot_scene(url, many, "history_many_files", "TensorFlow · fp32", args.out, whole=False)

        return serve_and_shoot(Path(tmp) / "results.db", Path(tmp), shoot)


def _corpus(folder: Path, names: list[str], out: Path) -> int:
    """Each corpus file alone, as History maps it at first sight (no action)."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:

        def shoot(url: str) -> list[Path]:
            saved: list[Path] = []
            for name in names:
                stem = Path(name).stem.replace(".", "_").replace("-", "_")[:40]
                saved += _shoot_scene(url, [folder / name], f"history_corpus_{stem}", "Explore|Device for every row", out,
                                      whole=True)
            return saved

        return serve_and_shoot(Path(tmp) / "results.db", Path(tmp), shoot)


if __name__ == "__main__":
    raise SystemExit(main())
