"""Build the curated reference CSV from the shared research file.

    python data/reference/build_reference.py [SHARED_CSV] [--out data/reference/reference_numbers.csv]
    python data/reference/build_reference.py [SHARED_CSV] --check

`--check` writes nothing: it exits 1 unless rebuilding gives the committed CSV byte for byte and
every shared row is kept with its digits (the test suite cannot check this: the shared file is not
in this repository).

The shared file (`../shared/reference/reference_numbers.csv`, 279 rows) keeps free-text fields as the
researcher wrote them. This script turns each row into the project's schema (see README.md next to
this file): normalised keys for hardware, model, precision and units; the original text kept in
`*_label` columns; doubts flagged from the notes. It adds the seed-article figures the shared file
lacks (origin `seed_article`), then the published BERT/GPT-2 figures of transformer_refs.py (origin
`transformer_refs`), then the figures for today's accelerators of modern_refs.py (origin `modern_refs`: Lambda's
PyTorch v2 results and MLPerf v4.0 ResNet-50 logs), then AccelBench's own reference-pack measurements from
`data/reference/measured/*.csv` (origin `accelbench_pack`, see accelbench_pack.py). Every published
value is copied as the same digits.

The curated CSV is committed; the app never needs the shared folder. Re-running this script on the
same input gives the same bytes.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

from accelbench_pack import pack_rows
from cross_vendor_refs import xv_rows
from curation_rules import (  # (needs HERE on sys.path first)
    ADDED_ROWS,
    ROW_OVERRIDES,
    batch_fields,
    classify_hardware,
    count_fields,
    data_fields,
    display_name,
    doubt_fields,
    framework_fields,
    model_key,
    precision_fields,
    unit_fields,
)
from modern_refs import modern_rows
from mosaic_refs import mpt_rows
from tpu_refs import tpu_rows
from transformer_refs import transformer_rows

from engine.reference.data import COLUMN_NAMES
from engine.reference.units import METRICS, TPU_ALWAYS_XLA_TASKS

DEFAULT_SHARED = ROOT.parent / "shared" / "reference" / "reference_numbers.csv"
DEFAULT_OUT = HERE / "reference_numbers.csv"


def _task(metric: str, model_label: str, dataset_label: str) -> str:
    if metric in ("price_usd_per_h",):
        return "price"
    if "inference" in model_label.lower() or "production" in dataset_label.lower():
        return "inference"
    if "micro-benchmark" in model_label.lower():
        return "micro"
    if METRICS[metric].kind in ("capacity",) or metric in ("onchip_memory_mib",):
        return "spec"
    return "training"


def curate_row(src: dict[str, str], seq: int) -> dict[str, str]:
    """One shared row → one curated row (all values as strings, ready for csv.writer)."""
    metric = src["metric"]
    hw_label = src["hardware"]
    key, device_type, baseline_key = classify_hardware(hw_label)
    count, unit = count_fields(src["hardware_count"], key, hw_label)
    model_label = src["model"]
    dataset_label = src["dataset"]
    task = _task(metric, model_label, dataset_label)
    framework, fw_version = framework_fields(src["framework"])
    precision, xla = precision_fields(src["precision"], src["framework"], metric, key)
    if xla == "" and device_type == "tpu" and task in TPU_ALWAYS_XLA_TASKS:
        xla = "True"  # a TPU program is always XLA-compiled; stated so comparisons with GPU runs can say so
    unit_norm, value_kind, unit_note = unit_fields(src["unit"], src["notes"], metric)
    batch, scope = batch_fields(src["batch_size"], count, device_type, src["source_id"])
    dataset, data_kind, target = data_fields(dataset_label, src["source_id"], model_key(model_label))
    if precision == "" and task in ("training", "micro", "inference"):
        precision = "unknown"
    notes = src["notes"]
    if unit_note:
        notes = f"{notes} [{unit_note}]".strip()
    return {
        "ref_id": f"{src['source_id']}-{seq:02d}",
        "source_id": src["source_id"],
        "source_title": src["source_title"],
        "source_url": src["source_url"],
        "source_kind": src["source_kind"],
        "year": src["year"].split(".")[0] if src["year"] else "",
        "origin": "shared_csv",
        "hardware": "",
        "hardware_label": hw_label,
        "hardware_key": key,
        "device_type": device_type,
        "hardware_count": count,
        "count_unit": unit,
        "baseline_key": baseline_key,
        "framework": framework,
        "framework_version": fw_version,
        "framework_label": src["framework"],
        "task": task,
        "model": model_key(model_label),
        "model_label": model_label,
        "params": "",
        "dataset": dataset,
        "dataset_label": dataset_label,
        "data_kind": data_kind,
        "target": target,
        "batch_size": batch,
        "batch_scope": scope,
        "batch_label": src["batch_size"],
        "epochs": "",
        "steps_per_epoch": "",
        "shape": "",
        "precision": precision,
        "precision_label": src["precision"],
        "xla": xla,
        "metric": metric,
        "value": src["value"],
        "unit": unit_norm,
        "value_kind": value_kind,
        "higher_is_better": str(METRICS[metric].higher_is_better),
        "doubtful": "",
        "doubt_reason": "",
        "notes": notes,
    }


def _finish(row: dict[str, str]) -> dict[str, str]:
    """Fill the fields that depend on the others (display name, doubts, params from notes)."""
    if not row["params"]:
        m = re.search(r"Params ([\d,]+)", row["notes"])
        row["params"] = m.group(1).replace(",", "") if m else ""
    if not row["hardware"]:
        row["hardware"] = display_name(row)
    if not row["doubtful"]:
        doubtful, reason = doubt_fields(row)
        row["doubtful"], row["doubt_reason"] = str(doubtful), reason
    row["higher_is_better"] = str(METRICS[row["metric"]].higher_is_better)
    return row


def build(shared_csv: Path) -> list[dict[str, str]]:
    """All curated rows: shared rows in their order, each seed addition right after its source's rows."""
    with shared_csv.open(newline="", encoding="utf-8") as f:
        shared = list(csv.DictReader(f))
    seq: dict[str, int] = {}
    blocks: dict[str, list[dict[str, str]]] = {}
    for src in shared:
        sid = src["source_id"]
        seq[sid] = seq.get(sid, 0) + 1
        row = curate_row(src, seq[sid])
        fixes = dict(ROW_OVERRIDES.get(row["ref_id"], {}))
        row["notes"] += fixes.pop("+notes", "")
        row.update(fixes)
        blocks.setdefault(sid, []).append(row)
    for added in ADDED_ROWS:
        sid = added["source_id"]
        seq[sid] = seq.get(sid, 0) + 1
        row = {name: "" for name in COLUMN_NAMES} | {"origin": "seed_article"} | added
        row["ref_id"] = f"{sid}-{seq[sid]:02d}"
        if sid in blocks:  # inherit the source's provenance fields
            first = blocks[sid][0]
            for name in ("source_title", "source_url", "source_kind", "year"):
                row[name] = row[name] or first[name]
        blocks.setdefault(sid, []).append(row)
    rows = [_finish(r) for block in blocks.values() for r in block]
    rows += transformer_rows()  # published BERT/GPT-2 figures, each with its file and commit (transformer_refs.py)
    rows += modern_rows()  # today's accelerators: Lambda v2 (median of hosts) and MLPerf v4.0 (modern_refs.py)
    rows += tpu_rows()  # per-chip TPU v3–v6e rates from Google's MLPerf logs (tpu_refs.py), origin modern_refs
    rows += xv_rows()  # per-GPU AMD/NVIDIA rates of the same MLPerf rounds and benchmarks (cross_vendor_refs.py)
    rows += mpt_rows()  # MosaicML's MPT-7B per GPU on MI250 and A100/H100, one stack (mosaic_refs.py)
    rows += pack_rows()  # AccelBench's own measurements, after every published row
    return [{name: r.get(name, "") for name in COLUMN_NAMES} for r in rows]


