"""Versioned schema migrations of the results store (Alembic), applied by engine.runs.migrate."""
