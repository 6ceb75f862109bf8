"""Native PyTorch (issue 23): the backend name "torch" now means a native PyTorch run, and Keras 3 on the torch
backend is "keras-torch". Rows written before this (schema_version 1) said "torch" for Keras-torch: they are
renamed, so a stored run keeps meaning what it measured. Exports of those rows are mapped the same way when
read (engine.results.csvio, keyed on their schema_version). New column `matches_eager_fp32`: whether a compiled
or mixed-precision native run's first step agreed with eager float32 (engine.worker.torch_native.check).

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("matches_eager_fp32", sa.Integer()))  # bools are 0/1 (engine.runs.tables)
    op.execute(
        sa.text(
            "UPDATE runs SET backend = 'keras-torch' "
            "WHERE backend = 'torch' AND (schema_version IS NULL OR schema_version < 2)"
        )
    )


def downgrade() -> None:
    # the older code knows only "torch" (= Keras-torch); native rows have no name there and keep theirs
    op.execute(sa.text("UPDATE runs SET backend = 'torch' WHERE backend = 'keras-torch'"))
    op.drop_column("runs", "matches_eager_fp32")
