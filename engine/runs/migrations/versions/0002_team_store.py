"""Team store: a user's `label` on runs, the machine that owns a job, live progress in the store, and
an index on status (Home and Compare filter by it on 100,000-run stores).

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("label", sa.Text()))
    op.add_column("jobs", sa.Column("machine", sa.Text()))
    op.create_table(
        "progress",
        sa.Column("run_id", sa.Text),
        sa.Column("seq", sa.Integer),
        sa.Column("payload", sa.Text),
    )
    op.create_index("progress_run", "progress", ["run_id", "seq"])
    op.create_index("runs_status", "runs", ["status"])


def downgrade() -> None:
    op.drop_index("runs_status", "runs")
    op.drop_index("progress_run", "progress")
    op.drop_table("progress")
    op.drop_column("jobs", "machine")
    op.drop_column("runs", "label")
