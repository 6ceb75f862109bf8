"""An index on (status, created_at): Compare lists the newest 500 `ok` runs, and with only the status
index SQLite read and sorted every ok run of a 100,000-run store for it (~0.7 s; ~10 ms with this one).
See BENCHMARKS.md, "Pages on a 100,000-run store".

Revision ID: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("runs_status_created", "runs", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("runs_status_created", "runs")
