"""Screenshots of issue 38's two views at 1366×768 and 1920×1080, light and dark, in headless Chromium (as
bench/screenshot_compare_which.py): the Run card's "Input or compute?" box with its bar split into waiting for
input and computing (docs/screenshots/run_input_<width>_<theme>[_section].png) and the Sweep page's training
against input workers with the step alone as a line (sweep_workers_<width>_<theme>[_section].png).

    .venv/bin/python bench/screenshot_input_bound.py --db results.db --run RUN_ID --sweep SWEEP_ID
    .venv/bin/python bench/screenshot_input_bound.py       # a fresh store holding the tests' rows

docs/screenshots/*_measured_*.png were taken with --db on this 2-core CPU (2026-11-27): `engine data sample
flowers --out DIR --examples 256 --size 500x375`, `engine run --model flowers_cnn --dataset flowers --data-dir DIR
--batch-size 32 --input-workers 1 --epochs 1 --steps-per-epoch 6` and `engine sweep --models flowers_cnn
--datasets flowers --data-dir DIR --batch-sizes 32 --input-workers 1,2 --epochs 1 --steps-per-epoch 6 --on local`
(compute-bound here: the pipeline alone delivered 370–680 examples/s, the step 10–18).

With --db: a store holding a real run on files (`engine data sample flowers …`, then `engine run --model
flowers_cnn --dataset flowers --data-dir DIR --input-workers 1`) and a sweep over --input-workers. Without it, a
fresh store gets the rows the tests use (tests/compare/test_input_cap.py's FLOWERS run and
tests/ui/test_page_sweep_workers.py's cells: the figures the issue reports for this CPU, not a new measurement).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_compare_which import OUT, ROOT, serve_and_shoot, shoot_section  # noqa: E402

RUN_BOX, SWEEP_BOX = ".st-key-run_input", ".st-key-sweep_workers_box"


def _test_rows(db: Path) -> tuple[str, str]:
    """The tests' flowers run and input-workers sweep written through the store; (run id, sweep id)."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the tests import their conftest by name
    from engine.runs.store import Store
    from tests.compare.test_input_cap import FLOWERS
    from tests.ui.test_page_sweep_workers import CELLS, SWEEP

    store = Store(db)
    for row in (FLOWERS, *CELLS):
        store.insert_run(row)  # type: ignore[arg-type]
    return str(FLOWERS["run_id"]), SWEEP


def _waiter(box: str):
    def wait(page) -> None:
        from playwright.sync_api import expect

        page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']", state="attached")
        page.wait_for_timeout(500)
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", state="attached")
        expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=120_000)  # the Run page loads a while
        page.locator(f"{box} .js-plotly-plot").first.wait_for(state="visible")
        page.wait_for_timeout(1500)  # plotly's transitions

    return wait


def shoot(url: str, run_id: str, sweep_id: str, out: Path, tag: str = "") -> list[Path]:
    run_page, sweep_page = f"{url}/run?run={run_id}", f"{url}/sweep?sweep={sweep_id}"
    saved = shoot_section(run_page, RUN_BOX, f"run_input{tag}", _waiter(RUN_BOX), out, 120_000)
    return saved + shoot_section(sweep_page, SWEEP_BOX, f"sweep_workers{tag}", _waiter(SWEEP_BOX), out, 120_000)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, help="a results store holding --run and --sweep (default: the tests' rows)")
    ap.add_argument("--run", help="a training run on files (with --db)")
    ap.add_argument("--sweep", help="a sweep over --input-workers (with --db)")
    ap.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default docs/screenshots)")
    ap.add_argument("--tag", default="", help="added to the file names, e.g. _measured (default none)")
    args = ap.parse_args(argv)
    if args.db and not (args.run and args.sweep):
        ap.error("--db needs --run RUN_ID and --sweep SWEEP_ID")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "results.db"
        run_id, sweep_id = (args.run, args.sweep) if args.db else _test_rows(db)
        return serve_and_shoot(db, Path(tmp), lambda url: shoot(url, run_id, sweep_id, args.out, args.tag))


if __name__ == "__main__":
    raise SystemExit(main())
