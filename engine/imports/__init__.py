"""Other tools' results files → History rows, as one pipeline of stages laid out as the data flows:

    read/ (bytes → text cells) → shape/ (wide, long, nested, text → rows) → roles/ (settings, measurements,
    units, counts) → identity/ (systems, devices) → view/ (the default chart, Compare's pick)

with facts/ (the mapping every stage fills, units, metric names, the device-name parser with CPU brand strings, MLPerf's
system-description rule, the read file) read by all.
The entries call the stages in turn, the same for the History page and the CLI: `reading.read_raw` (read → shape →
roles: a first mapping) and `importer.apply_import` (the mapping applied → identity → rows). A stage imports only
facts/ and earlier stages (tests/imports/test_import_stages.py). AccelBench's own schema and exports: engine.results.
"""
