"""The answer's own cost: CPU time of "Which device?" (engine.compare.which.which_device: every GPU and TPU for a run)
and of one device's answer (engine.compare.answer.answer_for_run, --device h100), on the real reference table, for
this checkout and, with --against, another checkout of AccelBench (a `git worktree` of an older commit), the two
interleaved round by round in fresh processes so the shared machine's load falls on both alike.

    python bench/bench_answer.py [--rounds 5] [--against /path/to/older/checkout] [--calls 3]

Each process imports the engine and loads the reference table (untimed), then times its first answer of each kind
(what one `engine compare` pays: the step model fitted for every device, "Which device?" first) and the median of
`--calls` more (the fits cached, as on a dashboard rerun), with time.process_time (CPU seconds of this process: the
tool's cost, not the host's load) and time.perf_counter. The run is a ResNet-50
mixed-bf16 CPU run (the row the tests use, tests/compare/test_which_device.py's R50), no results store.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, statistics, sys, time
sys.path[:0] = [".", "tests", "tests/compare"]
from test_which_device import R50
from engine.compare import answer as ans, which as wd
from engine.reference.data import load_reference
ref, run, calls = load_reference(), {**R50, "precision": "mixed_bfloat16"}, int(sys.argv[1])
kinds = {"which_device": lambda: wd.which_device(run, ref), "answer_h100": lambda: ans.answer_for_run(run, ref, device="h100")}
out = {}
for name, fn in kinds.items():  # which_device first: its first answer fits the step model for every device
    cpu, wall = [], []
    for _ in range(calls + 1):
        c, w = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c); wall.append(time.perf_counter() - w)
    out[name + " (first)"] = {"cpu_s": cpu[0], "wall_s": wall[0]}
    out[name + " (again)"] = {"cpu_s": statistics.median(cpu[1:]), "wall_s": statistics.median(wall[1:])}
print(json.dumps(out))
"""


def _one(checkout: Path, calls: int) -> dict[str, dict[str, float]]:
    got = subprocess.run(
        [sys.executable, "-c", CHILD, str(calls)], cwd=checkout, capture_output=True, text=True, check=True
    )
    return json.loads(got.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--calls", type=int, default=3)
    p.add_argument("--against", type=Path, help="another checkout to time beside this one, interleaved")
    args = p.parse_args(argv)
    trees = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    rounds: dict[str, list[dict[str, dict[str, float]]]] = {k: [] for k in trees}
    for i in range(args.rounds):
        order = list(trees) if i % 2 == 0 else list(reversed(trees))
        for k in order:
            rounds[k].append(_one(trees[k], args.calls))
    print("| checkout | answer | CPU s, median [min–max] | wall s, median [min–max] |")
    print("|---|---|---|---|")
    for k, rs in rounds.items():
        for name in rs[0]:
            cpu, wall = [r[name]["cpu_s"] for r in rs], [r[name]["wall_s"] for r in rs]
            print(
                f"| {k} | {name} | {statistics.median(cpu):.3f} [{min(cpu):.3f}–{max(cpu):.3f}] "
                f"| {statistics.median(wall):.3f} [{min(wall):.3f}–{max(wall):.3f}] |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
