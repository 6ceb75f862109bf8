"""Where the step model's leave-the-silicon-out error comes from (issue 42 targets): rows whose anchor shares models.

Each held-out figure of the nested leave-the-silicon-out check (the same pairs `bench_estimates.py --json` scores) is
put in one of two groups:

- **paired**: its anchor device has figures of at least MIN_SHARED models at the same precision class that the held-out
  device also has — the two devices' ratio is seen on other models. For these it also prints a yardstick: the error
  of the held-out figure against the anchor × the median of those other models' device ratios (taken with the held-out
  device's own figures, so in sample: no estimator can use it; it shows how much of the error is the models' own spread
  between the two devices, which no per-device efficiency can remove).
- **unpaired**: no anchor, or one that shares fewer models — the estimate rests on the fit alone.

    python bench/estimate_error_sources.py [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_estimates as be  # noqa: E402

from engine.compare.estimate import launch_check as lc  # noqa: E402
from engine.compare.estimate import path_check as pc  # noqa: E402
from engine.compare.estimate import silicon_check as sc  # noqa: E402

MIN_SHARED = 3


def _pct(values: list[float]) -> float | None:
    return round(100 * statistics.median(values), 1) if values else None


def error_sources() -> dict[str, Any]:
    points = be.all_points(False, False)
    launch = lc.launches(pc.training_rates(be.reference(False)), points)
    pairs = sc.nested_band(sc.leave_silicon_out(points), launch.own_run, launch.firsts).pairs
    rate = {(p.model, p.hardware_key, p.precision_class): p.examples_per_sec for p in points}
    paired: list[tuple[float, float]] = []
    unpaired: list[dict[str, Any]] = []
    errors: list[float] = []
    for p, e in pairs:
        signed = e.examples_per_sec / p.examples_per_sec - 1
        errors.append(abs(signed))
        a = e.anchor.hardware_key if e.anchor else None
        logs = [
            math.log(rate[(m, p.hardware_key, c)] / rate[(m, d, c)])
            for (m, d, c) in rate
            if d == a and c == p.precision_class and m != p.model and (m, p.hardware_key, c) in rate
        ]
        if a is None or len(logs) < MIN_SHARED:
            row = {"device": p.hardware_key, "model": p.model, "precision": p.precision_class, "anchor": a}
            unpaired.append(row | {"error_pct": round(100 * signed, 1)})
            continue
        own = math.log(p.examples_per_sec / rate[(p.model, a, p.precision_class)])
        paired.append((abs(signed), abs(math.exp(own - statistics.median(logs)) - 1)))
    return {
        "points": len(pairs),
        "median_abs_error_pct": _pct(errors),
        "paired": {
            "points": len(paired),
            "median_abs_error_pct": _pct([x for x, _ in paired]),
            "device_ratio_spread_pct": _pct([y for _, y in paired]),
        },
        "unpaired": {
            "points": len(unpaired),
            "median_abs_error_pct": _pct([abs(u["error_pct"]) / 100 for u in unpaired]),
            "rows": sorted(unpaired, key=lambda u: -abs(u["error_pct"])),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the whole answer as JSON")
    answer = error_sources()
    if parser.parse_args().json:
        print(json.dumps(answer, indent=1))
        return
    print(f"nested leave-the-silicon-out: {answer['median_abs_error_pct']} % median over {answer['points']} figures")
    p, u = answer["paired"], answer["unpaired"]
    print(f"  paired (anchor shares >= {MIN_SHARED} models): {p['median_abs_error_pct']} % over {p['points']}; "
          f"the models' own spread between the two devices {p['device_ratio_spread_pct']} %")  # fmt: skip
    print(f"  unpaired: {u['median_abs_error_pct']} % over {u['points']}")
    for row in u["rows"]:
        print(
            f"    {row['device']:10s} {row['model']:20s} {row['precision']:7s} {row['error_pct']:+7.1f} %  anchor {row['anchor']}"
        )


if __name__ == "__main__":
    main()
