"""Other tools' results files: shapes, readers, system names, sidecars, the import mapping and the one import
path (importer), and imported rows as Compare rates. AccelBench's own schema and exports: engine.results."""
