"""Screenshots of the screens issue 45 changed, at 1366×768 and 1920×1080, light and dark, in headless Chromium
(bench/screenshot_compare_which.py's shooter), saved under docs/screenshots/:

- compare_answer_reuters_*: Compare's answer box for a real reuters_conv1d run at batch 32 — the box's rows are
  the one answer's ("Which device?"'s figures for the same devices);
- compare_which_empty_*: "Which device?" on a store holding only the Quick check's matmul — the way on (start the
  quick training check);
- home_presets_*: Home's presets with the Quick training check beside the Quick check.

    .venv/bin/python bench/screenshot_one_answer.py

Each store is made fresh in a temporary folder by real runs on this machine (about half a minute).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_compare_which import OUT, ROOT, serve_and_shoot, shoot_section  # noqa: E402


def _run(db: Path, *args: str) -> str:
    env = {**os.environ, "ACCELBENCH_DB": str(db), "TF_CPP_MIN_LOG_LEVEL": "3"}
    proc = subprocess.run([sys.executable, "-m", "engine", "run", *args, "--json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return str(json.loads(proc.stdout.strip().splitlines()[-1])["run_id"])


def _drawn(selector: str):
    def wait(page) -> None:
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", state="attached")
        page.wait_for_selector(selector, state="visible")
        page.wait_for_timeout(2000)  # the grid's canvas

    return wait


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        train = Path(tmp) / "train.db"
        run_id = _run(train, "--model", "reuters_conv1d", "--dataset", "synthetic", "--batch-size", "32",
                      "--epochs", "2", "--steps-per-epoch", "10", "--backend", "torch")  # fmt: skip
        box = ".st-key-cmp_answer"
        serve_and_shoot(train, Path(tmp), lambda url: shoot_section(
            f"{url}/compare?run={run_id}", box, "compare_answer_reuters", _drawn(f"{box} [data-testid='stDataFrame']"),
            OUT, timeout_ms=180_000))  # fmt: skip
        micro = Path(tmp) / "micro.db"
        matmul = _run(micro, "--bench", "matmul", "--m", "512", "--n", "512", "--k", "512", "--repeats", "5")
        which = ".st-key-cmp_which"
        serve_and_shoot(micro, Path(tmp), lambda url: shoot_section(
            f"{url}/compare?run={matmul}", which, "compare_which_empty", _drawn(".st-key-cmp_which_quick_train"), OUT))
        serve_and_shoot(micro, Path(tmp), lambda url: shoot_section(
            url, "[data-testid='stMain']", "home_presets", _drawn(".st-key-home_run_quick_train"), OUT))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
