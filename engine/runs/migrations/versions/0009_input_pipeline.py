"""The input pipeline beside the step (issue 38): the pipeline's own rate, the model alone on a batch already
on the device, the share of a step spent waiting for input, the verdict (`bound`), and the pipeline settings
(workers, prefetch, cache) with the host cores it could use. Older rows keep every value; their new cells
stay empty (not measured).

Revision ID: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_COLUMNS: tuple[tuple[str, sa.types.TypeEngine], ...] = (
    ("input_examples_per_sec", sa.Double()),
    ("step_examples_per_sec", sa.Double()),
    ("input_wait_pct", sa.Double()),
    ("bound", sa.Text()),
    ("input_workers", sa.Integer()),
    ("prefetch", sa.Integer()),
    ("cache", sa.Integer()),
    ("input_cores", sa.Integer()),
)


def upgrade() -> None:
    for name, typ in _COLUMNS:
        op.add_column("runs", sa.Column(name, typ))


def downgrade() -> None:
    for name, _ in reversed(_COLUMNS):
        op.drop_column("runs", name)
