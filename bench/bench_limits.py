"""The speed and size limits AccelBench promises, measured (the unit suite checks behaviour only).

    python bench/bench_limits.py [--rounds 5] [--no-browser] [--markdown]

- CLI refusal: `python -m engine run --bench matmul --m 0` exits 2 within 1 s (interpreter start
  included; the refusal path imports no TensorFlow, which tests/test_cli_validation.py checks);
- History export read: `engine.results.csvio.read_export` on a 100,000-row AccelBench export
  within 3 s (about 0.6 s on the 2-core dev machine);
- Server memory: the `streamlit run app.py` process tree under 400 MB resident after every page has
  been visited with no run going (needs Debian's chromium; skipped with --no-browser).

Medians over rounds. Exit status 1 when a limit is exceeded, so the script can gate a release.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_pages import big_export
from engine.results.csvio import read_export
from engine.runs.store import Store

LIMITS = {"cli_refusal_s": 1.0, "read_export_100k_s": 3.0, "server_rss_mb": 400.0}
PAGES = ["", "run", "compare", "history", "references", "devices"]
SAMPLE = ROOT / "data" / "history" / "sample_accelbench_export.csv"


def cli_refusal_s(rounds: int, db: Path) -> float:
    times = []
    env = {**os.environ, "ACCELBENCH_DB": str(db), "TF_CPP_MIN_LOG_LEVEL": "3"}
    for _ in range(rounds):
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "engine", "run", "--bench", "matmul", "--m", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        times.append(time.perf_counter() - t0)
        assert proc.returncode == 2, proc.stderr
    return statistics.median(times)


def read_export_s(rounds: int, tmp: Path) -> float:
    Store(tmp / "template.db").import_csv(SAMPLE.read_bytes(), SAMPLE.name)
    path = tmp / "export_100k.csv"
    big_export(100_000, path)
    data = path.read_bytes()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        frame = read_export(data)
        times.append(time.perf_counter() - t0)
        assert len(frame) == 100_000
    return statistics.median(times)


def server_rss_mb(tmp: Path) -> float:
    import psutil
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path, serving, wait_for_app

    with serving(tmp) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        for path in PAGES:
            page.goto(f"{server.url}/{path}")
            wait_for_app(page)
        proc = psutil.Process(server.proc.pid)
        rss = sum(q.memory_info().rss for q in [proc, *proc.children(recursive=True)]) / 2**20
        browser.close()
    return rss


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-browser", action="store_true", help="skip the server-memory check (needs chromium)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table (for BENCHMARKS.md)")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="bench_limits_"))
    measured = {
        "cli_refusal_s": cli_refusal_s(args.rounds, tmp / "cli.db"),
        "read_export_100k_s": read_export_s(args.rounds, tmp),
    }
    if not args.no_browser:
        measured["server_rss_mb"] = server_rss_mb(tmp)
    over = [name for name, value in measured.items() if value > LIMITS[name]]
    if args.markdown:
        print(f"| Limit (median of {args.rounds}) | Measured | Limit |")
        print("|---|---:|---:|")
        for name, value in measured.items():
            print(f"| {name} | {value:.2f} | {LIMITS[name]:g} |")
    else:
        print(json.dumps({"measured": {k: round(v, 2) for k, v in measured.items()}, "over": over}, indent=1))
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
