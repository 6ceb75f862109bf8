"""Every vendor's device against the H100 in "Which device?", beside what one suite measured in one round (issue 42).

For a ResNet-50, BERT-base and GPT-2 small run at mixed bf16 and float32, the answer's one-device rate of each
device ÷ the H100's; then the same-round MLPerf Training ratios in the reference table (per chip, medians over
submitters) that the stack factors are learned from — a sanity line, not a hold-out (they are in the data).
Run it in two checkouts to compare (the numbers depend only on data/reference and the code):

    .venv/bin/python bench/bench_vendor_ratios.py [--markdown]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "compare"))

from engine.compare import which as wd  # noqa: E402
from engine.compare.estimate.stack_factor import cross_vendor_pairs  # noqa: E402
from engine.compare.facts import likeforlike as lfl  # noqa: E402
from engine.reference.data import load_reference  # noqa: E402
from engine.reference.units import short_name  # noqa: E402

KEYS = ("b200", "h200", "mi300x", "mi325x", "tpu_v6e", "tpu_v5p", "tpu_v4", "l40s", "l4", "a100")
RUN = {
    "schema_version": 2, "run_id": "20261125-200832-35b812", "created_at": "2026-11-25T20:08:32Z", "status": "ok",
    "source": "local", "kind": "train", "model": "resnet50", "dataset": "synthetic", "dtype": "float32",
    "precision": "float32", "xla": False, "device": "cpu", "backend": "tensorflow", "strategy": "default",
    "replicas": 1, "global_batch_size": 8, "per_replica_batch_size": 8, "epochs": 2, "steps_per_epoch": 2,
    "step_time_ms_median": 2680.9, "examples_per_sec": 2.984, "host_cores": 2,
}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    ref = load_reference()
    sep = " | " if args.markdown else "  "
    print(sep.join(["model", "precision", *(short_name(k) for k in KEYS)]))
    for model in ("resnet50", "bert_base", "gpt2_small"):
        for precision in ("mixed_bfloat16", "float32"):
            w = wd.which_device({**RUN, "model": model, "precision": precision}, ref)
            by = {r.hardware_key: r.rate_one_device for r in w.rows} if w else {}
            h = by.get("h100")
            cells = [f"{by[k] / h:.2f}" if h and k in by else "—" for k in KEYS]
            print(sep.join([model, precision, *cells]))
    rates = [r for r in (lfl.rate_of_reference(x) for x in ref[ref["task"] == "training"].to_dict("records")) if r]
    print("\nsame-round pairs, one suite each (per chip):")
    for x, y, rnd in cross_vendor_pairs(rates):
        if x.one and y.one:
            print(f"  {rnd} {x.workload}: {short_name(x.hardware_key)}/{short_name(y.hardware_key)} "
                  f"{x.one.value / y.one.value:.2f} ({x.precision} vs {y.precision})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
