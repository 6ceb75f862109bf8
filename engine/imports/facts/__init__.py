"""The facts stage of the import pipeline (see engine/imports/__init__.py)."""
