"""`results list|show|export|import` and `cancel`: the CLI's view of the results store."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.cli.common import EXIT_OK, fail, prog
from engine.cli.db import cmd_transfer
from engine.cli.table import Column, csv_text, output_format, table_lines
from engine.results.errors import CsvError
from engine.results.schema import ResultRow
from engine.runs import jobs
from engine.runs.store import Store


def _open_store() -> Store:
    store = Store()
    if not store.read_only:  # a read-only database is shown as it is
        jobs.refresh(store)  # runs whose worker died are marked before anything is shown
    return store


def cmd_results(args: argparse.Namespace) -> int:
    if args.action in ("push", "pull"):
        return cmd_transfer(args)
    store = _open_store()
    action = {"list": _list, "show": _show, "export": _export, "import": _import}[args.action]
    return action(store, args)


# `results list` as a table: the id and numbers whole, the workload's name the one that gives up width
_LIST_COLUMNS = [
    Column("run_id", 24),
    Column("status", 11),
    Column("model", 18, flex=True),
    Column("device", 6),
    Column("backend", 11, drop=1),
    Column("ms/step", 9, right=True, drop=2),
    Column("GFLOP/s", 9, right=True),
    Column("examples/s", 10, right=True),
]
_LIST_FIELDS = ["run_id", "status", "model", "device", "backend", "step_time_ms_median", "gflops", "examples_per_sec"]


def _list(store: Store, args: argparse.Namespace) -> int:
    rows = store.list_runs(limit=args.limit, sweep_id=getattr(args, "sweep", None))
    fmt = output_format(args)
    if fmt == "json":
        print(json.dumps(rows))
    elif fmt == "csv":
        extra = ["label", "error"] if args.verbose else []
        sys.stdout.write(csv_text(_LIST_FIELDS + extra, [[r.get(k) for k in _LIST_FIELDS + extra] for r in rows]))
    elif not rows:
        print(f"no runs yet — try: {prog()} run --bench matmul")
    else:
        cells = [_list_cells(r) for r in rows]
        notes = [[f"label: {r['label']}" if r.get("label") else "", f"error: {r['error']}" if r.get("error") else ""]
                 for r in rows] if args.verbose else None  # fmt: skip
        print("\n".join(table_lines(_LIST_COLUMNS, cells, notes)))
    return EXIT_OK


def _list_cells(row: ResultRow) -> list[str]:
    def num(v: Any, fmt: str) -> str:
        return format(v, fmt) if isinstance(v, (int, float)) else "-"

    return [
        str(row["run_id"]),
        str(row["status"]),
        str(row.get("model") or row.get("kind") or "-"),
        str(row.get("device") or "-"),
        str(row.get("backend") or "-"),
        num(row.get("step_time_ms_median"), ",.2f"),
        num(row.get("gflops"), ",.1f"),
        num(row.get("examples_per_sec"), ",.1f"),
    ]


def _show(store: Store, args: argparse.Namespace) -> int:
    row = find_run(store, args.run_id)
    print(json.dumps(row) if args.json else "\n".join(f"{k:>24}: {v}" for k, v in row.items() if v is not None))
    return EXIT_OK


def _write(out: Path, text: str) -> None:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    except OSError as exc:
        fail(f"--out: cannot write {out}: {exc.strerror or exc} — pick a writable file path")


def _export(store: Store, args: argparse.Namespace) -> int:
    with_series = bool(getattr(args, "series", False))
    if with_series and args.format == "csv" and not args.out:
        fail("--series: a CSV export keeps its series in a file beside it; give --out (or use --format json)")
    series = store.series_by_run() if with_series else None
    sweep = getattr(args, "sweep", None)
    rows = store.list_runs(sweep_id=sweep)
    if sweep and not rows:
        fail(f"--sweep: no runs of sweep {sweep!r} in {store.target.display}")
    if args.format == "csv":
        text = store.export_csv({r["run_id"] for r in rows} if sweep else None)
    else:
        from engine.results.jsonio import export_json

        text = export_json(rows, series)
    if args.out:
        out = Path(args.out)
        _write(out, text)
        extra = ""
        if series is not None and args.format == "csv":
            from engine.results.jsonio import series_file_name, series_json

            side = out.with_name(series_file_name(out.name))
            _write(side, series_json(series))
            extra = f" (series in {side})"
        print(f"wrote {len(rows)} runs to {args.out}{extra}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _import(store: Store, args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
    if getattr(args, "mapping", None):
        from engine.cli.imports import import_mapped

        return import_mapped(path, data, args)
    if getattr(args, "auto", False):
        from engine.cli.imports import import_auto

        return import_auto(path, data, args)
    from engine.cli.imports import import_own, own_table

    if own_table(data, path.name):  # History's download or long CSV: read as History reads it, not stored
        return import_own(path, data, args)
    from engine.imports.read.own_exports import as_export
    from engine.results.jsonio import read_any_export, series_file_name

    data = as_export(data, path.name) or data  # a CSV export re-saved from a spreadsheet as TSV with CRLF
    side = path.with_name(series_file_name(path.name))
    try:
        side_data = side.read_bytes() if not path.name.lower().endswith(".json") and side.is_file() else None
        export = read_any_export(data, path.name, side_data)
    except OSError as exc:
        fail(f"cannot read {side}: {exc.strerror}")
    except CsvError as exc:
        fail(f"{path.name}: {exc} — nothing was imported")
    added, skipped = store.import_rows(export.rows, export.series, path.name)
    with_series = f" with {export.series_records:,} series records" if export.series else ""
    print(
        f"imported {added} runs from {path.name}{with_series}"
        + (f" ({skipped} already present, skipped)" if skipped else "")
    )
    return EXIT_OK


def find_run(store: Store, run_id: str) -> ResultRow:
    """The run with this id, or the one run whose id starts with it; exits 2 when none or several match."""
    if not run_id.strip():
        fail(f"run_id: give a run id (or the start of one); see: {prog()} results list")
    row = store.get_run(run_id)
    if not row:
        matches = store.find_run_ids(run_id)
        if len(matches) > 1:
            fail(f"run_id: {run_id!r} matches {len(matches)} runs; give more of it")
        row = store.get_run(matches[0]) if matches else None
    if not row:
        fail(f"run_id: no run {run_id!r}")
    return row


def cmd_cancel(args: argparse.Namespace) -> int:
    store = _open_store()
    row = find_run(store, args.run_id)
    if jobs.cancel(row["run_id"], store):
        print(f"cancelled {row['run_id']}")
        return EXIT_OK
    print(f"run {row['run_id']} had already ended ({row['status']})")
    return EXIT_OK
