"""Your own model and today's models (issue 20): where a run's model came from (`model_source`: zoo, file or
function) and a hash of it (`model_hash`), where its FLOP count came from (`flops_source`), and a sequence
model's tokens/s (`tokens_per_sec`). Older rows keep every value; their new cells stay empty.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_ADDED: tuple[tuple[str, sa.types.TypeEngine], ...] = (
    ("model_source", sa.Text()),
    ("model_hash", sa.Text()),
    ("flops_source", sa.Text()),
    ("tokens_per_sec", sa.Double()),
)


def upgrade() -> None:
    for name, typ in _ADDED:
        op.add_column("runs", sa.Column(name, typ))


def downgrade() -> None:
    for name, _ in reversed(_ADDED):
        op.drop_column("runs", name)
