"""`db upgrade|status` and `results push|pull`: the store's schema, and copies to and from a team
database (engine.runs.transfer)."""

from __future__ import annotations

import argparse
import json
from datetime import date

from engine.cli.common import EXIT_OK, fail
from engine.results.schema import ResultRow
from engine.runs import migrate
from engine.runs.sql_engine import engine_for, resolve_target
from engine.runs.store import Store, StoreError
from engine.runs.transfer import copy_runs, label_problem


def add_parsers(sub, results_sub) -> None:
    """`db …` under the top level; `push` and `pull` under `results`."""
    db = sub.add_parser("db", help="the results database's schema: upgrade it in place, or show its state")
    dsub = db.add_subparsers(dest="action", required=True, parser_class=type(db))
    for name, text in (("upgrade", "apply pending schema migrations (keeps every row)"), ("status", "show state")):
        p = dsub.add_parser(name, help=text)
        p.add_argument("--db", help="a SQLite path or postgresql:// URL (default: ACCELBENCH_DB)")
        p.add_argument("--json", action="store_true")
    push = results_sub.add_parser("push", help="copy this store's finished runs into a team database")
    push.add_argument("--to", required=True, help="the team database: postgresql://USER@HOST:5432/DB (or a path)")
    pull = results_sub.add_parser("pull", help="copy runs from a team database into this store")
    pull.add_argument("--from", dest="source", required=True, help="the team database URL (or a path)")
    for p in (push, pull):
        p.add_argument("--status", help="only runs with this status (e.g. ok)")
        p.add_argument("--model", help="only runs of this model or microbenchmark")
        p.add_argument("--device", help="only runs on this device type (cpu, gpu, tpu)")
        p.add_argument("--since", type=date.fromisoformat, help="only runs created on or after YYYY-MM-DD")
        p.add_argument("--json", action="store_true")
    push.add_argument("--label", help="set this label on pushed runs that carry none (e.g. colab-t4)")
    pull.add_argument("--label", help="only runs with this label")


def cmd_db(args: argparse.Namespace) -> int:
    target = resolve_target(args.db)
    if args.action == "upgrade":
        before = after = _revision(target)
        if migrate.is_newer_than_code(before):
            Store(args.db)  # raises the one-line "newer than this code" error
        if before != migrate.HEAD_REVISION:
            before, after = migrate.upgrade(engine_for(target, False))
        state: dict[str, object] = {"database": target.display, "before": before, "after": after, "head": migrate.HEAD_REVISION}
        moved = f"schema {before or 'none'} → {after}" if before != after else f"already at schema {after}"
        text = f"{target.display}: {moved}"
    else:
        store = Store(args.db)
        revision = _revision(target)
        state = {
            "database": target.display,
            "engine": "sqlite" if target.is_sqlite else "postgresql",
            "revision": revision,
            "head": migrate.HEAD_REVISION,
            "runs": store.count_runs(),
            "read_only": store.read_only,
        }
        text = "\n".join(f"{k}: {v}" for k, v in state.items())
    print(json.dumps(state) if args.json else text)
    return EXIT_OK


def _revision(target) -> str | None:
    from sqlalchemy.exc import SQLAlchemyError

    from engine.runs.sql_engine import explain_store_error

    try:
        with engine_for(target, False).connect() as conn:
            return migrate.current_revision(conn)
    except (SQLAlchemyError, OSError) as exc:
        raise explain_store_error(target, exc) from None


def cmd_transfer(args: argparse.Namespace) -> int:
    if args.label is not None and args.action == "push" and (problem := label_problem(args.label)):
        fail(f"--label {problem}")
    local = Store()
    try:
        remote = Store(args.to if args.action == "push" else args.source)
    except StoreError as exc:
        fail(f"--{'to' if args.action == 'push' else 'from'}: {exc}")
    source, target = (local, remote) if args.action == "push" else (remote, local)
    if source.target == target.target:
        fail("the team database is this store itself — point --to/--from at another database")

    def keep(row: ResultRow) -> bool:
        return (
            (args.status is None or row.get("status") == args.status)
            and (args.model is None or row.get("model") == args.model)
            and (args.device is None or row.get("device") == args.device)
            and (args.since is None or (row.get("created_at") or "")[:10] >= args.since.isoformat())
            and (args.action == "push" or args.label is None or row.get("label") == args.label)
        )

    done = copy_runs(source, target, keep, label=args.label if args.action == "push" else None)
    if args.json:
        print(json.dumps({"added": done.added, "present": done.present, "still_active": done.still_active}))
    else:
        where = f"into {target.target.display}"
        print(f"{args.action}: {done.added} run(s) copied {where}, {done.present} already there")
        if done.still_active:
            print(f"not copied (still queued or running): {', '.join(done.still_active)} — {args.action} again later")
    return EXIT_OK
