"""Alembic's environment: migrations run on the connection engine.runs.migrate hands over, inside one
transaction, so a failed upgrade leaves the database as it was (both engines have transactional DDL)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, transaction_per_migration=False)
with context.begin_transaction():
    context.run_migrations()
