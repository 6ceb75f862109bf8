"""`results import FILE --mapping MAP` / `--auto`: another tool's results file read headless, through a mapping
saved on the History page or through the mapping the page proposes (a known format's, with the batch-size
companion of FILE's own family and the sidecar found beside FILE; `--no-join` leaves the companion out). All or
nothing: the first bad cell exits 2 naming its row and column, and nothing is written. The mapped rows go out as a
long CSV (one row per value, with its `unit`) that History loads as it is; with --auto, what was guessed goes to
stderr."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.cli.common import EXIT_OK, fail
from engine.imports.facts.import_mapping import ImportMapping, mapping_from_json
from engine.imports.facts.raw import Raw
from engine.imports.identity.systems import ambiguous
from engine.imports.importer import apply_import, load_foreign, read_raw
from engine.imports.read.foreign_json import is_sidecar, paired_loosely, read_sidecar, sidecar_for
from engine.imports.view.imported import to_long
from engine.results.errors import CsvError

LONG_FIRST = ("unit", "device_label", "device_count", "model", "metric", "value")


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        fail(f"cannot read {what} {path}: {exc.strerror}")


_TABLE_SUFFIXES = (".csv", ".tsv", ".txt", ".log", ".jsonl", ".ndjson", ".dat")


def _settings_file(p: Path) -> bool:
    """A JSON/YAML file of settings beside FILE that may pair with it whatever its name (never a results JSON nor
    a document of its own, such as an MLPerf system description)."""
    try:
        data = p.read_bytes()
        return is_sidecar(data, p.name) and paired_loosely(read_sidecar(data, p.name))
    except (OSError, CsvError):
        return False


def _sidecar(path: Path, args: argparse.Namespace) -> dict[str, str] | None:
    """The --sidecar file, else one next to FILE with the same stem (log.tsv ↔ log.json / log.yaml)."""
    side = Path(args.sidecar) if args.sidecar else None
    if side is None and path.parent.is_dir():
        files = [p for p in path.parent.iterdir() if p.is_file()]
        sides = [p.name for p in files if p.suffix.lower() in (".json", ".yaml", ".yml")]
        loose = [p.name for p in files if p.name in sides and _settings_file(p)]
        tables = sum(p.suffix.lower() in _TABLE_SUFFIXES for p in files)
        found = sidecar_for(path.name, sides, tables, loose)
        side = path.parent / found if found else None
    if side is None:
        return None
    try:
        settings = read_sidecar(_read(side, "sidecar"), side.name)
        args.sidecar_name = side.name  # said on stderr: the settings' source
        return settings
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
    _write_long(frame, args)
    summary = f"mapped {len(frame)} rows from {path.name}" + (f" with {sidecar and 'its sidecar'}" if sidecar else "")
    print("; ".join([summary, *notes]) + (f" → {args.out}" if args.out else ""), file=sys.stderr)
    return EXIT_OK


def _write_long(frame, args: argparse.Namespace) -> None:
    long = to_long(frame)
    first = [c for c in LONG_FIRST if c in long.columns]
    text = long[first + [c for c in long.columns if c not in first]].to_csv(index=False)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"--out: cannot write {args.out}: {exc.strerror or exc} — pick a writable file path")
    else:
        sys.stdout.write(text)


def _guessed(raw: Raw, m: ImportMapping) -> list[str]:
    """What --auto took for granted, one line each (stderr): the format, the roles, each value's unit."""
    lines = [f"read as {raw.how}" + (f"; recognised: {m.fmt}" if m.fmt else "") + f"; shape {m.shape}"]
    roles = {r: [c for c in m.columns(r)] for r in ("system", "device", "count", "model", "batch", "precision")}
    lines += [f"{r}: {', '.join(cols)}" for r, cols in roles.items() if cols]
    for c in m.columns("value"):
        spec = m.values.get(c)
        unit = spec.unit if spec and spec.unit else "(the cells' own, or none)"
        lines.append(f"value {c!r}: {(spec.metric if spec and spec.metric else c)} in {unit}")
    lines += [f"{k} for every row: {v}" for k, v in m.constants.items()]
    return lines