def write(rows: list[dict[str, str]], out: Path) -> None:
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(COLUMN_NAMES), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def check(shared_csv: Path, committed: Path = DEFAULT_OUT) -> list[str]:
    """What differs between a rebuild from `shared_csv` and the committed CSV (empty when nothing)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rebuilt.csv"
        write(build(shared_csv), out)
        same = out.read_bytes() == committed.read_bytes()
    problems = [] if same else [f"rebuilding from {shared_csv} does not give {committed} byte for byte"]
    with shared_csv.open(newline="", encoding="utf-8") as f:
        shared = list(csv.DictReader(f))
    with committed.open(newline="", encoding="utf-8") as f:
        curated = [r for r in csv.DictReader(f) if r["origin"] == "shared_csv"]
    if len(curated) != len(shared):
        problems.append(f"{len(shared)} shared rows but {len(curated)} curated rows from them")
    for src, cur in zip(shared, curated, strict=False):
        want = (src["source_id"], src["metric"], src["hardware"], float(src["value"]))
        got = (cur["source_id"], cur["metric"], cur["hardware_label"], float(cur["value"]))
        if got != want:
            problems.append(f"{cur['ref_id']}: {got} is not the shared row {want}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shared_csv", nargs="?", type=Path, default=DEFAULT_SHARED)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="compare a rebuild with the committed CSV; write nothing")
    args = ap.parse_args(argv)
    if not args.shared_csv.exists():
        print(f"shared reference CSV not found: {args.shared_csv}", file=sys.stderr)
        return 2
    if args.check:
        problems = check(args.shared_csv, args.out)
        print(
            "\n".join(problems) or f"{args.out} is what {args.shared_csv} builds",
            file=sys.stderr if problems else sys.stdout,
        )
        return 1 if problems else 0
    rows = build(args.shared_csv)
    write(rows, args.out)
    from engine.reference.data import load_reference  # validate what was written, exactly as the app will

    df = load_reference(args.out)
    print(f"wrote {len(df)} rows to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
