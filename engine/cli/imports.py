"""`results import FILE --mapping MAP`: another tool's results file read headless through a mapping saved on
the History page. All or nothing: the first bad cell exits 2 naming its row and column, and nothing is
written. The mapped rows go out as a long CSV (one row per value) that History loads as it is."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.cli.common import EXIT_OK, fail
from engine.imports.foreign_json import read_sidecar, sidecar_for
from engine.imports.import_mapping import mapping_from_json
from engine.imports.imported import to_long
from engine.imports.importer import load_foreign
from engine.results.errors import CsvError


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        fail(f"cannot read {what} {path}: {exc.strerror}")


def _sidecar(path: Path, args: argparse.Namespace) -> dict[str, str] | None:
    """The --sidecar file, else one next to FILE with the same stem (log.tsv ↔ log.json / log.yaml)."""
    side = Path(args.sidecar) if args.sidecar else None
    if side is None and path.parent.is_dir():
        found = sidecar_for(path.name, [p.name for p in path.parent.iterdir() if p.is_file()])
        side = path.parent / found if found else None
    if side is None:
        return None
    try:
        return read_sidecar(_read(side, "sidecar"), side.name)
    except CsvError as exc:
        fail(f"{side.name}: {exc} — nothing was imported")


def import_mapped(path: Path, data: bytes, args: argparse.Namespace) -> int:
    map_path = Path(args.mapping)
    try:
        mapping = mapping_from_json(_read(map_path, "mapping"))
    except CsvError as exc:
        fail(f"{map_path.name}: {exc}")
    sidecar = _sidecar(path, args)
    try:
        frame, notes = load_foreign(data, path.name, mapping, sidecar)
    except CsvError as exc:
        fail(f"{path.name}: {exc} — nothing was imported")
    text = to_long(frame).to_csv(index=False)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    summary = f"mapped {len(frame)} rows from {path.name}" + (f" with {sidecar and 'its sidecar'}" if sidecar else "")
    print("; ".join([summary, *notes]) + (f" → {args.out}" if args.out else ""), file=sys.stderr)
    return EXIT_OK
