"""Baseline: the schema AccelBench had before migrations (SCHEMA_VERSION 1, stop 16).

Idempotent on purpose: a database made by that code (or an older one, missing later-added columns)
already has some or all of these tables; each is created only where absent and each missing column
added, so every such database arrives at the same baseline with its rows intact.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# The runs columns at the baseline, frozen here (later columns come in later migrations).
RUNS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("schema_version", "INTEGER"),
    ("run_id", "TEXT"),
    ("created_at", "TEXT"),
    ("status", "TEXT"),
    ("error", "TEXT"),
    ("source", "TEXT"),
    ("kind", "TEXT"),
    ("model", "TEXT"),
    ("dataset", "TEXT"),
    ("shape", "TEXT"),
    ("dtype", "TEXT"),
    ("precision", "TEXT"),
    ("xla", "INTEGER"),
    ("device", "TEXT"),
    ("backend", "TEXT"),
    ("strategy", "TEXT"),
    ("replicas", "INTEGER"),
    ("global_batch_size", "INTEGER"),
    ("per_replica_batch_size", "INTEGER"),
    ("epochs", "INTEGER"),
    ("steps_per_epoch", "INTEGER"),
    ("params", "INTEGER"),
    ("price_per_hour_usd", "REAL"),
    ("time_to_first_step_s", "REAL"),
    ("first_epoch_s", "REAL"),
    ("step_time_ms_median", "REAL"),
    ("step_time_ms_p10", "REAL"),
    ("step_time_ms_p90", "REAL"),
    ("examples_per_sec", "REAL"),
    ("examples_per_sec_windowed", "REAL"),
    ("examples_per_sec_step_synced", "REAL"),
    ("examples_per_sec_epoch", "REAL"),
    ("sync_overhead_pct", "REAL"),
    ("total_s", "REAL"),
    ("gflops", "REAL"),
    ("peak_gflops", "REAL"),
    ("mfu_pct", "REAL"),
    ("blas_gflops", "REAL"),
    ("final_loss", "REAL"),
    ("final_accuracy", "REAL"),
    ("val_accuracy", "REAL"),
    ("peak_host_memory_mb", "REAL"),
    ("peak_device_memory_mb", "REAL"),
    ("cost_usd", "REAL"),
    ("energy_source", "TEXT"),
    ("energy_j", "REAL"),
    ("avg_power_w", "REAL"),
    ("joules_per_example", "REAL"),
    ("examples_per_joule", "REAL"),
    ("gflops_per_watt", "REAL"),
    ("energy_tdp_estimate_j", "REAL"),
    ("cost_usd_per_million_examples", "REAL"),
    ("cost_usd_per_epoch", "REAL"),
    ("price_source", "TEXT"),
    ("devices_used", "TEXT"),
    ("device_name", "TEXT"),
    ("host_cores", "INTEGER"),
    ("host_memory_gb", "REAL"),
    ("tf_version", "TEXT"),
    ("framework_version", "TEXT"),
    ("keras_version", "TEXT"),
    ("python_version", "TEXT"),
    ("driver_version", "TEXT"),
    ("notes", "TEXT"),
)
_TYPES = {"TEXT": sa.Text, "INTEGER": sa.Integer, "REAL": sa.Double}


def upgrade() -> None:
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if "runs" not in tables:
        op.create_table("runs", *(sa.Column(n, _TYPES[t](), primary_key=n == "run_id") for n, t in RUNS_COLUMNS))
    else:
        have = {c["name"] for c in sa.inspect(bind).get_columns("runs")}
        for name, typ in RUNS_COLUMNS:
            if name not in have:
                op.add_column("runs", sa.Column(name, _TYPES[typ]()))
    if "jobs" not in tables:
        op.create_table(
            "jobs",
            sa.Column("run_id", sa.Text, primary_key=True),
            sa.Column("pid", sa.Integer),
            sa.Column("pid_started", sa.Double),
            sa.Column("deadline", sa.Double),
            sa.Column("run_dir", sa.Text),
            sa.Column("spec", sa.Text),
        )
    if "series" not in tables:
        op.create_table(
            "series",
            sa.Column("run_id", sa.Text),
            sa.Column("kind", sa.Text),
            sa.Column("idx", sa.Integer),
            sa.Column("payload", sa.Text),
        )
    op.execute("CREATE INDEX IF NOT EXISTS series_run ON series (run_id, kind, idx)")
    op.execute("CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at)")


def downgrade() -> None:
    raise NotImplementedError("the baseline is where AccelBench's history starts; there is nothing before it")
