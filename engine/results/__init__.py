"""The result schema, CSV reading and writing, History loading and column mapping."""
