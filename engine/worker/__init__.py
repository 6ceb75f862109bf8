"""Everything that runs inside the run subprocess (`python -m engine.worker RUN_DIR`)."""
