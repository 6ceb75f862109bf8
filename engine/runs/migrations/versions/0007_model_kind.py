"""A user model's kind (`model_kind`: transformer, recurrent or conv), read from its layers by the worker
(engine.worker.layer_kind), so Compare's estimate for it borrows the figures of zoo models of its kind.
Older rows keep every value; their new cell stays empty (read as before: a convnet).

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("model_kind", sa.Text()))


def downgrade() -> None:
    op.drop_column("runs", "model_kind")
