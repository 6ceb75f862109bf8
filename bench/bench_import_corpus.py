"""The share of the foreign corpus History gets right at first sight — no action after the upload (issue 43 item 6).

    python bench/bench_import_corpus.py [--corpus DIR] [--json]

Each file of tests/data/foreign/EXPECTED.json (real outputs of other tools, listed byte for byte in SOURCES.md) is read
from DIR (default: $ACCELBENCH_FOREIGN_CORPUS, else ../shared/foreign/), checked against its git blob, mapped headless
as the History page proposes (`read_raw` → `apply_import`) and judged by the test's own check
(tests/imports/foreign_corpus.problems): the default chart's metric, its unit, the device and count, and the file's own
numbers. A file that names no device is right when History asks for one (the one action such a file needs) and shows
the numbers once it is typed. Prints one line per file (right, or the first thing wrong), the share, and the share per
failure class recorded in EXPECTED.json; --json prints the same as one JSON object. Exit 2 when the corpus is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "imports")]

from foreign_corpus import RIGHT, corpus_dir, expected, problems, read_bytes  # noqa: E402


def judge(folder: Path) -> list[dict]:
    """One record per corpus file: its tool, whether it is right, what is wrong, the class recorded, seconds taken."""
    records = []
    for name, exp in sorted(expected().items()):
        start = time.perf_counter()
        wrong = problems(read_bytes(folder, name, exp), name, exp)
        records.append({"file": name, "tool": exp["tool"], "right": not wrong, "wrong": wrong,
                        "recorded": exp["now"], "seconds": round(time.perf_counter() - start, 3)})  # fmt: skip
    return records


def summary(records: list[dict]) -> dict:
    right = sum(r["right"] for r in records)
    classes = Counter(r["recorded"] for r in records if not r["right"])
    stale = [r["file"] for r in records if r["right"] != (r["recorded"] == RIGHT)]
    return {"files": len(records), "tools": len({r["tool"] for r in records}), "right": right,
            "share_right": round(right / len(records), 3) if records else 0.0, "not_right_by_class": dict(classes),
            "expected_json_out_of_date": stale, "seconds": round(sum(r["seconds"] for r in records), 2)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", help="folder holding the corpus files (default: $ACCELBENCH_FOREIGN_CORPUS)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    args = parser.parse_args()
    folder = Path(args.corpus) if args.corpus else corpus_dir()
    if folder is None or not folder.is_dir():
        print("no foreign corpus found: give --corpus DIR or set ACCELBENCH_FOREIGN_CORPUS "
              "(the files are listed in tests/data/foreign/SOURCES.md)", file=sys.stderr)  # fmt: skip
        return 2
    try:
        records = judge(folder)
    except (OSError, ValueError) as exc:
        print(f"{exc} — see tests/data/foreign/SOURCES.md", file=sys.stderr)
        return 2
    total = summary(records)
    if args.json:
        print(json.dumps({"summary": total, "files": records}, indent=1, ensure_ascii=False))
        return 0
    for r in records:
        print(
            f"{'right' if r['right'] else 'WRONG'}  {r['file']}  ({r['tool']})"
            + ("" if r["right"] else f": {r['wrong'][0]}")
        )
    print(f"\nright at first sight: {total['right']}/{total['files']} files = {total['share_right']:.0%} "
          f"({total['tools']} tools, {total['seconds']} s)")  # fmt: skip
    for kind, n in sorted(total["not_right_by_class"].items(), key=lambda kv: -kv[1]):
        print(f"  not right, {kind}: {n}")
    if total["expected_json_out_of_date"]:
        print(f"EXPECTED.json 'now' out of date for: {', '.join(total['expected_json_out_of_date'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
