"""A run over N local processes (issue 30, `--processes`): how many processes, the launcher that started them
(torchrun, jax.distributed), the collective backend (gloo, nccl), the rate per device, every rank's median step
and the slowest rank. Older rows keep every value; their new cells stay empty (read as one process).

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_COLUMNS: tuple[tuple[str, sa.types.TypeEngine], ...] = (
    ("processes", sa.Integer()),
    ("launcher", sa.Text()),
    ("collective_backend", sa.Text()),
    ("examples_per_sec_per_device", sa.Double()),
    ("rank_step_ms_median", sa.Text()),
    ("slowest_rank", sa.Integer()),
)


def upgrade() -> None:
    for name, typ in _COLUMNS:
        op.add_column("runs", sa.Column(name, typ))


def downgrade() -> None:
    for name, _ in reversed(_COLUMNS):
        op.drop_column("runs", name)
