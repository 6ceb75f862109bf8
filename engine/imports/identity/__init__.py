"""The identity stage of the import pipeline (see engine/imports/__init__.py)."""