def _companions(path: Path, raw: Raw) -> list[tuple[str, Raw]]:
    """Batch-size tables beside FILE that complete it (lambdal's …-bs-….csv beside …-throughput-….csv), of its
    own family only (engine.imports.shape.companion.family: same framework, precision and mode)."""
    from engine.imports.shape.companion import companions, is_batch_table

    if is_batch_table(path.name) or not path.parent.is_dir():
        return []
    others = {}
    for p in sorted(path.parent.iterdir()):
        if p != path and p.is_file() and p.suffix.lower() == path.suffix.lower() and is_batch_table(p.name):
            try:
                others[p.name] = read_raw(p.read_bytes(), p.name)
            except (CsvError, OSError):
                continue
    pairs = companions({path.name: raw, **others})
    return [(n, others[n]) for n, main in pairs.items() if main == path.name]


def _mixed(frame) -> list[str]:
    """⚠ when the mapped rows come from several frameworks: a bar or median over them would pool unlike runs."""
    names = sorted(frame["framework"].dropna().astype(str).unique()) if "framework" in frame.columns else []
    names = [n for n in names if n]
    if len(names) < 2:
        return []
    return [f"⚠ rows of {len(names)} frameworks ({', '.join(names)}): compare each framework's rows on their own"]


def own_table(data: bytes, name: str) -> str:
    """What History calls one of its own tables (its downloaded rows, the long CSV), or "": decided in the page's
    order — a store export first (`results import` stores those)."""
    from engine.imports.read.own_exports import KINDS, as_export, own_kind
    from engine.results.history_files import is_export

    if is_export(as_export(data, name) or data, name):
        return ""
    kind = own_kind(data, name)
    return KINDS[kind] if kind else ""


def import_own(path: Path, data: bytes, args: argparse.Namespace) -> int:
    """History's own table read as History reads it — as it is, never through a guessed mapping — and written as
    the long CSV with the same numbers; its per-device views are left out (History computes them again)."""
    from engine.imports.read.own_exports import read_own
    from engine.imports.view.default_view import per_device_name
    from engine.results.history import metric_columns

    try:
        frame = read_own(data, path.name)
    except CsvError as exc:
        fail(f"{path.name}: {exc} — nothing was imported")
    views = {per_device_name(m) for m in metric_columns(frame)}
    frame = frame.drop(columns=[c for c in frame.columns if c in views])
    _write_long(frame, args)
    print(f"read as {own_table(data, path.name)} (History's own table: as it is, no mapping); mapped {len(frame)} "
          f"rows from {path.name}" + (f" → {args.out}" if args.out else ""), file=sys.stderr)  # fmt: skip
    return EXIT_OK


def import_auto(path: Path, data: bytes, args: argparse.Namespace) -> int:
    """FILE mapped as the History page proposes, headless; every guess said on stderr. History's own tables are
    read as they are (`import_own`), as the page reads them."""
    from engine.imports.shape.companion import join_batch, join_note

    if own_table(data, path.name):
        return import_own(path, data, args)
    try:
        raw = read_raw(data, path.name, str(path.parent))  # the folder may name the device, count or scenario
    except CsvError as exc:
        fail(f"{path.name}: {exc} — nothing was imported")
    m = raw.guess
    if getattr(args, "device", None):
        m.constants["device"] = args.device
    sidecar = _sidecar(path, args)
    try:
        frame, notes = apply_import(raw.frame, m, path.name, sidecar)
    except CsvError as exc:
        hint = (
            " (this file names no device: give --device, e.g. --device 'RTX 2080 Ti')" if "device" in str(exc) else ""
        )
        fail(f"{path.name}: {exc}{hint} — nothing was imported")
    side_name = getattr(args, "sidecar_name", "")
    said = _guessed(raw, m) + ([f"settings from the sidecar {side_name} beside it ({len(sidecar)})"] if sidecar else [])
    for name, companion in [] if getattr(args, "no_join", False) else _companions(path, raw):
        frame, matched = join_batch(frame, path.name, raw, companion)
        said.append(join_note(name, matched, len(frame))[0].replace("**", "") + " (--no-join: leave it out)")
    said += _mixed(frame)
    column = m.column("system") or m.column("device")
    if column:
        said += [f"ambiguous name {n!r}: {why}" for n, why in ambiguous(raw.frame[column], m.system_rules)]
    _write_long(frame, args)
    print("\n".join(["guessed (check, or save a mapping on the History page and use --mapping):", *said,
                     f"mapped {len(frame)} rows from {path.name}", *notes])
          + (f"\n→ {args.out}" if args.out else ""), file=sys.stderr)  # fmt: skip
    return EXIT_OK
