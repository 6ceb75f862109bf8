"""Screenshots of Compare's "Which device?" section at 1366×768 and 1920×1080, light and dark theme, in
headless Chromium (Playwright driving Debian's chromium, as tests/e2e does), saved as
docs/screenshots/compare_which_<width>_<theme>.png (the window, the section's heading at its top) and
compare_which_<width>_<theme>_section.png (the whole section at that width).

    .venv/bin/python bench/screenshot_compare_which.py                 # a fresh store, one real ResNet-50 run
    .venv/bin/python bench/screenshot_compare_which.py --model tiny_cnn
    .venv/bin/python bench/screenshot_compare_which.py --precision mixed_bfloat16   # compare_which_bf16_*.png
    .venv/bin/python bench/screenshot_compare_which.py --flowers      # real JPEGs at 192×192: compare_which_flowers_*.png
    .venv/bin/python bench/screenshot_compare_which.py --db results.db --run RUN_ID

Without --db the script makes a store in a temporary folder and trains the model there for a few steps on this
machine (ResNet-50: batch 8, 2 epochs of 2 steps, about a minute on 2 cores), so the section shows a real run
against the measured, published and estimated devices. The app follows the browser's light/dark preference
(.streamlit/config.toml sets no theme base), so one server serves both themes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
VIEWPORTS = ((1366, 768), (1920, 1080))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(db: Path, model: str, precision: str = "float32", data_dir: Path | None = None) -> str:
    """One real training run in `db` at `precision` (on the flowers files in `data_dir`, else synthetic); its id."""
    env = {**os.environ, "ACCELBENCH_DB": str(db), "TF_CPP_MIN_LOG_LEVEL": "3"}
    dataset = ["--dataset", "synthetic"]
    if data_dir is not None:  # real JPEGs: engine data sample flowers (TFRecords), read at 192×192
        sample = ["data", "sample", "flowers", "--out", str(data_dir), "--examples", "64", "--size", "250x180"]
        subprocess.run([sys.executable, "-m", "engine", *sample], cwd=ROOT, env=env, capture_output=True, check=True)
        dataset = ["--dataset", "flowers", "--data-dir", str(data_dir)]
    args = ["--model", model, *dataset, "--batch-size", "8" if model == "resnet50" else "32"]
    args += ["--precision", precision]
    args += ["--epochs", "2", "--steps-per-epoch", "2" if model == "resnet50" else "3", "--json"]
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "run", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return str(json.loads(proc.stdout.strip().splitlines()[-1])["run_id"])


def _serve(db: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"]
    env = {**os.environ, "ACCELBENCH_DB": str(db)}
    env.pop("ACCELBENCH_DEMO", None)
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 90
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited; see {log}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read().decode().strip() == "ok":
                    return proc, url
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("streamlit did not become healthy in time")


def _wait(page) -> None:
    from playwright.sync_api import expect

    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']", state="attached")
    page.wait_for_timeout(500)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", state="attached")
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0)
    page.wait_for_selector(".st-key-cmp_which .js-plotly-plot", state="visible")
    page.locator(".st-key-cmp_which [data-testid='stDataFrame']").last.wait_for(state="visible")  # the table
    page.wait_for_timeout(1500)  # plotly's transitions and the grid's canvas


def shoot(url: str, run_id: str, out: Path, prefix: str = "compare_which") -> list[Path]:
    # estimating every device takes seconds on a busy 2-core host: a generous wait for the page to draw
    return shoot_section(f"{url}/compare?run={run_id}", ".st-key-cmp_which", prefix, _wait, out, timeout_ms=180_000)


def shoot_section(page_url: str, box: str, prefix: str, wait, out: Path, timeout_ms: int = 60_000) -> list[Path]:
    """`<prefix>_<width>_<theme>.png` (the window, the section `box` at its top) and `…_section.png` (the whole
    section at that width) for each viewport and theme; `wait(page)` returns once the page has drawn."""
    from playwright.sync_api import sync_playwright

    exe = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        raise SystemExit("no system chromium: apt-get install -y chromium")
    out.mkdir(parents=True, exist_ok=True)
    saved = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
        for width, height in VIEWPORTS:
            for theme in ("light", "dark"):
                ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=theme)
                page = ctx.new_page()
                page.set_default_timeout(timeout_ms)
                page.goto(page_url)
                wait(page)
                section = page.locator(box)
                # the window as a user sees it: the section's heading at the top of the 1366×768 (1920×1080) view
                section.evaluate("e => e.scrollIntoView({block: 'start'})")
                page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollBy(0, -72)")  # the header
                page.wait_for_timeout(800)
                path = out / f"{prefix}_{width}_{theme}.png"
                page.screenshot(path=str(path))
                # the whole section at the same width: Streamlit scrolls inside its main area, so the window is
                # made as tall as the page for this one (the layout depends on the width only)
                tall = int(page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight"))
                page.set_viewport_size({"width": width, "height": max(height, tall + 100)})
                page.wait_for_timeout(1500)
                full = out / f"{prefix}_{width}_{theme}_section.png"
                section.screenshot(path=str(full))
                saved += [path, full]
                ctx.close()
        browser.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, help="a results store holding --run (default: a fresh one with a new run)")
    ap.add_argument("--run", help="the run to show (with --db)")
    ap.add_argument("--model", default="resnet50", help="the model trained for a fresh store (default resnet50)")
    ap.add_argument("--precision", default="float32", help="the fresh run's precision (mixed_bfloat16: *_bf16_*)")
    ap.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default docs/screenshots)")
    ap.add_argument("--flowers", action="store_true", help="train on sampled flowers JPEGs at 192×192 (*_flowers_*)")
    args = ap.parse_args(argv)
    prefix = "compare_which" + ("_bf16" if args.precision == "mixed_bfloat16" else "") + ("_flowers" * args.flowers)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "results.db"
        data = Path(tmp) / "flowers" if args.flowers else None
        run_id = args.run or _run(db, args.model, args.precision, data)
        return serve_and_shoot(db, Path(tmp), lambda url: shoot(url, run_id, args.out, prefix))


def serve_and_shoot(db: Path, tmp: Path, shoot_at) -> int:
    """Serve the app on `db`, take `shoot_at(url)`'s screenshots, print their paths, stop the server."""
    proc, url = _serve(db, tmp / "streamlit.log")
    try:
        for path in shoot_at(url):
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
