"""The results store's tables as SQLAlchemy Core objects — one definition for SQLite and PostgreSQL.

These describe the schema at the newest migration (engine/runs/migrations); a test upgrades an empty
database through every migration and checks it ends with exactly these columns.
"""

from __future__ import annotations

from sqlalchemy import Column, Double, Index, Integer, MetaData, Table, Text

from engine.results.schema import COLUMN_TYPES

# bool is stored as 0/1 on both engines, so a SQLite file and a PostgreSQL table hold the same values.
SQL_TYPES = {str: Text, int: Integer, float: Double, bool: Integer}

metadata = MetaData()

runs = Table(
    "runs",
    metadata,
    *(Column(name, SQL_TYPES[typ], primary_key=name == "run_id") for name, typ in COLUMN_TYPES.items()),
)
Index("runs_created", runs.c.created_at)
Index("runs_status", runs.c.status)
Index("runs_status_created", runs.c.status, runs.c.created_at)  # Compare: the newest ok runs
Index("runs_sweep", runs.c.sweep_id)  # a sweep's cells (engine.sweep), picked out of a large store

# A live run's handle: which process on which machine runs it, until when, and its spec. `machine` is
# an opaque id of the host (engine.runs.machine), so a dashboard never judges another machine's PIDs.
jobs = Table(
    "jobs",
    metadata,
    Column("run_id", Text, primary_key=True),
    Column("pid", Integer),
    Column("pid_started", Double),
    Column("deadline", Double),
    Column("run_dir", Text),
    Column("spec", Text),
    Column("machine", Text),
)

# Per-step/per-epoch/per-repeat records and telemetry samples of finished runs, one JSON payload a row.
series = Table(
    "series",
    metadata,
    Column("run_id", Text),
    Column("kind", Text),
    Column("idx", Integer),
    Column("payload", Text),
)
Index("series_run", series.c.run_id, series.c.kind, series.c.idx)

# A running worker's progress events, for dashboards on other machines than the worker's (the run
# folder's progress.jsonl is the local copy).
progress = Table(
    "progress",
    metadata,
    Column("run_id", Text),
    Column("seq", Integer),
    Column("payload", Text),
)
Index("progress_run", progress.c.run_id, progress.c.seq)
