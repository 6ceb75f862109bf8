"""One answer per screen (issue 45): Compare's box (the default picks and the automatic rows beside them) against
"Which device?" for the same run, device by device — the same figure once both read one pipeline.

    .venv/bin/python bench/bench_one_answer.py            # a reuters_conv1d run at batch 32, a ResNet-50 at 16

Prints one line per device: the box's one-device rate (its ranked row; a figure beside the scale aside), the
ranked rate of "Which device?", and their ratio. Pure Python on the reference table; no run is made.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.compare.facts import likeforlike as lfl  # noqa: E402
from engine.compare.picks import automatic_rows, default_rows  # noqa: E402
from engine.compare.which import which_device  # noqa: E402
from engine.reference.data import load_reference  # noqa: E402

RUNS = (("reuters_conv1d", 32, 1500.0), ("resnet50", 16, 9.0))
DEVICES = ("t4", "a100", "h200", "b200", "tpu_v5e", "tpu_v6e")


def main() -> int:
    ref = load_reference()
    print("| run | device | box (ex/s, one device) | Which device? (ex/s) | box ÷ Which |")
    print("|---|---|---:|---:|---:|")
    for model, batch, eps in RUNS:
        run = {"run_id": "20261128-000000-one", "kind": "train", "model": model, "dataset": "synthetic",
               "device": "cpu", "backend": "torch", "precision": "float32", "global_batch_size": batch, "epochs": 2,
               "steps_per_epoch": 10, "examples_per_sec": eps, "step_time_ms_median": batch / eps * 1000,
               "replicas": 1, "status": "ok"}  # fmt: skip
        base = lfl.rate_of_run(run)
        assert base is not None
        picks = default_rows(base, ref, estimates=False)
        shown = [*picks, *automatic_rows(base, ref, picks)]
        which = which_device(run, ref)
        assert which is not None
        ranked = {r.hardware_key: r.rate_one_device for r in which.rows}
        for key in DEVICES:
            box = [r for r in shown if r.hardware_key == key and r.settings.get("scale_role") != "beside"]
            value = (box[0].one or box[0]).value if box else None
            want = ranked.get(key)
            ratio = f"{value / want:.2f}" if value and want else "—"
            print(f"| {model}, CPU, batch {batch} | {key} | {value or 0:,.0f} | {want or 0:,.0f} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
