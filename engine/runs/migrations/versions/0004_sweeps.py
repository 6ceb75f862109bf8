"""Sweeps (issue 21): each run can be a cell of a sweep (`sweep_id`, indexed so History, Compare and the
Sweep page pick a whole sweep out of a large store) and names the Ray node that ran it (`node`).
Older rows keep every value; their two new cells stay empty.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("sweep_id", sa.Text()))
    op.add_column("runs", sa.Column("node", sa.Text()))
    op.create_index("runs_sweep", "runs", ["sweep_id"])


def downgrade() -> None:
    op.drop_index("runs_sweep", "runs")
    op.drop_column("runs", "node")
    op.drop_column("runs", "sweep_id")
