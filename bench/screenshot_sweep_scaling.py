"""Screenshots of the Sweep page's scaling section (issue 30 item 4) at 1366×768 and 1920×1080, light and dark
theme, in headless Chromium (Playwright driving Debian's chromium, as tests/e2e does), saved as
docs/screenshots/sweep_scaling_<width>_<theme>.png (the window, the "Scaling over processes" heading at its top)
and sweep_scaling_<width>_<theme>_section.png (the whole scaling section, published curves included).

    .venv/bin/python bench/screenshot_sweep_scaling.py                  # a fresh store, one real ResNet-50 sweep
    .venv/bin/python bench/screenshot_sweep_scaling.py --model tiny_cnn  # no published curve: the empty state
    .venv/bin/python bench/screenshot_sweep_scaling.py --db results.db --sweep SWEEP_ID

Without --db the script makes a store in a temporary folder and runs a real sweep there on this machine:
`python -m engine sweep --models resnet50 --backends torch --processes 1,2 --batch-sizes 8 --epochs 2
--steps-per-epoch 2` (about 5 minutes on 2 busy cores: torch.compile dominates), so the section shows a measured
1- and 2-process curve beside Lambda's published 1–8 GPU ResNet-50 curves. The app follows the browser's
light/dark preference (.streamlit/config.toml sets no theme base), so one server serves both themes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_compare_which import OUT, ROOT, serve_and_shoot, shoot_section  # noqa: E402

BOX = ".st-key-sweep_scaling_box"


def _sweep(db: Path, model: str, processes: str, backend: str) -> str:
    """One real sweep over `processes` in `db`; its sweep id."""
    batch = "8" if model == "resnet50" else "32"
    args = ["--models", model, "--datasets", "synthetic", "--batch-sizes", batch, "--backends", backend]
    args += ["--processes", processes, "--epochs", "2", "--steps-per-epoch", "2", "--on", "local", "--json"]
    env = {**os.environ, "ACCELBENCH_DB": str(db), "TF_CPP_MIN_LOG_LEVEL": "3"}
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "sweep", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    lines = proc.stdout.strip().splitlines()
    outcome = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    failed = [r for r in outcome.get("runs", []) if r.get("status") != "ok"]
    if proc.returncode or failed or "sweep_id" not in outcome:
        errors = "; ".join(f"{r.get('run_id')}: {r.get('error')}" for r in failed)
        raise SystemExit(f"the sweep failed (exit {proc.returncode}): {errors or proc.stderr[-2000:]}")
    return str(outcome["sweep_id"])


def _wait(page) -> None:
    from playwright.sync_api import expect

    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']", state="attached")
    page.wait_for_timeout(500)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", state="attached")
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0)
    page.locator(f"{BOX} .js-plotly-plot").first.wait_for(state="visible")
    page.locator(f"{BOX} [data-testid='stDataFrame']").last.wait_for(state="visible")
    page.wait_for_timeout(1500)  # plotly's transitions and the grid's canvas


def shoot(url: str, sweep_id: str, out: Path) -> list[Path]:
    return shoot_section(f"{url}/sweep?sweep={sweep_id}", BOX, "sweep_scaling", _wait, out, timeout_ms=120_000)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, help="a results store holding --sweep (default: a fresh one, new sweep)")
    ap.add_argument("--sweep", help="the sweep to show (with --db)")
    ap.add_argument("--model", default="resnet50", help="the model swept for a fresh store (default resnet50)")
    ap.add_argument("--processes", default="1,2", help="the processes axis for a fresh store (default 1,2)")
    ap.add_argument("--backend", default="torch", help="torch or jax (default torch)")
    ap.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default docs/screenshots)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "results.db"
        sweep_id = args.sweep or _sweep(db, args.model, args.processes, args.backend)
        return serve_and_shoot(db, Path(tmp), lambda url: shoot(url, sweep_id, args.out))


if __name__ == "__main__":
    raise SystemExit(main())
