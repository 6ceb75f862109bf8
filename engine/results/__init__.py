"""The result schema, AccelBench's own CSV/JSON exports (read and written), History loading."""
